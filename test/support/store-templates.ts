import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/store/open-store.js';

/**
 * The stores a test run copies instead of migrating each new one: a SQLite file and a PostgreSQL database with every
 * migration applied and no rows. Migrating a new PostgreSQL database took 4–8 s on the 2-core machine under load, a
 * copy with `CREATE DATABASE … TEMPLATE` about 1 s; a SQLite file 0.2–1.5 s against a file copy. Made once by the
 * global setup (test/global-setup.ts); `freshStore` in test/support/helpers.ts copies them. The migrations write no
 * per-store identity (ids and keys are made when first used), so copies are as independent as migrated stores.
 */
export interface StoreTemplates {
  sqlite: string;
  /** The template database's name on the run's PostgreSQL server. */
  postgres: string;
  /** Drops the template database (the SQLite file goes with the setup's temp folder). */
  drop(): Promise<void>;
}

async function admin(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

export async function makeStoreTemplates(adminUrl: string, dir: string): Promise<StoreTemplates> {
  const sqlite = join(dir, 'template.db');
  const name = `t_template_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, `create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  // both migrated at once; closed before any copy (PostgreSQL copies no database someone is connected to)
  await Promise.all([sqlite, u.toString()].map(async (target) => (await openStore(target)).close()));
  return { sqlite, postgres: name, drop: () => admin(adminUrl, `drop database if exists ${name}`) };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated, empty SQLite file and PostgreSQL database new stores are copied from (absent: migrate each). */
    storeTemplates?: { sqlite: string; postgres: string };
  }
}
