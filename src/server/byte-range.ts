import type { ByteRange } from '../domain/byte-range.js';

/** What a request's `Range` asks of a file: all of it, one span, or a span that starts past its end (416). */
export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; range: ByteRange } | { kind: 'unsatisfiable' };

const WHOLE: RangeAnswer = { kind: 'whole' };

/**
 * Reads a `Range` header (RFC 9110, section 14) against a file of `size` bytes. One span of bytes is served
 * (`bytes=0-499`, `bytes=500-`, the last 500 as `bytes=-500`); what the server may pass over is answered whole: a
 * header it cannot read, another unit, several spans (what players ask for is one), and an `If-Range` that names
 * another version of the file than `etag`.
 */
export function requestedRange(
  header: string | undefined,
  ifRange: string | undefined,
  size: number,
  etag: string,
): RangeAnswer {
  if (header === undefined || (ifRange !== undefined && ifRange.trim() !== etag)) return WHOLE;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return WHOLE;
  const first = m[1] === '' ? undefined : Number(m[1]);
  const last = m[2] === '' ? undefined : Number(m[2]);
  if (first === undefined) {
    // a suffix: the last `last` bytes
    if (last === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', range: { start: Math.max(size - last!, 0), end: size - 1 } };
  }
  if (last !== undefined && last < first) return WHOLE;
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', range: { start: first, end: Math.min(last ?? size - 1, size - 1) } };
}
