import { nodeCrypto } from '../domain/node-crypto.js';
import type { IdSource } from '../domain/clock.js';

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Time-ordered UUIDv7 ids (RFC 9562): new rows land at the end of the primary-key index, which keeps bulk inserts
 * fast, and ids sort in creation order. A counter in the random bits keeps ids monotonic within one millisecond.
 */
export function uuidv7Source(now: () => number = Date.now): IdSource {
  const pool = new Uint8Array(16 * 256);
  let poolPos = pool.length;
  let lastMs = -1;
  let seq = 0;
  return {
    next(): string {
      if (poolPos >= pool.length) {
        nodeCrypto().randomFillSync(pool);
        poolPos = 0;
      }
      const b = pool.subarray(poolPos, poolPos + 16);
      poolPos += 16;
      let ms = now();
      if (ms <= lastMs) {
        ms = lastMs;
        seq++;
      } else {
        lastMs = ms;
        seq = b[6]! & 0x07; // random start, leaving room to count up
      }
      if (seq > 0xfff) {
        lastMs = ++ms;
        seq = 0;
      }
      b[0] = (ms / 2 ** 40) & 0xff;
      b[1] = (ms / 2 ** 32) & 0xff;
      b[2] = (ms >>> 24) & 0xff;
      b[3] = (ms >>> 16) & 0xff;
      b[4] = (ms >>> 8) & 0xff;
      b[5] = ms & 0xff;
      b[6] = 0x70 | ((seq >>> 8) & 0x0f);
      b[7] = seq & 0xff;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = (i: number) => HEX[b[i]!];
      return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
    },
  };
}
