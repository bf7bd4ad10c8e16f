import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { note, printRecord } from '../output.js';

export function createDbCommand(ctx: CliContext): Command {
  const db = new Command('db').description('the embedded SQLite store');

  db.command('status')
    .description('where the store is, its schema version and how many records it holds')
    .action(async () => {
      const { store } = await ctx.localBackend('db status');
      const { MIGRATION_COUNT } = await import('../../backend/local/database.js');
      const s = store.sqlite;
      const tables = (
        s
          .prepare(
            "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name",
          )
          .all() as Array<{ name: string }>
      ).map((t) => t.name);
      const counts = Object.fromEntries(
        tables.map((t) => [t, (s.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n]),
      );
      const status = {
        file: store.file,
        size_bytes: existsSync(store.file) ? statSync(store.file).size : 0,
        sqlite_version: (s.prepare('select sqlite_version() as v').get() as { v: string }).v,
        journal_mode: s.pragma('journal_mode', { simple: true }),
        schema_version: s.pragma('user_version', { simple: true }),
        migrations_known: MIGRATION_COUNT,
        tables: counts,
      };
      await printRecord(ctx, status, [
        ['file', status.file],
        ['size', `${(status.size_bytes / 1024).toFixed(0)} KiB`],
        ['sqlite', status.sqlite_version],
        ['journal mode', status.journal_mode],
        ['schema version', `${status.schema_version} (this version knows ${MIGRATION_COUNT})`],
        ...Object.entries(counts).map(([t, n]) => [`rows in ${t}`, n] as [string, unknown]),
      ]);
    });

  db.command('backup')
    .description("copy the store with SQLite's online backup (safe while a server runs)")
    .argument('<file>')
    .option('--force', 'overwrite an existing file')
    .action(async (file: string, o: { force?: boolean }) => {
      const target = resolve(file);
      if (existsSync(target) && !o.force)
        throw new DomainError('conflict', `${target} exists; use --force to overwrite it`);
      const { store } = await ctx.localBackend('db backup');
      if (target === store.file) throw new DomainError('bad_request', 'the backup file must differ from the store');
      try {
        await store.sqlite.backup(target);
      } catch (e) {
        throw new DomainError('storage', `backup to ${target} failed: ${(e as Error).message}`);
      }
      note(ctx, `backed up ${store.file} to ${target} (${(statSync(target).size / 1024).toFixed(0)} KiB)`);
      if (ctx.config().json)
        ctx.io.stdout.write(JSON.stringify({ file: target, size_bytes: statSync(target).size }) + '\n');
    });

  return db;
}
