import type { CanonicalControl } from './canonical.schema.js';

/** Persistence of a tenant's own controls (written inside a unit of work); the shipped catalogue is read-only data. */
export interface CanonicalStore {
  tenantControls(tenant: string): Promise<CanonicalControl[]>;
  /** Inserts or replaces the given controls. */
  upsert(tenant: string, controls: CanonicalControl[]): Promise<void>;
}
