import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { ImportDecoder, type ImportEncoding } from '../../../domain/consents/text-encoding.js';
import type { CliContext } from '../../context.js';
import type { RejectsForm } from './rejects.js';

/** Counts bytes and lines of a file as it is read, for a progress bar on a terminal. */
export async function* withProgress(
  ctx: CliContext,
  file: string,
  stream: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  if (!ctx.io.stderrIsTTY || ctx.config().json) {
    yield* stream;
    return;
  }
  const total = file === '-' ? 0 : statSync(file).size;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: ctx.io.stderr as NodeJS.WriteStream,
      format: '{bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const start = Date.now();
  let bytes = 0,
    rows = 0;
  bar.start(total || 1, 0, { rows: 0, rate: 0 });
  try {
    for await (const chunk of stream) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
      bar.update(total ? bytes : 0, { rows, rate: Math.round(rows / Math.max(0.001, (Date.now() - start) / 1000)) });
      yield chunk;
    }
    bar.update(total || 1);
  } finally {
    bar.stop();
  }
}

/**
 * Reads a local file through the import's decoder once, so a wrong encoding is refused before anything is sent;
 * answers the SHA-256 of its bytes, which the run records, and its encoding and byte order mark, which a rejects file
 * keeps.
 */
export async function checkEncoding(
  file: string,
  encoding: ImportEncoding | undefined,
): Promise<{ sha256: string; encoding: RejectsForm['encoding']; bom: boolean }> {
  const decoder = new ImportDecoder(encoding);
  const hash = createHash('sha256');
  // the stream's default pieces of 64 KiB: pieces of 1 MiB made this pass three times slower and raised the import's
  // peak memory by 80 MB (1M rows: 155 MB instead of 235 MB), their buffers and strings outliving the pass
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    decoder.decode(chunk as Buffer);
  }
  decoder.end();
  return {
    sha256: hash.digest('hex'),
    encoding: (decoder.encoding ?? encoding ?? 'utf-8') as RejectsForm['encoding'],
    bom: decoder.bom,
  };
}
