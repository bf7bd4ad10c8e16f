import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { isMainThread, workerData } from 'node:worker_threads';
import type * as Bundle from './bundle.js';
import { LOADED_PROGRAM, type LoadedProgram } from './store/loaded-program.js';

/**
 * The program's loader (dist/compliance.cjs): the program is one CommonJS file (dist/program.cjs), compiled with the
 * code V8 made of it the last time (dist/program.cjs.v8-cache). Node 20 keeps no such cache for ES modules; with it a
 * command starts without compiling the modules it loads again, and without finding and reading one file per module.
 * A cache V8 refuses (another Node version) is written anew; a program folder that cannot be written runs without.
 *
 * Worker threads start from this file too: they load the program the same way and run the role they were given.
 */
declare const __dirname: string;

const PROGRAM = join(__dirname, 'program.cjs');
const CACHE = `${PROGRAM}.v8-cache`;

function readCache(): Buffer | undefined {
  try {
    return readFileSync(CACHE);
  } catch {
    return undefined;
  }
}

// which file the program came from, for the threads it starts (checkProgramFile)
const { ino, size, mtimeMs } = statSync(PROGRAM);
(globalThis as { [LOADED_PROGRAM]?: LoadedProgram })[LOADED_PROGRAM] = { file: PROGRAM, ino, size, mtimeMs };
const cachedData = readCache();
// CommonJS's own wrapper, on the program's first line so that stack traces keep its line numbers; the build makes the
// program ASCII, which reads as Latin-1 without decoding
const script = new Script(
  `(function (exports, require, module, __filename, __dirname) {${readFileSync(PROGRAM, 'latin1')}\n})`,
  { filename: PROGRAM, cachedData },
);
const module = { exports: {} as typeof Bundle };
script.runInThisContext()(module.exports, createRequire(PROGRAM), module, PROGRAM, __dirname);

export const program: typeof Bundle = module.exports;

/**
 * Writes the cache where there was none or V8 refused it, with the code compiled so far (the command that ran):
 * under another name first, so that a process starting meanwhile reads the old cache or the new one, whole. The file
 * is opened before V8 serialises the code, so a folder that cannot be written costs a failed open, not a cache made
 * for nothing.
 */
export function keepCache(force = false): void {
  if (!force && cachedData && !script.cachedDataRejected) return;
  const next = `${CACHE}.${process.pid}`;
  let fd: number | undefined;
  try {
    fd = openSync(next, 'w');
    writeSync(fd, script.createCachedData());
    closeSync(fd);
    fd = undefined;
    renameSync(next, CACHE);
  } catch {
    if (fd !== undefined) closeSync(fd);
    rmSync(next, { force: true });
  }
}

const role = (workerData as { role?: unknown } | null)?.role;
if (!isMainThread && typeof role === 'string') void program.startThread(role);
