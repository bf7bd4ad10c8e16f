import { DomainError } from '../../domain/errors.js';

const VARIABLE = 'COMPLIANCE_BUNDLE_MAX_MB';
const ALLOWED = 'a whole number of megabytes from 1 to 4095';
/** 2 GiB by default: a bundle of a large tenant (a million consents unpack to about 750 MB) and its media. */
const DEFAULT_MB = 2048;
export const DEFAULT_BUNDLE_MAX_BYTES = DEFAULT_MB * 2 ** 20;

/**
 * The most a bundle import takes, packed and unpacked, in bytes, from `COMPLIANCE_BUNDLE_MAX_MB`. An import reads
 * the bundle whole and checks every part before it writes anything, so this bounds the memory one import holds (on
 * `serve`, whoever sends it); a ZIP file cannot hold more than 4 GiB. Read when the backend is composed, so `serve`
 * refuses a wrong value at start.
 */
export function bundleMaxBytes(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_BUNDLE_MAX_BYTES;
  const mb = /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(mb >= 1 && mb <= 4095))
    throw new DomainError(
      'bad_request',
      `invalid ${VARIABLE}: "${text}" (${ALLOWED}: the most a bundle import takes)`,
      [{ path: VARIABLE, message: ALLOWED }],
    );
  return mb * 2 ** 20;
}
