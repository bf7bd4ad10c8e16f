import { bindHandlers } from '../../contract/bind.js';
import { canonicalContract } from '../../contract/training-canonical.contract.js';
import { CanonicalService } from '../../domain/training-blocks/canonical.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { builtinControls } from './builtin-controls.js';

export function createCanonicalService(uow: UnitOfWork): CanonicalService {
  return new CanonicalService(uow, builtinControls);
}

/** The canonical-control routes bound to the store's unit of work. */
export function createCanonicalArea(uow: UnitOfWork) {
  const svc = createCanonicalService(uow);
  return bindHandlers(canonicalContract, {
    controls: (r) => svc.list(r.tenant, r.query),
    meta: (r) => svc.meta(r.tenant),
    import: (r) => svc.import(r.tenant, r.body),
  });
}
