import { statSync } from 'node:fs';
import { DomainError } from '../../domain/errors.js';
import { LOADED_PROGRAM, type LoadedProgram } from '../loaded-program.js';

/** The roles a worker thread of the SQLite store is started with (workerData.role): each names the module it runs. */
export const VERIFY_READER = 'compliance-verify-reader';
export const IMPORT_WRITER = 'compliance-consents-import-writer';

/**
 * Whether a module's file can be started as a worker thread: a built one (the program's loader, dist/compliance.cjs)
 * can, the TypeScript sources the tests run cannot (their threads' work runs on the calling thread).
 */
export const startsThreads = (moduleUrl: string): boolean => /\.c?js$/.test(moduleUrl);

/**
 * Refuses to start a thread when the program's file is no longer the one this process loaded (an upgrade in place
 * rebuilt dist/ while `compliance serve` runs): the thread would load the new program, which need not speak the old
 * one's messages. The process keeps answering with the program it holds; threads need a restart, and it says so.
 */
export function checkProgramFile(): void {
  const loaded = (globalThis as { [LOADED_PROGRAM]?: LoadedProgram })[LOADED_PROGRAM];
  if (!loaded) return;
  let now: { ino: number; size: number; mtimeMs: number } | undefined;
  try {
    now = statSync(loaded.file);
  } catch {
    now = undefined;
  }
  if (now && now.ino === loaded.ino && now.size === loaded.size && now.mtimeMs === loaded.mtimeMs) return;
  throw new DomainError(
    'unavailable',
    "this program's files changed while it runs (an upgrade in place?): restart it to load them",
  );
}
