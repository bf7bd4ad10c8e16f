import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { note, printJson, printList, printRecord } from '../output.js';
import { usesTenant, writes } from '../store-access.js';

export function createDbCommand(ctx: CliContext): Command {
  // the whole store, every tenant
  const db = usesTenant(
    new Command('db').description('the store: create, status, backup, copy between engines'),
    'none',
  );

  writes(db.command('init'))
    .description('create the store (an SQLite file and its folder) and bring it to the current schema')
    .action(async () => {
      let created = false;
      const { store } = await ctx.localBackend('db init', { onMissing: (o) => (created = o === 'created') });
      const st = await store.status();
      const result = { location: st.location, created, schema_version: st.schema_version };
      if (ctx.config().json) return printJson(ctx, result);
      note(ctx, `${created ? 'created' : 'found'} the store ${st.location} (schema ${st.schema_version})`);
    });

  db.command('status')
    .description('which store this is, its schema version, how many records it holds, whether its hash chains hold')
    .action(async () => {
      const backend = await ctx.localBackend('db status');
      const st = await backend.store.status();
      // The hash chains alone, and it says so: comparing the audit trails with the journal reads every trail row and
      // expands every import batch (a store of 1M imported consents: about 21 s of CPU for the chains, 83 s with the
      // trails), which is `audit verify`'s work, not a status's. A tampered chain is reported here too.
      const chains = await (await backend.auditor()).verify(undefined, undefined, { trails: false });
      const broken = chains.filter((c) => !c.ok);
      const journal = {
        ok: broken.length === 0,
        chains: chains.length,
        entries: chains.reduce((n, c) => n + c.entries, 0),
        broken: broken.map((c) => ({ tenant: c.tenant, ...c.problem })),
        trails_compared: false,
      };
      const journalLine = journal.ok
        ? `${journal.entries} entries in ${journal.chains} chain${journal.chains === 1 ? '' : 's'}: hashes and links intact (audit trails not compared here: compliance audit verify compares them)`
        : `BROKEN: ${broken.map((c) => `tenant ${JSON.stringify(c.tenant)} at entry ${c.problem?.seq} (${c.problem?.kind})`).join('; ')} (compliance audit verify names more)`;
      const { mediaHealth } = await import('../../store/store.js');
      const media = await mediaHealth(backend.store);
      // media that cannot be reached are a problem the status found (exit 6), as for a CI gate
      if (media.status !== 'ok') ctx.exitCode = 6;
      const sqlite = st.engine === 'sqlite';
      // SQLite keeps the keys it had before PostgreSQL was added (file, sqlite_version)
      const status = {
        engine: st.engine,
        ...(sqlite ? { file: st.location, sqlite_version: st.server_version } : { url: st.location }),
        server_version: st.server_version,
        ...st.details,
        schema_version: st.schema_version,
        migrations_known: st.migrations_known,
        tables: st.tables,
        journal,
        media,
      };
      const size = Number(st.details.size_bytes ?? 0);
      await printRecord(ctx, status, [
        ['engine', st.engine],
        [sqlite ? 'file' : 'url', st.location],
        ['size', `${(size / 1024).toFixed(0)} KiB`],
        [sqlite ? 'sqlite' : 'postgresql', st.server_version],
        ...Object.entries(st.details)
          .filter(([k]) => k !== 'size_bytes')
          .map(([k, v]) => [k.replace(/_/g, ' '), v] as [string, unknown]),
        ['schema version', `${st.schema_version} (this version knows ${st.migrations_known})`],
        ['journal', journalLine],
        ['media', media.status === 'ok' ? `${media.location} (reachable)` : `UNAVAILABLE: ${media.message}`],
        ...Object.entries(st.tables).map(([t, n]) => [`rows in ${t}`, n] as [string, unknown]),
      ]);
    });

  db.command('backup')
    .description("copy the store with SQLite's online backup (safe while a server runs)")
    .argument('<file>')
    .option('--force', 'overwrite an existing file')
    .action(async (targetArg: string, o: { force?: boolean }) => {
      const target = resolve(targetArg);
      if (existsSync(target) && !o.force)
        throw new DomainError('conflict', `${target} exists; use --force to overwrite it`);
      const { store } = await ctx.localBackend('db backup');
      await store.backup(target);
      note(ctx, `backed up ${store.location} to ${target} (${(statSync(target).size / 1024).toFixed(0)} KiB)`);
      if (ctx.config().json) printJson(ctx, { file: target, size_bytes: statSync(target).size });
    });

  db.command('copy')
    .description('copy a whole store, every tenant and table, between SQLite and PostgreSQL, then verify it')
    .argument('<source>', 'SQLite file or postgres:// URL to copy from')
    .argument('<target>', 'SQLite file or postgres:// URL to copy into (created if missing; must be empty)')
    .option('--force', 'replace the contents of a target that is not empty')
    .action(async (sourceArg: string, targetArg: string, o: { force?: boolean }) => {
      const { openStore } = await import('../../store/open-store.js');
      const { copyStore } = await import('../../store/copy.js');
      const upgrade = (where: string) => (from: number, to: number) =>
        note(ctx, `upgrading the ${where} store from schema ${from} to ${to}`);
      // the source is only read: a mistyped file is refused, not created empty
      const source = await openStore(sourceArg, { onUpgrade: upgrade('source'), ifMissing: 'refuse' });
      try {
        const target = await openStore(targetArg, { onUpgrade: upgrade('target') });
        try {
          const report = await copyStore(source, target, {
            force: o.force,
            onTable: (table, rows) => {
              if (ctx.io.stderrIsTTY) note(ctx, `copied ${table}: ${rows} rows`);
            },
          }).catch((e) => {
            throw target.mapError(source.mapError(e));
          });
          if (ctx.config().json) printJson(ctx, report);
          else {
            note(
              ctx,
              `copied ${report.source} to ${report.target} (${report.engines}), ${report.rows} rows in ${report.seconds} s`,
            );
            await printList(ctx, report.tables, [
              { header: 'table', value: (t) => t.table },
              { header: 'rows', value: (t) => t.target_rows },
              { header: 'checksum', value: (t) => t.target_checksum.slice(0, 16) },
              {
                header: 'verified',
                value: (t) =>
                  t.ok ? 'ok' : `MISMATCH (source ${t.source_rows} rows, ${t.source_checksum.slice(0, 16)})`,
              },
            ]);
          }
          if (!report.ok)
            throw new DomainError(
              'storage',
              `the copy in ${report.target} does not match its source: drop its contents (or the database) and copy again`,
            );
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    });

  return db;
}
