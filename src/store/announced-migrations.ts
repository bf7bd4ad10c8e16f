import type { Migration } from 'kysely';
import type { UpgradeListener } from './store.js';

/**
 * The migrations, wrapped so that `onUpgrade` hears of an upgrade only from the process that applies it: kysely's
 * migrator calls `up` only for the migrations still pending once it holds the migration lock, so a replica that
 * waited for another one's upgrade applies nothing and says nothing. A new store (from schema 0) says nothing either.
 */
export function announcedMigrations(
  migrations: Record<string, Migration>,
  onUpgrade: UpgradeListener | undefined,
): Record<string, Migration> {
  if (!onUpgrade) return migrations;
  const names = Object.keys(migrations);
  let told = false;
  return Object.fromEntries(
    names.map((name, i) => {
      const m = migrations[name]!;
      const up: Migration['up'] = async (db) => {
        if (!told && i > 0) onUpgrade(i, names.length, names.slice(i));
        told = true;
        await m.up(db);
      };
      return [name, { ...m, up }];
    }),
  );
}
