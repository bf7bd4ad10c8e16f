/**
 * What the program's loader (src/loader.ts) records of the program file it loaded, under a global symbol: the store
 * checks it before starting a thread (checkProgramFile). Absent where tests run the sources.
 */
export interface LoadedProgram {
  file: string;
  ino: number;
  size: number;
  mtimeMs: number;
}
export const LOADED_PROGRAM = Symbol.for('compliance.loaded-program');
