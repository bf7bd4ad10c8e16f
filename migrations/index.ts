import type { Migration } from 'kysely';
import { loadMigrations } from './load.js';

/** Every migration in order, loaded (for tests and tools; the program asks loadMigrations when a store needs one). */
export const migrations: Record<string, Migration> = await loadMigrations();
