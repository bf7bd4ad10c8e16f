import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportDecoder, type ImportEncoding } from '../../domain/consents/text-encoding.js';
import type { StreamBody } from '../../contract/operation.js';

/** The decoded text of an import body, and how to clean up after reading it. */
export interface ImportText {
  text: AsyncIterable<string>;
  /** SHA-256 (hex) of the body's bytes as received, once all of them have been read; before that undefined. */
  sha256(): string | undefined;
  close(): Promise<void>;
}

/** The SHA-256 of the bytes that pass through it, available once they all have. */
class BodyDigest {
  private readonly hash: Hash = createHash('sha256');
  private hex?: string;
  update(chunk: Uint8Array | string): void {
    this.hash.update(chunk);
  }
  end(): void {
    this.hex = this.hash.digest('hex');
  }
  get(): string | undefined {
    return this.hex;
  }
}

async function* decoded(
  body: AsyncIterable<Uint8Array | string>,
  decoder: ImportDecoder,
  ready: () => Promise<void>,
  digest: BodyDigest,
  signal: AbortSignal | undefined,
) {
  for await (const chunk of body) {
    // backpressure: read on only while the writer keeps up, so memory stays flat whatever the file size
    await ready();
    signal?.throwIfAborted();
    digest.update(chunk);
    const text = decoder.decode(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  digest.end();
  if (rest) yield rest;
}

/**
 * The text of an import, decoded so that bytes invalid in its encoding are refused before any row is written. A body
 * the caller has already read through once (`checked`: the CLI on a local file) or a dry run streams straight through;
 * any other body (an upload, stdin) is decoded into a temporary UTF-8 file first, removed afterwards.
 */
export async function openImportText(
  input: StreamBody & { checked?: boolean },
  encoding: ImportEncoding | undefined,
  direct: boolean,
  ready: () => Promise<void>,
): Promise<ImportText> {
  const digest = new BodyDigest();
  const sha256 = () => digest.get();
  if (input.checked || direct)
    return {
      text: decoded(input.body, new ImportDecoder(encoding), ready, digest, input.signal),
      sha256,
      close: async () => undefined,
    };
  const dir = await mkdtemp(join(tmpdir(), 'compliance-import-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const spool = join(dir, 'body.txt');
  try {
    const out = createWriteStream(spool, { encoding: 'utf8' });
    const failed = once(out, 'error').then(([e]) => Promise.reject(e as Error));
    failed.catch(() => undefined);
    for await (const text of decoded(
      input.body,
      new ImportDecoder(encoding),
      async () => undefined,
      digest,
      input.signal,
    ))
      if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } catch (e) {
    await remove();
    throw e;
  }
  async function* read() {
    for await (const text of createReadStream(spool, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      await ready();
      input.signal?.throwIfAborted();
      yield text as string;
    }
  }
  return { text: read(), sha256, close: remove };
}
