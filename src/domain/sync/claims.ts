import { exclusiveClaim } from './merge-rules.js';
import type { SyncRow } from './version.js';

/**
 * Who holds what the records of one table claim (see exclusiveClaim), as a pull writes a page: filled with the
 * records of this store that hold a claim the page's rows make, and kept current as the page's records are written.
 * A page checks each record against it instead of asking the store once per record, with the same answers: a record
 * written earlier in the page counts as it now is.
 */
export class ClaimIndex {
  private readonly holders = new Map<string, Set<string>>();

  constructor(
    private readonly entity: string,
    held: Array<{ id: string; row: SyncRow }>,
  ) {
    for (const h of held) this.moved(h.id, null, h.row);
  }

  /** The refusal that writing `row` as record `id` meets (another record holds what it claims), or null. */
  broken(id: string, row: SyncRow | null): string | null {
    const claim = exclusiveClaim(this.entity, row);
    if (!claim) return null;
    for (const other of this.holders.get(claim.claim) ?? []) if (other !== id) return claim.taken(other);
    return null;
  }

  /** Record `id` was written: it holds what `after` claims, no longer what `before` did. */
  moved(id: string, before: SyncRow | null, after: SyncRow | null): void {
    const was = exclusiveClaim(this.entity, before);
    if (was) this.holders.get(was.claim)?.delete(id);
    const is = exclusiveClaim(this.entity, after);
    if (!is) return;
    const set = this.holders.get(is.claim);
    if (set) set.add(id);
    else this.holders.set(is.claim, new Set([id]));
  }
}
