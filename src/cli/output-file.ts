import { createWriteStream, type WriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { DomainError } from '../domain/errors.js';
import { makeFolder } from '../store/make-folder.js';

const REASONS: Record<string, string> = {
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOSPC: 'no space left on the device',
  ENOENT: 'the folder cannot be created there',
};

/** A file the CLI cannot write, as one line (exit 1) instead of an unexpected error. */
export function outputFileError(path: string, e: unknown): DomainError {
  const code = (e as NodeJS.ErrnoException)?.code ?? '';
  return new DomainError('storage', `cannot write ${path}: ${REASONS[code] ?? (e as Error)?.message ?? String(e)}`, [
    { path: 'output', message: REASONS[code] ?? code },
  ]);
}

const parent = (path: string) => {
  try {
    makeFolder(dirname(path));
  } catch (e) {
    throw outputFileError(path, e);
  }
};

/** Writes an output file whole, creating its folder first. */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  parent(path);
  try {
    await writeFile(path, data);
  } catch (e) {
    throw outputFileError(path, e);
  }
}

/** Opens an output file for streaming, creating its folder first; resolves once the file is open. */
export async function openOutputFile(path: string, options?: { encoding?: BufferEncoding }): Promise<WriteStream> {
  parent(path);
  const out = createWriteStream(path, options);
  try {
    await once(out, 'open');
  } catch (e) {
    throw outputFileError(path, e);
  }
  return out;
}
