import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let found: string | null | undefined;

/**
 * better-sqlite3's native addon, named to it directly: left to find it, the package's `bindings` helper tries a dozen
 * paths on every start (3 to 10 ms of a short command). Nothing (the package's own search) when the addon is not
 * where an install puts it.
 */
export function nativeBinding(): { nativeBinding?: string } {
  if (found === undefined) {
    try {
      const main = createRequire(import.meta.url).resolve('better-sqlite3');
      const file = join(dirname(main), '..', 'build', 'Release', 'better_sqlite3.node');
      found = existsSync(file) ? file : null;
    } catch {
      found = null;
    }
  }
  return found ? { nativeBinding: found } : {};
}
