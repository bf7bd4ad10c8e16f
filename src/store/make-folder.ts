import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Creates a folder and its missing parents, one level at a time. Node's own `mkdir({ recursive: true })` never returns
 * for a path under /proc (it retries ENOENT forever at full CPU); creating each level alone fails with a plain error.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      statSync(d);
      break;
    } catch {
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (e) {
      // another process may have created it in the meantime
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
