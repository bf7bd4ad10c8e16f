import { once } from 'node:events';
import type { DomainError } from '../domain/errors.js';
import { shortId } from '../domain/short-id.js';
import type { CliContext } from './context.js';

/** A column of a list view. */
export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** The value is (or holds) an id of ours: a terminal shows its short form (domain/short-id.ts), a pipe the whole id. */
  id?: boolean;
}

/** Ids of ours as a table shows them: UUIDs, and webhook deliveries (`msg_` and 32 hex digits). */
const OUR_IDS = /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|msg_[0-9a-f]{32})\b/gi;

/**
 * A list never joins its items with a separator that an item may contain ("Lebenslauf, Zeugnisse" is one data
 * category): on a terminal one item per line, in piped output the list as JSON.
 */
const cell = (v: unknown, tty: boolean): string => {
  if (v === null || v === undefined) return tty ? '-' : '';
  if (Array.isArray(v)) return tty ? v.map((x) => cell(x, tty)).join('\n') : JSON.stringify(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

// a tab or newline inside a value would break the columns of piped output
const tsv = (v: unknown): string => cell(v, false).replace(/[\t\r\n]+/g, ' ');

export const writeOut = (ctx: CliContext, text: string): void => {
  ctx.io.stdout.write(text.endsWith('\n') ? text : text + '\n');
};

/**
 * Waits until a stream whose buffer is full drains or closes; rejects when it fails first. The wait that did not end
 * is cancelled, so that its listeners go with it: left behind, every full buffer of a long export added two, and Node
 * warned of a leak after ten.
 */
export async function drainedOrClosed(out: NodeJS.WritableStream): Promise<void> {
  const waiting = new AbortController();
  try {
    await Promise.race([once(out, 'drain', waiting), once(out, 'close', waiting)]);
  } finally {
    waiting.abort();
  }
}

/**
 * Writes one piece of a streamed output, waiting while the reader is behind. A stream that failed or closed ends the
 * loop with its error (stdout's is reported by main()), instead of waiting for a 'drain' that never comes.
 */
export async function writeChunk(out: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> {
  const w = out as NodeJS.WritableStream & { destroyed?: boolean; errored?: Error | null };
  if (w.destroyed) throw w.errored ?? new Error('the output was closed');
  if (out.write(chunk)) return;
  await drainedOrClosed(out);
  if (w.destroyed) throw w.errored ?? new Error('the output was closed');
}

/** Messages for people: stderr, never mixed with data. */
export const note = (ctx: CliContext, text: string): void => {
  ctx.io.stderr.write(text + '\n');
};

/**
 * JSON as every command writes it, one document and a newline: indented by two spaces for a person at a terminal, on
 * one line for a program (piped, or in a file), as gh does. Errors on stderr are always one line.
 */
export const jsonText = (data: unknown, forTerminal: boolean): string =>
  JSON.stringify(data, null, forTerminal ? 2 : undefined) + '\n';

/** --json output: the wire shape and nothing else, on stdout. */
export const printJson = (ctx: CliContext, data: unknown): void => {
  ctx.io.stdout.write(jsonText(data, ctx.io.stdoutIsTTY));
};

/** An error a command reports itself (with an exit code of its own): the API's error body on stderr, as main does. */
export const printError = (ctx: CliContext, e: DomainError): void => {
  ctx.io.stderr.write(JSON.stringify({ error: e.message, code: e.code, details: e.details }) + '\n');
};

async function table(head: string[], rows: string[][]): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const t = new Table({ head, style: { head: [], border: [] }, wordWrap: true });
  t.push(...rows);
  return t.toString();
}

/** A list as the table a terminal shows, for a file in a table format; `empty` stands in for no rows. */
export async function tableText<T>(rows: T[], columns: Column<T>[], opts: { empty: string }): Promise<string> {
  if (rows.length === 0) return opts.empty + '\n';
  const text = await table(
    columns.map((c) => c.header),
    rows.map((r) =>
      columns.map((c) => {
        const text = cell(c.value(r), true);
        return c.id ? text.replace(OUR_IDS, shortId) : text;
      }),
    ),
  );
  return text + '\n';
}

/** A list: exactly the wire shape with --json, a table on a TTY, tab-separated lines (no header) when piped. */
export async function printList<T>(
  ctx: CliContext,
  rows: T[],
  columns: Column<T>[],
  opts: { empty?: string } = {},
): Promise<void> {
  if (ctx.config().json) return printJson(ctx, rows);
  if (ctx.io.stdoutIsTTY) {
    if (rows.length === 0) return note(ctx, opts.empty ?? 'nothing found');
    writeOut(ctx, await tableText(rows, columns, { empty: '' }));
    return;
  }
  for (const r of rows) writeOut(ctx, columns.map((c) => tsv(c.value(r))).join('\t'));
}

/** One record as label/value pairs: --json prints `data` itself. */
export async function printRecord(ctx: CliContext, data: unknown, pairs: Array<[string, unknown]>): Promise<void> {
  if (ctx.config().json) return printJson(ctx, data);
  if (ctx.io.stdoutIsTTY) {
    const { default: Table } = await import('cli-table3');
    const t = new Table({ style: { head: [], border: [] }, wordWrap: true, colWidths: [24, 80] });
    for (const [k, v] of pairs) t.push({ [k]: cell(v, true) });
    writeOut(ctx, t.toString());
    return;
  }
  for (const [k, v] of pairs) writeOut(ctx, `${k}\t${tsv(v)}`);
}
