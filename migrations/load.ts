import type { Migration } from 'kysely';
import { MIGRATION_NAMES, MIGRATIONS } from './names.js';

let loaded: Promise<Record<string, Migration>> | undefined;

/**
 * Every migration in order, loaded once (names.ts lists them): a function rather than a module's top-level `await`,
 * which the program's CommonJS bundle cannot hold. Append-only: a migration that has landed is never edited.
 */
export function loadMigrations(): Promise<Record<string, Migration>> {
  loaded ??= Promise.all(MIGRATION_NAMES.map(async (name) => [name, await MIGRATIONS[name]()] as const)).then((pairs) =>
    Object.fromEntries(pairs),
  );
  return loaded;
}
