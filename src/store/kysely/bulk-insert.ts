import { CompiledQuery, type Kysely } from 'kysely';
import { engineFor } from '../engine.js';
import { executeHeld } from '../transaction.js';

/** Bound values per statement: far below both engines' limits (SQLite 32,766, PostgreSQL 65,535). */
const VALUES_PER_STATEMENT = 12_000;
/** Rows per statement at most: wider statements gain nothing (measured on SQLite). */
const MAX_ROWS = 500;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Statement texts by engine, table, columns, upsert and row count: a write of one row (each journal entry) builds its
 * text once per process instead of quoting every column again. Names come from the code, so the shapes are few; the
 * bound only keeps a long-running process from holding every row count of every bulk write.
 */
const TEXTS = new Map<string, string>();
const TEXTS_HELD = 2_000;

/** A row whose `key` is already stored is updated instead: its columns `set` take the new values. */
export interface Upsert {
  key: string[];
  set: string[];
}

/**
 * Inserts rows given as values in `columns` order, in statements of many rows with the same text (prepared once on
 * SQLite, see withStatementCache), written as SQL here rather than with kysely's builder: building a statement of
 * 500 rows from objects cost as much as running it (measured on a sync's pull). Names come from the caller's code,
 * never from input. With `upsert`, a row whose key is stored updates it (both engines: `on conflict … do update`).
 */
export async function insertRows<D>(
  db: Kysely<D>,
  table: string,
  columns: string[],
  rows: unknown[][],
  upsert?: Upsert,
) {
  if (!rows.length) return;
  const engine = engineFor(db);
  const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(VALUES_PER_STATEMENT / columns.length)));
  // as JSON, so that no name can run into the next (a column named `a,b` is not the columns `a` and `b`)
  const shape = JSON.stringify([engine.kind, table, columns, upsert ?? null]);
  const textFor = (n: number) => {
    const key = `${shape}${n}`;
    let text = TEXTS.get(key);
    if (text) return text;
    let p = 0;
    const tuple = () => `(${columns.map(() => engine.placeholder(++p)).join(', ')})`;
    const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values `;
    const tail = upsert
      ? ` on conflict (${upsert.key.map(quote).join(', ')}) do update set ${upsert.set.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`
      : '';
    text = head + Array.from({ length: n }, tuple).join(', ') + tail;
    if (TEXTS.size >= TEXTS_HELD) TEXTS.clear();
    TEXTS.set(key, text);
    return text;
  };
  for (let i = 0; i < rows.length; i += perStatement) {
    const part = rows.slice(i, i + perStatement);
    const values: unknown[] = [];
    for (const row of part) for (const v of row) values.push(v === undefined ? null : v);
    await executeHeld(db, CompiledQuery.raw(textFor(part.length), values));
  }
}
