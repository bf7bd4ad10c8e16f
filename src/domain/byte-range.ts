/** A span of a file's bytes, `start` to `end` inclusive (as HTTP's `Range: bytes=start-end` names it). */
export interface ByteRange {
  start: number;
  end: number;
}
