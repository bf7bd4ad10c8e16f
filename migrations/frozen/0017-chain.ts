import { createHash } from 'node:crypto';

// The journal's hashes as 0017_journal.ts wrote them when it landed: a copy frozen with the migration, so that a
// later change to src/domain/journal/chain.ts (a new chain format) does not change what an old upgrade writes.

/** The `prev_hash` of a tenant's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The layout of the hashed fields that 0017 wrote (chain format 1). */
const CHAIN_FORMAT = 1;

/** What an entry's hash covers: everything but the hash itself and the data, which it covers through `data_hash`. */
export interface ChainedFields {
  tenant_id: string;
  seq: number;
  txn: string;
  time: string;
  actor: string;
  principal: string;
  entity: string;
  entity_id: string;
  op: string;
  data_hash: string;
  prev_hash: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The hash of an entry's data. */
export const dataHash = (data: string | null): string => sha256(data ?? '');

/** The hash of an entry: its chained fields in a fixed order, as one JSON array. */
export function entryHash(e: ChainedFields): string {
  return sha256(
    JSON.stringify([
      CHAIN_FORMAT,
      e.tenant_id,
      e.seq,
      e.txn,
      e.time,
      e.actor,
      e.principal,
      e.entity,
      e.entity_id,
      e.op,
      e.data_hash,
      e.prev_hash,
    ]),
  );
}
