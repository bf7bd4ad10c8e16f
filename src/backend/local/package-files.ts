import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder of our package.json, found from this file whether it runs bundled (dist/) or from src/. */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'fixtures'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the compliance package folder');
    dir = up;
  }
  return (root = dir);
}

/** A file shipped in fixtures/. */
export const fixturePath = (...parts: string[]): string => join(packageRoot(), 'fixtures', ...parts);
