import { Command } from 'commander';
import type { JournalEntry } from '../../domain/journal/journal.schema.js';
import type { CliContext } from '../context.js';
import { wholeNumber } from '../input.js';
import { printJson, printList, writeOut } from '../output.js';

const COLUMNS = [
  { header: 'SEQ', value: (e: JournalEntry) => e.seq },
  { header: 'TIME', value: (e: JournalEntry) => e.time },
  { header: 'ACTOR', value: (e: JournalEntry) => e.actor },
  { header: 'PRINCIPAL', value: (e: JournalEntry) => e.principal },
  { header: 'ENTITY', value: (e: JournalEntry) => e.entity },
  { header: 'ID', value: (e: JournalEntry) => e.entity_id },
  { header: 'OP', value: (e: JournalEntry) => e.op },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createJournalCommand(ctx: CliContext): Command {
  return new Command('journal')
    .description("the tenant's journal: every change in order, hash-chained (--follow waits for new entries)")
    .option('--after <seq>', 'entries after this sequence number', wholeNumber('--after', 0), 0)
    .option('--limit <n>', 'entries per page (1 to 1000)', wholeNumber('--limit', 1), 100)
    .option('--follow', 'keep printing new entries as they are written (Ctrl-C ends)')
    .option('--interval <seconds>', 'how often --follow asks for new entries', wholeNumber('--interval', 1), 1)
    .action((o: JournalOptions) => run(ctx, o));
}

/** `journal`: a page of entries, or --follow. */
export interface JournalOptions {
  after: number;
  limit: number;
  follow?: boolean;
  interval: number;
}

export async function run(ctx: CliContext, o: JournalOptions): Promise<void> {
  const backend = await ctx.backend();
  const c = ctx.config();
  const page = (after: number) =>
    backend.journal.page({ tenant: c.tenant, actor: c.user, query: { after, limit: o.limit } });
  if (!o.follow) {
    const p = await page(o.after);
    if (c.json) return printJson(ctx, p);
    return printList(ctx, p.entries, COLUMNS, { empty: `no entries after ${o.after}` });
  }
  // --follow: one line per entry (NDJSON with --json), as they come, until interrupted
  let after = o.after;
  for (;;) {
    const p = await page(after);
    for (const e of p.entries)
      writeOut(ctx, c.json ? JSON.stringify(e) : COLUMNS.map((col) => String(col.value(e))).join('\t'));
    if (p.entries.length) after = p.entries[p.entries.length - 1]!.seq;
    if (p.next_after === null) await sleep(o.interval * 1000);
  }
}
