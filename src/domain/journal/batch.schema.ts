import * as z from 'zod';
import { DomainError } from '../errors.js';
import { detailsFromZod } from '../validation.js';
import { BATCH_OP } from './changes.js';

const index = z.int().min(0);
const Cell = z.union([
  z.tuple([z.literal('v'), index]),
  z.tuple([z.literal('or'), index, z.unknown()]),
  z.tuple([z.literal('c'), z.unknown()]),
  z.tuple([z.literal('id'), z.int()]),
]);
// lists of rows are checked in a loop, not element by element: a batch holds tens of thousands
const values = z.custom<unknown[][]>((v) => Array.isArray(v) && v.every(Array.isArray), 'expected a list of rows');
const numbered = z.custom<unknown[][]>(
  (v) => Array.isArray(v) && v.every((r) => Array.isArray(r) && Number.isSafeInteger(r[0]) && r[0] >= 0),
  'expected a list of rows, each beginning with its number',
);

const Group = z
  .object({
    entity: z.string().min(1),
    op: z.enum(['insert', 'update', 'delete']),
    key: z.array(z.string()).min(1),
    columns: z.array(z.string()).min(1),
    rows: values.optional(),
    derive: z.array(z.object({ when: index.optional(), cells: z.array(Cell) })).optional(),
  })
  .superRefine((g, ctx) => {
    const twice = g.columns.find((c, i) => g.columns.indexOf(c) !== i);
    if (twice !== undefined) ctx.addIssue({ code: 'custom', path: ['columns'], message: `${twice} comes twice` });
    const missing = g.key.find((k) => !g.columns.includes(k));
    if (missing !== undefined) ctx.addIssue({ code: 'custom', path: ['key'], message: `${missing} is not a column` });
    const short = g.rows?.findIndex((r) => r.length !== g.columns.length) ?? -1;
    if (short >= 0)
      ctx.addIssue({ code: 'custom', path: ['rows', short], message: `expected ${g.columns.length} values` });
    const rule = g.derive?.findIndex((r) => r.cells.length !== g.columns.length) ?? -1;
    if (rule >= 0)
      ctx.addIssue({ code: 'custom', path: ['derive', rule, 'cells'], message: `expected ${g.columns.length} cells` });
  });

/** The data of a batch entry (BatchData in changes.ts), as another store sends it: checked before it is read. */
const BatchDataSchema = z.object({
  groups: z.array(Group),
  staged: z
    .object({
      ids: z.object({ prefix: z.string(), start: z.int(), step: z.int() }),
      rows: numbered,
    })
    .optional(),
});

/**
 * Refuses entries of another store's journal whose batch data this version cannot read (a broken or hostile server):
 * the error names the entry and the first thing wrong with it, before any of it is expanded or written.
 */
export function checkBatchEntries(
  source: string,
  entries: Array<{ seq: number; entity: string; entity_id: string; op: string; data: unknown }>,
): void {
  for (const e of entries) {
    if (e.op !== BATCH_OP) continue;
    if (BatchDataSchema.safeParse(e.data).success) continue;
    // parsed again to show what was sent (kept out of the fast path, as the door does)
    const details = detailsFromZod(BatchDataSchema.safeParse(e.data, { reportInput: true }).error!, 'data');
    const first = details[0]!;
    throw new DomainError(
      'internal',
      `${source} sent journal entry ${e.seq} (${e.entity} ${e.entity_id}) in a form this version cannot read: ${first.path}: ${first.message}`,
      details,
    );
  }
}
