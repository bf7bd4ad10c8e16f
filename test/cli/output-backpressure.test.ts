import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeChunk } from '../../src/cli/output.js';
import { writeOutputFileWhole } from '../../src/cli/output-file.js';
import { tmp } from '../support/helpers.js';

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

  it('writes a whole file (a bundle) chunk by chunk without a leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const path = join(tmp(), 'bundle.jsonl');
      const chunk = 'x'.repeat(64 * 1024); // four times the file stream's buffer: every write waits for a drain
      await writeOutputFileWhole(
        path,
        (async function* () {
          for (let i = 0; i < 40; i++) yield chunk;
        })(),
      );
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(statSync(path).size).toBe(40 * chunk.length);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
