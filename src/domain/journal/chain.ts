import { nodeCrypto } from '../node-crypto.js';

/** The `prev_hash` of a tenant's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Version of the hashed layout; a later layout gets a new number, and entries keep the one they were written with. */
export const CHAIN_FORMAT = 1;

/** The layout of an entry with an origin (a change another store sent): format 1's fields and the origin. */
export const ORIGIN_FORMAT = 2;

/** What an entry's hash covers: everything but the hash itself and the data, which it covers through `data_hash`. */
export interface ChainedFields {
  tenant_id: string;
  seq: number;
  txn: string;
  time: string;
  actor: string;
  principal: string;
  /**
   * Where the change came from when another store sent it (`sync:REPLICA` for a push, `bundle:SHA` for an import);
   * null (or absent, in entries written before it existed) for a change made here. Hashed only where it is set.
   */
  origin?: string | null;
  entity: string;
  entity_id: string;
  op: string;
  data_hash: string;
  prev_hash: string;
}

/** An entry as stored: the chained fields, the data as the exact text that was hashed, and the entry's hash. */
export interface StoredEntry extends ChainedFields {
  data: string | null;
  hash: string;
  /**
   * The text `hash` covers, when the store built it while reading (entryHash's JSON array; a verification reads only
   * what it needs then). Where its hash differs, the entry is read whole and hashed here before it is called edited.
   */
  preimage?: string;
}

const sha256 = (text: string): string => nodeCrypto().hash('sha256', text, 'hex');

/**
 * The hash of an entry's data. The entry hash covers this rather than the data itself, so the data of an entry can
 * one day be erased (Art. 17 GDPR) while the chain still proves everything else: a verifier then reports the entry
 * as erased, not as edited.
 */
export const dataHash = (data: string | null): string => sha256(data ?? '');

/**
 * The hash of an entry: its chained fields in a fixed order, as one JSON array (no separator can be forged). An
 * entry with an origin is hashed in format 2, which adds the origin after the principal; one without in format 1,
 * so entries written before origins existed still hold, and an origin added to or taken from an entry breaks it.
 */
export function entryHash(e: ChainedFields): string {
  const who =
    e.origin == null
      ? [CHAIN_FORMAT, e.tenant_id, e.seq, e.txn, e.time, e.actor, e.principal]
      : [ORIGIN_FORMAT, e.tenant_id, e.seq, e.txn, e.time, e.actor, e.principal, e.origin];
  return sha256(JSON.stringify([...who, e.entity, e.entity_id, e.op, e.data_hash, e.prev_hash]));
}

export type ChainProblemKind = 'edited' | 'deleted' | 'inserted' | 'reordered';

/** The first broken link of a chain: the entry where it breaks, what is wrong, in words for a person. */
export interface ChainProblem {
  seq: number;
  kind: ChainProblemKind;
  message: string;
}

/** Look-ups over all of a tenant's entries, asked only once a link is broken (to say what broke it). */
export interface ChainLookup {
  /** The sequence number of the entry carrying hash `h`, if any. */
  seqOfHash(h: string): Promise<number | undefined>;
  /** The sequence number of the first entry whose `prev_hash` is `h`, if any. */
  seqLinkingTo(h: string): Promise<number | undefined>;
}

/**
 * Walks one tenant's entries in sequence order and stops at the first broken link, saying what happened:
 * - `edited`: an entry's content no longer matches its hash, or its data no longer matches its data hash; also an
 *   entry that was rewritten with a fresh hash (its successor links to a hash that exists nowhere);
 * - `deleted`: sequence numbers are missing;
 * - `inserted`: entries that the chain skips (a later entry links to the one before them);
 * - `reordered`: an entry links to one that comes later in the sequence.
 */
export class ChainVerifier {
  private broken: StoredEntry | undefined;
  count = 0;
  head: { seq: number; hash: string };

