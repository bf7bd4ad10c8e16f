import type { StoredDecision } from './consent.rules.js';
import type { Consent, ConsentHistoryEntry, ConsentListQuery } from './consent.schema.js';

/** Counts per (data point, granted, revoked) for statistics. */
export interface ConsentCountRow {
  data_point_id: string;
  granted: boolean;
  revoked: boolean;
  n: number;
}

/** Persistence of consents and their history, always scoped to one tenant. */
export interface ConsentStore {
  insert(consent: Consent, history: ConsentHistoryEntry[]): Promise<void>;
  get(tenant: string, id: string): Promise<Consent | undefined>;
  update(consent: Consent): Promise<void>;
  /**
   * Sets revoked_at on a granted consent that is not revoked yet, in one conditional update; false when no row
   * changed (missing, a refusal, or revoked already, also by a concurrent request).
   */
  markRevoked(tenant: string, id: string, at: string): Promise<boolean>;
  appendHistory(tenant: string, entry: ConsentHistoryEntry): Promise<void>;
  /** Every consent of one user on one data point, as the decision rule reads them (consent.rules.ts). */
  decisions(tenant: string, user_id: string, data_point_id: string): Promise<StoredDecision[]>;
  list(tenant: string, q: ConsentListQuery): Promise<{ total: number; rows: Consent[] }>;
  /** History of several consents, oldest first per consent. */
  histories(tenant: string, ids: string[]): Promise<Map<string, ConsentHistoryEntry[]>>;
  counts(tenant: string): Promise<ConsentCountRow[]>;
  uniqueUsers(tenant: string): Promise<number>;
  /**
   * The store's private key for signing consent receipts (PKCS#8 PEM), created with `generate` on first use. The
   * store's, not a tenant's: it is not journalled (a change feed must not carry a private key).
   */
  receiptSigningKey(generate: () => string): Promise<string>;
}
