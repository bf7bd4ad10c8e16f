import type { Migration } from 'kysely';
import { MIGRATION_NAMES, MIGRATIONS } from './names.js';

/** Every migration in order, loaded (names.ts lists them). Append-only: a migration that has landed is never edited. */
export const migrations: Record<string, Migration> = Object.fromEntries(
  await Promise.all(MIGRATION_NAMES.map(async (name) => [name, await MIGRATIONS[name]()] as const)),
);
