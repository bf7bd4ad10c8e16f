import type { Kysely } from 'kysely';
import { bindHandlers } from '../../contract/bind.js';
import { canonicalContract } from '../../contract/training-canonical.contract.js';
import type { Clock } from '../../domain/clock.js';
import { CanonicalService } from '../../domain/training-blocks/canonical.service.js';
import { KyselyCanonicalStore } from '../../store/kysely/canonical.store.js';
import { builtinControls } from './builtin-controls.js';
import type { DB } from '../../store/db-types.js';

export function createCanonicalService(db: Kysely<DB>, clock: Clock): CanonicalService {
  return new CanonicalService(new KyselyCanonicalStore(db, clock), builtinControls);
}

/** The canonical-control routes bound to the SQLite store. */
export function createCanonicalArea(db: Kysely<DB>, clock: Clock) {
  const svc = createCanonicalService(db, clock);
  return bindHandlers(canonicalContract, {
    controls: (r) => svc.list(r.tenant, r.query),
    meta: (r) => svc.meta(r.tenant),
    import: (r) => svc.import(r.tenant, r.body),
  });
}
