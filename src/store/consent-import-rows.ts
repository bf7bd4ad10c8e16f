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

/** What one transaction of an import did: the pieces of rows it took, and how many of their rows were new. */
export interface BatchResult {
  pieces: number;
  created: number;
  unchanged: number;
}

/**
 * Where the validated rows of an import go, on either engine: a writer with a connection of its own that writes them
 * in transactions of `batchPieces` pieces and reports each transaction as it commits.
 */
export interface ConsentImportWriter {
  /** Hands over a piece of rows without waiting; throws the writer's error if it has failed. */
  post(rows: BatchValue[]): void;
  /** Resolves once the writer has room again (at most two transactions' worth of pieces waiting). */
  ready(): Promise<void>;
  /** Writes what is left and closes the writer; throws the writer's error if it failed. */
  finish(): Promise<void>;
  /** Stops after a failure on the reading side; transactions already committed stay (whole batches only). */
  abort(): Promise<void>;
}
