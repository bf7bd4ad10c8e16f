import { IMPORT_WRITER, VERIFY_READER } from './sqlite/thread-roles.js';

/** The module each role of a worker thread runs: loading it runs the thread (its module checks the role it has). */
const MODULES: Record<string, () => Promise<unknown>> = {
  [VERIFY_READER]: () => import('./sqlite/verify-threads.js'),
  [IMPORT_WRITER]: () => import('./sqlite/consent-import-writer.js'),
};

/**
 * Runs a worker thread the store started: the program's loader (src/loader.ts) starts every thread from its own file,
 * which loads the program whole, and hands the thread's role here.
 */
export async function startThread(role: string): Promise<void> {
  const load = Object.hasOwn(MODULES, role) ? MODULES[role] : undefined;
  if (!load) throw new Error(`no worker thread has the role ${role}`);
  await load();
}
