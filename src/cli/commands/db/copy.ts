import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { CopyReport } from '../../../store/copy.js';
import type { CliContext } from '../../context.js';
import { note, printJson, printList } from '../../output.js';

/** `db copy <source> <target>`: a whole store into another, on either engine, verified table by table. */
export interface CopyOptions {
  source: string;
  target: string;
  force?: boolean;
}

export function register(db: Command, ctx: CliContext): Command {
  return db
    .command('copy')
    .description('copy a whole store, every tenant and table, between SQLite and PostgreSQL, then verify it')
    .argument('<source>', 'SQLite file or postgres:// URL to copy from')
    .argument('<target>', 'SQLite file or postgres:// URL to copy into (created if missing; must be empty)')
    .option('--force', 'replace the contents of a target that is not empty')
    .action((source: string, target: string, o: { force?: boolean }) => run(ctx, { ...o, source, target }));
}

export async function run(ctx: CliContext, o: CopyOptions): Promise<void> {
  const { openStore } = await import('../../../store/open-store.js');
  const { copyStore } = await import('../../../store/copy.js');
  const upgrade = (where: string) => (from: number, to: number) =>
    note(ctx, `upgrading the ${where} store from schema ${from} to ${to}`);
  // the source is only read: a mistyped file is refused, not created empty
  const source = await openStore(o.source, { onUpgrade: upgrade('source'), ifMissing: 'refuse' });
  try {
    const target = await openStore(o.target, { onUpgrade: upgrade('target') });
    try {
      const report = await copyStore(source, target, {
        force: o.force,
        onTable: (table, rows) => {
          if (ctx.io.stderrIsTTY) note(ctx, `copied ${table}: ${rows} rows`);
        },
      }).catch((e) => {
        throw target.mapError(source.mapError(e));
      });
      await printReport(ctx, report);
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
}

async function printReport(ctx: CliContext, report: CopyReport): Promise<void> {
  if (ctx.config().json) return printJson(ctx, report);
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
      value: (t) => (t.ok ? 'ok' : `MISMATCH (source ${t.source_rows} rows, ${t.source_checksum.slice(0, 16)})`),
    },
  ]);
}
