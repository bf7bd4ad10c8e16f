import { DomainError } from '../../domain/errors.js';

/** An import hands its rows to the writer in pieces of at most 1,000 rows ... */
export const PIECE_ROWS = 1_000;
/** ... and writes them in transactions of ten pieces by default: 10,000 rows of a typical file. */
export const IMPORT_BATCH = 10_000;

const VARIABLE = 'COMPLIANCE_IMPORT_BATCH_ROWS';
const ALLOWED = 'a whole number from 100 to 1000, or 2000, 3000 … 10000';

/**
 * The rows a consent import writes per transaction, from `COMPLIANCE_IMPORT_BATCH_ROWS`: 100 to 1,000, or a multiple
 * of 1,000 up to 10,000, so that a transaction is whole pieces. Fewer rows hold the write lock for less time (a shared
 * PostgreSQL, replicas importing at once) and leave less to do again after an interruption; more are faster. Read when
 * the backend is composed, so `serve` refuses a wrong value at start (a module of its own: the import loads lazily).
 */
export function importBatchRows(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return IMPORT_BATCH;
  const rows = /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  const whole = rows >= 100 && (rows <= PIECE_ROWS || (rows <= IMPORT_BATCH && rows % PIECE_ROWS === 0));
  if (!whole)
    throw new DomainError(
      'bad_request',
      `invalid ${VARIABLE}: "${text}" (${ALLOWED}: the rows an import writes per transaction)`,
      [{ path: VARIABLE, message: ALLOWED }],
    );
  return rows;
}
