import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { isMainThread, workerData } from 'node:worker_threads';
import type * as Bundle from './bundle.js';
import { LOADED_PROGRAM, type LoadedProgram } from './store/loaded-program.js';

/**
 * The program's loader (dist/compliance.cjs): the program is one CommonJS file (dist/program.cjs), compiled with the
 * code V8 made of it the last time (dist/program.cjs.v8-cache). Node 20 keeps no such cache for ES modules; with it a
 * command starts without compiling the modules it loads again, and without finding and reading one file per module.
 * A cache V8 refuses (another Node version) is written anew: in the program's folder, or where that cannot be written
 * (an install of another user), in this user's cache folder, named by the program file and the Node version.
 *
 * Worker threads start from this file too: they load the program the same way and run the role they were given.
 */
declare const __dirname: string;

const PROGRAM = join(__dirname, 'program.cjs');
const SHIPPED = `${PROGRAM}.v8-cache`;

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

// which file the program came from, for the threads it starts (checkProgramFile)
const { ino, size, mtimeMs } = statSync(PROGRAM);
(globalThis as { [LOADED_PROGRAM]?: LoadedProgram })[LOADED_PROGRAM] = { file: PROGRAM, ino, size, mtimeMs };
/** This user's cache of this program for this Node: made only where V8 refused the shipped one and dist/ is not ours. */
const OWN_FOLDER = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'compliance');
const OWN = join(OWN_FOLDER, `program-${size}-${Math.round(mtimeMs)}-${process.version}.v8-cache`);
const own = readCache(OWN);
const cachedData = own ?? readCache(SHIPPED);
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
 * Writes the cache where there was none or V8 refused it, with the code compiled so far (the command that ran): in
 * the program's folder, else in this user's (where it replaces the caches of other programs and Node versions).
 */
export function keepCache(force = false): void {
  if (!force && cachedData && !script.cachedDataRejected) return;
  if (!own && writeCache(SHIPPED)) return;
  try {
    mkdirSync(OWN_FOLDER, { recursive: true });
    if (!writeCache(OWN)) return;
    for (const f of readdirSync(OWN_FOLDER))
      if (/^program-.*\.v8-cache$/.test(f) && join(OWN_FOLDER, f) !== OWN) rmSync(join(OWN_FOLDER, f), { force: true });
  } catch {
    // no cache folder of this user's either: the program runs without
  }
}

/**
 * Writes the cache to `file`, under another name first, so that a process starting meanwhile reads the old cache or
 * the new one, whole. The file is opened before V8 serialises the code, so a folder that cannot be written costs a
 * failed open, not a cache made for nothing.
 */
function writeCache(file: string): boolean {
  const next = `${file}.${process.pid}`;
  let fd: number | undefined;
  try {
    fd = openSync(next, 'w');
    writeSync(fd, script.createCachedData());
    closeSync(fd);
    fd = undefined;
    renameSync(next, file);
    return true;
  } catch {
    if (fd !== undefined) closeSync(fd);
    rmSync(next, { force: true });
    return false;
  }
}

const role = (workerData as { role?: unknown } | null)?.role;
if (!isMainThread && typeof role === 'string') void program.startThread(role);
