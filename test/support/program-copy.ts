import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A copy of the built program (bin, dist, package.json, fixtures) inside the project, whose packages resolve from the
 * project's node_modules, removed after the file's tests: for tests that change the program's files under it.
 */
export function programCopy(prefix: string): string {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const copy = mkdtempSync(join(ROOT, 'tmp', prefix));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  for (const part of ['bin', 'dist', 'package.json', 'fixtures'])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  return copy;
}
