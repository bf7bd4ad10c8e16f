import * as z from 'zod';
import { queryInt } from '../schema-helpers.js';

/**
 * One entry of a tenant's journal as the API shows it. `data` is the record after the change (its columns as
 * stored; JSON lists and objects as text), or null for a deletion. A client can check an entry itself:
 * `data_hash` is the SHA-256 of `JSON.stringify(data)` (of the empty string when null) and `hash` that of the
 * JSON array [1, tenant, seq, txn, time, actor, principal, entity, entity_id, op, data_hash, prev_hash], or for an entry
 * with an origin [2, tenant, seq, txn, time, actor, principal, origin, entity, entity_id, op, data_hash, prev_hash].
 */
export const JournalEntry = z.object({
  seq: z.number().int().min(1),
  txn: z.string().describe('the unit of work: entries of one transaction share it'),
  time: z.string(),
  actor: z.string().describe('the user the request named (X-User-ID, --user), or system'),
  principal: z.string().describe('what made the request: key:PREFIX for an API key, os:NAME for a local command'),
  origin: z
    .string()
    .nullable()
    .describe('where the change came from when another store sent it: sync:REPLICA (a push), bundle:SHA (an import)'),
  entity: z.string().describe('the table of the record: dsfa, consent, training_assignment, …'),
  entity_id: z.string(),
  op: z.string().describe('insert, update, delete (a tombstone), genesis (a record stored before the journal)'),
  data: z.unknown().nullable(),
  data_hash: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

export const JournalQuery = z.object({
  after: queryInt({ min: 0, default: 0 }),
  limit: queryInt({ min: 1, max: 1000, default: 100 }),
});
export type JournalQuery = z.infer<typeof JournalQuery>;

/** A page of the journal, oldest first; `next_after` continues it (null when this page reached the head). */
export const JournalPage = z.object({
  entries: z.array(JournalEntry),
  head_seq: z.number().int().min(0),
  next_after: z.number().int().min(0).nullable(),
});
export type JournalPage = z.infer<typeof JournalPage>;

/** The head of a tenant's chain, to keep outside the store (`audit anchor`). */
export const JournalAnchor = z.object({ tenant: z.string(), seq: z.number().int().min(0), head: z.string() });
export type JournalAnchor = z.infer<typeof JournalAnchor>;
