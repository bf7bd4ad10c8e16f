/**
 * The values of one validated import row, in this order, flattened into a batch array (a flat array of primitives is
 * the cheapest thing to hand to a worker thread or to serialise for COPY). `granted` is 0 or 1; absent values are null.
 */
export const ROW_FIELDS = [
  'user_id',
  'data_point_id',
  'granted',
  'granted_at',
  'revoked_at',
  'consent_version',
  'source',
  'ip_address',
  'user_agent',
] as const;
export const ROW_WIDTH = ROW_FIELDS.length;
export type BatchValue = string | number | null;

/** What an import writer needs to know, on either engine. */
export interface ImportWriterOptions {
  /** Pieces per transaction (a piece is at most 1,000 rows and 256K characters, so a transaction stays small). */
  batchPieces: number;
  tenant: string;
  /** The import's time: created_at, and granted_at of rows without one. */
  now: string;
  dryRun: boolean;
}

export interface BatchResult {
  created: number;
  unchanged: number;
}

/**
 * Where the counter in the last 48 bits of a batch's ids may start: below 2^47, so it never rolls over (RFC 9562 6.2,
 * method 1, seeds the counter at random and may keep its top bit clear).
 */
export const COUNTER_SEEDS = 2 ** 47;
