import { DomainError } from '../../domain/errors.js';

const VARIABLE = 'COMPLIANCE_VERIFY_THREAD_ROWS';
const ALLOWED = 'a whole number of at least 1';

/**
 * The entries of a chain, or rows of an audit trail, from which `audit verify` and `db status` read them on threads
 * of their own, from `COMPLIANCE_VERIFY_THREAD_ROWS` (undefined: the store's default, 50,000). Read when the backend is
 * composed, so a wrong value is refused before any work.
 */
export function verifyThreadRows(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const rows = /^\d{1,12}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(rows >= 1))
    throw new DomainError(
      'bad_request',
      `invalid ${VARIABLE}: "${text}" (${ALLOWED}: the size from which a verification reads in threads)`,
      [{ path: VARIABLE, message: ALLOWED }],
    );
  return rows;
}
