import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { DomainError } from '../domain/errors.js';
import type { DB } from './db-types.js';
import { engineFor } from './engine.js';
import type { Store } from './store.js';
import { writeTransaction } from './transaction.js';

/** Tables of any name, for code that walks the whole schema. */
type AnyTables = Record<string, Record<string, unknown>>;
const untyped = (db: Kysely<DB>) => db as unknown as Kysely<AnyTables>;

export interface TableCopy {
  table: string;
  source_rows: number;
  target_rows: number;
  /** SHA-256 over the table's rows in a fixed order, the same on both engines when the contents are the same. */
  source_checksum: string;
  target_checksum: string;
  ok: boolean;
}

export interface CopyReport {
  source: string;
  target: string;
  engines: string;
  schema_version: number;
  tables: TableCopy[];
  rows: number;
  seconds: number;
  ok: boolean;
}

export interface CopyOptions {
  /** Replace the contents of a target that is not empty. */
  force?: boolean;
  /** Told as each table is being written. */
  onTable?: (table: string, rows: number) => void;
  now?: () => number;
}

/** Parents before children, so foreign keys hold at every insert; ties in name order. */
function writeOrder(tables: string[], parents: Map<string, string[]>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: string[]) => {
    if (seen.has(t) || path.includes(t)) return;
    for (const p of parents.get(t) ?? []) if (p !== t && tables.includes(p)) visit(p, [...path, t]);
    seen.add(t);
    out.push(t);
  };
  for (const t of [...tables].sort()) visit(t, []);
  return out;
}

/**
 * Tables an engine derives from others by itself (PostgreSQL's consent tallies, migration 0013): not copied and not
 * compared; the target's own triggers build them from the rows copied.
 */
const DERIVED = new Set(['consent_tally', 'consent_user', 'consent_user_tally']);

async function columnsOf(db: Kysely<DB>): Promise<Map<string, string[]>> {
  const tables = await db.introspection.getTables();
  return new Map(
    tables
      .filter((t) => !t.name.startsWith('kysely_') && !t.isView && !DERIVED.has(t.name))
      .map((t) => [t.name, t.columns.map((c) => c.name).sort()]),
  );
}

/** A value as text, so that the checksum of a row is the same whichever engine read it. */
const canonical = (v: unknown): unknown =>
  Buffer.isBuffer(v) || v instanceof Uint8Array ? `x${Buffer.from(v).toString('hex')}` : v;

async function checksum(db: Kysely<DB>, table: string, columns: string[]): Promise<{ rows: number; sum: string }> {
  const hash = createHash('sha256');
  let rows = 0;
  // every column, NULLs first on both engines, so equal contents hash equally whatever their physical order
  let query = untyped(db).selectFrom(table).select(columns);
  for (const c of columns) query = query.orderBy(c, (o) => o.asc().nullsFirst());
  for await (const row of query.stream(2000)) {
    hash.update(JSON.stringify(columns.map((c) => canonical(row[c]))) + '\n');
    rows++;
  }
  return { rows, sum: hash.digest('hex') };
}

/** Rows per INSERT: as many as fit in the engines' limits on bound values. */
const rowsPerInsert = (columnCount: number) => Math.max(1, Math.min(1000, Math.floor(30_000 / columnCount)));

/**
 * Copies every table of one store into another (SQLite or PostgreSQL, either way), in one transaction on the target
 * read from one snapshot of the source, then verifies row counts and a checksum per table (the source's read in that
 * same snapshot, so writes to a live source meanwhile do not make it differ). A target that is not
 * empty is refused unless `force` replaces its contents; a failure leaves the target as it was.
 */
export async function copyStore(source: Store, target: Store, opts: CopyOptions = {}): Promise<CopyReport> {
  const now = opts.now ?? Date.now;
  const started = now();
  if (source.kind === target.kind && source.location === target.location)
    throw new DomainError('bad_request', 'source and target are the same store');
  const [from, to] = await Promise.all([source.status(), target.status()]);
  if (from.schema_version !== to.schema_version)
    throw new DomainError(
      'conflict',
      `the stores have different schema versions (${from.schema_version} and ${to.schema_version}); open both with this version of compliance first`,
    );
  const [sourceColumns, targetColumns] = await Promise.all([columnsOf(source.admin), columnsOf(target.admin)]);
  for (const [t, cols] of sourceColumns) {
    if (JSON.stringify(targetColumns.get(t)) !== JSON.stringify(cols))
      throw new DomainError('conflict', `table ${t} differs between the stores; both must be at the same schema`);
  }
  const filled = Object.entries(to.tables).filter(([t, n]) => n > 0 && !DERIVED.has(t));
  if (filled.length && !opts.force)
    throw new DomainError(
      'conflict',
      `the target ${target.location} is not empty (${filled.map(([t, n]) => `${t}: ${n}`).join(', ')}); ` +
        'use --force to replace its contents',
    );
  const order = writeOrder([...sourceColumns.keys()], await engineFor(source.admin).foreignKeyParents(source.admin));

  // one snapshot of the source for the whole copy and for its checksums: rows written meanwhile are in neither
  const snapshot = engineFor(source.admin).snapshotBegin;
  const sums = new Map<string, { rows: number; sum: string }>();
  await source.admin.connection().execute(async (src) => {
    await sql.raw(snapshot).execute(src);
    try {
      await writeTransaction(target.admin, async (trx) => {
        if (opts.force) for (const t of [...order].reverse()) await untyped(trx).deleteFrom(t).execute();
        for (const table of order) {
          const columns = sourceColumns.get(table)!;
          const per = rowsPerInsert(columns.length);
          let written = 0;
          let batch: Array<Record<string, unknown>> = [];
          const flush = async () => {
            if (!batch.length) return;
            await untyped(trx).insertInto(table).values(batch).execute();
            written += batch.length;
            batch = [];
          };
          for await (const row of untyped(src).selectFrom(table).selectAll().stream(2000)) {
            batch.push(row);
            if (batch.length >= per) await flush();
          }
          await flush();
          opts.onTable?.(table, written);
        }
      });
      for (const table of order) sums.set(table, await checksum(src, table, sourceColumns.get(table)!));
    } finally {
      await sql`rollback`.execute(src).catch(() => undefined);
    }
  });

  const tables: TableCopy[] = [];
  for (const table of order) {
    const a = sums.get(table)!;
    const b = await checksum(target.admin, table, sourceColumns.get(table)!);
    tables.push({
      table,
      source_rows: a.rows,
      target_rows: b.rows,
      source_checksum: a.sum,
      target_checksum: b.sum,
      ok: a.rows === b.rows && a.sum === b.sum,
    });
  }
  return {
    source: source.location,
    target: target.location,
    engines: `${source.kind} -> ${target.kind}`,
    schema_version: from.schema_version,
    tables,
    rows: tables.reduce((n, t) => n + t.target_rows, 0),
    seconds: Math.round((now() - started) / 100) / 10,
    ok: tables.every((t) => t.ok),
  };
}
