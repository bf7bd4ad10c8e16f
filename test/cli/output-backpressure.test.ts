import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeChunk } from '../../src/cli/output.js';

describe('writing a long output to a slow reader', () => {
  it('waits for each drain and leaves no listeners behind (a long consents export warned of a leak)', async () => {
    const received: string[] = [];
    // a reader that takes each chunk a turn of the event loop later, with room for one chunk: every write waits
    const out = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _enc, done) {
        received.push(chunk.toString());
        setImmediate(done);
      },
    });
    const before = { error: out.listenerCount('error'), close: out.listenerCount('close') };
    for (let i = 0; i < 50; i++) await writeChunk(out, `line ${i}\n`);
    expect(received).toHaveLength(50);
    expect({ error: out.listenerCount('error'), close: out.listenerCount('close') }).toEqual(before);
    expect(out.listenerCount('drain')).toBe(0);
  });

  it('fails when the reader goes away while it waits', async () => {
    const out = new Writable({ highWaterMark: 1, write: () => undefined }); // never takes a chunk
    const pending = writeChunk(out, 'x'.repeat(10));
    out.destroy(new Error('EPIPE: the reader went away'));
    await expect(pending).rejects.toThrow('EPIPE');
  });
});
