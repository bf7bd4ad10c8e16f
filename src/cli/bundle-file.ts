import { createReadStream } from 'node:fs';
import { strFromU8, Unzip, UnzipInflate } from 'fflate';
import type { BundleManifest } from '../backend/sync/bundle.js';
import { DomainError } from '../domain/errors.js';

/**
 * Finds `manifest.json` in a bundle's bytes as they pass (fflate's streaming unzip, which inflates that entry only),
 * so a bundle is never held in memory to be summarised. `manifest()` is undefined when the bytes held none.
 */
export function manifestReader(): { push(chunk: Uint8Array | string): void; manifest(): BundleManifest | undefined } {
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  let text: string | undefined;
  unzip.onfile = (file) => {
    if (file.name !== 'manifest.json') return;
    let collected = '';
    file.ondata = (err, data, final) => {
      if (err) return;
      collected += strFromU8(data);
      if (final) text = collected;
    };
    file.start();
  };
  let broken = false;
  return {
    push(chunk) {
      if (broken) return;
      try {
        unzip.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      } catch {
        broken = true; // not a ZIP archive: the import's own check says so
      }
    },
    manifest() {
      if (broken || text === undefined) return undefined;
      try {
        return JSON.parse(text) as BundleManifest;
      } catch {
        return undefined;
      }
    },
  };
}

/** The bytes of a file, read only once they are asked for (an upload that never starts opens nothing). */
export async function* fileBytes(file: string): AsyncGenerator<Uint8Array> {
  yield* createReadStream(file);
}

/** The tenant a bundle file says it holds; undefined when it is no bundle (the import names what is wrong). */
export async function bundleTenant(file: string): Promise<string | undefined> {
  const reader = manifestReader();
  try {
    for await (const chunk of createReadStream(file)) reader.push(chunk as Uint8Array);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new DomainError('not_found', `${file} not found`);
    throw new DomainError('storage', `cannot read ${file}: ${(e as Error).message}`);
  }
  const tenant = reader.manifest()?.tenant;
  return typeof tenant === 'string' ? tenant : undefined;
}
