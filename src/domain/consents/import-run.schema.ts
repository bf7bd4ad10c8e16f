import * as z from 'zod';
import { queryInt } from '../schema-helpers.js';

/**
 * What became of an import run: `running` while it writes (also a run whose process was killed without a word: its
 * counts are those of the batches it committed), `completed`, `interrupted` (Ctrl-C, or the client went away),
 * `failed` (an error after some batches were written), `reverted`.
 */
export const IMPORT_RUN_STATUSES = ['running', 'completed', 'interrupted', 'failed', 'reverted'] as const;

/** The options a run was given, as given (those not given are absent). */
export const ImportRunOptions = z.object({
  delimiter: z.string().optional(),
  map: z.string().optional(),
  encoding: z.string().optional(),
  true_values: z.string().optional(),
  false_values: z.string().optional(),
  date_format: z.string().optional(),
  timezone: z.string().optional(),
  raw_cells: z.boolean().optional(),
});
export type ImportRunOptions = z.infer<typeof ImportRunOptions>;

/** One bulk import of consents (dry runs are not recorded: they write nothing). */
export const ImportRun = z.object({
  id: z.string(),
  tenant_id: z.string(),
  /** The file's name as the client gave it (`file_name`); null when it gave none (stdin). */
  file_name: z.string().nullable(),
  /** SHA-256 of the body's bytes as received, hex. */
  sha256: z.string().nullable(),
  format: z.enum(['csv', 'ndjson']),
  options: ImportRunOptions,
  status: z.enum(IMPORT_RUN_STATUSES),
  read: z.int(),
  created: z.int(),
  unchanged: z.int(),
  revoked: z.int(),
  /** Rows that renewed the grant in force to their version. */
  renewed: z.int(),
  rejected: z.int(),
  created_by: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  reverted_at: z.string().nullable(),
  reverted_by: z.string().nullable(),
});
export type ImportRun = z.infer<typeof ImportRun>;

export const ImportRunQuery = z.object({
  limit: queryInt({ min: 1, max: 500, default: 50 }),
  offset: queryInt({ min: 0, default: 0 }),
});
export type ImportRunQuery = z.infer<typeof ImportRunQuery>;

/** Import runs of a tenant, newest first. */
export const ImportRunList = z.object({
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
  runs: z.array(ImportRun),
});

/** What a revert did: the run (now `reverted`), the consents it removed, the revocations and renewals it undid. */
export const ImportRevert = z.object({
  run: ImportRun,
  consents_removed: z.int(),
  revocations_undone: z.int(),
  renewals_undone: z.int(),
});
export type ImportRevert = z.infer<typeof ImportRevert>;