  /**
   * A walk from the start of the chain, or from the entry `from` (its sequence number and hash) on: one range of a
   * chain checked in parallel with the others, whose ends are then matched with theirs.
   */
  constructor(from: { seq: number; hash: string } = { seq: 0, hash: GENESIS_HASH }) {
    this.head = from;
  }

  /** Feeds the next entry; false at the first one that breaks the chain (ask `diagnose` what is wrong). */
  push(e: StoredEntry): boolean {
    if (this.broken) return false;
    const expected = this.head.hash;
    if (e.prev_hash !== expected || e.seq !== this.head.seq + 1 || checkSelf(e)) {
      this.broken = e;
      return false;
    }
    this.count++;
    this.head = { seq: e.seq, hash: e.hash };
    return true;
  }

  /**
   * Feeds the entry `push` refused again, read whole (without a preimage): true when it holds after all (the store's
   * preimage differed from entryHash's text, not the entry from its hash).
   */
  retry(whole: StoredEntry): boolean {
    if (!this.broken || this.broken.seq !== whole.seq || this.broken.preimage === undefined) return false;
    this.broken = undefined;
    return this.push(whole);
  }

  /** What broke the chain at the entry `push` refused (undefined while it is intact). */
  async diagnose(lookup: ChainLookup): Promise<ChainProblem | undefined> {
    const e = this.broken;
    if (!e) return undefined;
    return (await this.checkLink(e, lookup)) ?? checkSelf(e);
  }

  private async checkLink(e: StoredEntry, lookup: ChainLookup): Promise<ChainProblem | undefined> {
    // the entry before: the last that held (or where a walk resumed; none at the start of the chain)
    const prev = this.head.seq > 0 ? this.head : undefined;
    const expectedSeq = this.head.seq + 1;
    const expectedHash = this.head.hash;
    if (e.prev_hash === expectedHash) {
      if (e.seq === expectedSeq) return undefined;
      // the link holds but the number does not: the number itself was changed (it is part of the hash)
      return edited(e.seq, `its sequence number was changed (expected ${expectedSeq})`);
    }
    const target = await lookup.seqOfHash(e.prev_hash);
    if (target !== undefined && target > e.seq)
      return {
        seq: e.seq,
        kind: 'reordered',
        message: `entry ${e.seq} is out of order: it links to entry ${target}, which comes after it`,
      };
    if (target !== undefined && target < e.seq - 1)
      return {
        seq: target + 1,
        kind: 'inserted',
        message: `${span(target + 1, e.seq - 1)} inserted: entry ${e.seq} links to entry ${target}`,
      };
    const linker = await lookup.seqLinkingTo(expectedHash);
    if (linker !== undefined && linker > e.seq)
      return {
        seq: e.seq,
        kind: 'inserted',
        message: `${span(e.seq, linker - 1)} inserted: entry ${linker} links to ${prev ? `entry ${prev.seq}` : 'the start of the chain'}`,
      };
    if (e.seq > expectedSeq)
      return { seq: expectedSeq, kind: 'deleted', message: `${span(expectedSeq, e.seq - 1)} deleted` };
    if (!prev) return edited(e.seq, 'it does not link to the start of the chain');
    return {
      seq: prev.seq,
      kind: 'edited',
      message: `entry ${prev.seq} was changed and its hash recomputed (entry ${e.seq} links to a hash that is in no entry), or entries after it were deleted and the rest renumbered`,
    };
  }
}

const edited = (seq: number, what: string): ChainProblem => ({ seq, kind: 'edited', message: `entry ${seq}: ${what}` });

const span = (from: number, to: number): string =>
  from === to ? `entry ${from} was` : `entries ${from} to ${to} were`;

function checkSelf(e: StoredEntry): ChainProblem | undefined {
  if (dataHash(e.data) !== e.data_hash)
    return edited(e.seq, 'its data was changed (it no longer matches its data hash)');
  const h = e.preimage === undefined ? entryHash(e) : sha256(e.preimage);
  if (h !== e.hash) return edited(e.seq, 'its content was changed (it no longer matches its hash)');
  return undefined;
}
