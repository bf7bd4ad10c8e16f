import * as z from 'zod';

/** Bumped when what a push carries or how it is applied changes; both sides of a sync must speak the same. */
export const SYNC_PROTOCOL = 1;

/** What a client checks before it syncs: the same protocol and the same schema, else the rows would not fit. */
export const SyncInfo = z.object({
  protocol: z.number().int(),
  version: z.string().describe('the version of compliance the server runs'),
  schema: z.string().describe('the last migration of its store: both sides of a sync must have the same'),
  tenant: z.string(),
  head_seq: z.number().int().min(0).describe('the last sequence number of the tenant’s journal (0: no records)'),
  entities: z.array(z.string()).describe('the tables whose records travel'),
});
export type SyncInfo = z.infer<typeof SyncInfo>;

const Row = z.record(z.string(), z.unknown());

/** One record as a client pushes it: its state now (null: deleted) and the version it was derived from. */
export const PushItem = z.object({
  entity: z.string().min(1).max(64),
  entity_id: z.string().min(1).max(400),
  data: Row.nullable().describe('the row as stored on the client, or null for a deletion'),
  base: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .describe('the version (SHA-256 of the canonical row) both sides last agreed on; null: the record did not exist'),
});
export type PushItem = z.infer<typeof PushItem>;

export const PushBody = z.object({
  replica: z
    .string()
    .regex(/^[0-9A-Za-z-]{1,64}$/)
    .describe('the pushing store’s id for this server: its entries are journaled with principal sync:REPLICA'),
  items: z
    .array(PushItem)
    .max(1000)
    .superRefine((items, ctx) => {
      const seen = new Map<string, number>();
      items.forEach((item, i) => {
        const k = `${item.entity}\u0000${item.entity_id}`;
        const first = seen.get(k);
        if (first === undefined) seen.set(k, i);
        else
          ctx.addIssue({
            code: 'custom',
            path: [i, 'entity_id'],
            message: `${item.entity} ${item.entity_id} is pushed twice (also as item ${first}): a push carries each record once`,
          });
      });
    }),
  dry_run: z.boolean().default(false).describe('answer what would happen and write nothing'),
});
export type PushBody = z.infer<typeof PushBody>;

/** A pushed record the server did not apply: it changed there since the base, or the merge would break a rule. */
export const PushConflict = z.object({
  entity: z.string(),
  entity_id: z.string(),
  reason: z.string(),
  theirs: Row.nullable().describe('the record as the server holds it'),
  version: z.string().nullable(),
});
export type PushConflict = z.infer<typeof PushConflict>;

export const PushResult = z.object({
  applied: z.number().int(),
  unchanged: z.number().int().describe('already in that state (a push run again after it was cut off)'),
  conflicts: z.array(PushConflict),
  head_seq: z.number().int().min(0),
});
export type PushResult = z.infer<typeof PushResult>;

/** A media file received for its record: where it was stored and how large it is. */
export const MediaUploaded = z.object({ media_id: z.string(), size_bytes: z.number().int().min(0) });
export type MediaUploaded = z.infer<typeof MediaUploaded>;
