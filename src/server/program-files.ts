import { fileURLToPath } from 'node:url';
import { DomainError } from '../domain/errors.js';

/** The folder this program's modules are loaded from (dist/ when built). */
const PROGRAM_FOLDER = fileURLToPath(new URL('.', import.meta.url));

/**
 * A module of this program that a running server could not load because its file is gone: the program's files were
 * replaced under it (an upgrade in place rebuilds dist/ with new file names). The server keeps answering what it had
 * loaded; everything else needs a restart, and says so (503) instead of an internal error.
 */
export function programFilesChanged(e: unknown): DomainError | undefined {
  const err = e as { code?: unknown; message?: unknown };
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || typeof err.message !== 'string') return undefined;
  // the missing file itself (not the one importing it: a package missing from node_modules is another matter)
  const missing = /Cannot find module '([^']+)'/.exec(err.message)?.[1];
  if (!missing?.startsWith(PROGRAM_FOLDER)) return undefined;
  return new DomainError(
    'unavailable',
    "this server's program files changed while it runs (an upgrade in place?): restart compliance serve to load them",
  );
}
