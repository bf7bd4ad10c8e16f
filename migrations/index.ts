import type { Migration } from 'kysely';
import * as m0001 from './0001_dsfa_and_keys.js';

/** Every migration in order. Append-only: a migration that has landed is never edited. */
export const migrations: Record<string, Migration> = {
  '0001_dsfa_and_keys': m0001,
};
