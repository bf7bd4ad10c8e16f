import type { ErrorDetail } from '../errors.js';
import type { ConsentInput } from './consent.schema.js';

/**
 * How far a consent timestamp may lie ahead of the server's clock: the systems that record consents (a web
 * banner, a shop) keep their own clocks, which differ by seconds, rarely by minutes.
 */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether the timestamps of a consent are plausible at `now`: neither granted_at nor revoked_at lies in the future
 * (beyond the clock skew), and revoked_at does not come before granted_at, which defaults to now when absent.
 * Empty, one entry per problem; the API answers them with 422, the import refuses the row with its line number.
 */
export function consentTimeProblems(c: Pick<ConsentInput, 'granted_at' | 'revoked_at'>, now: Date): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const latest = now.getTime() + CONSENT_CLOCK_SKEW_MS;
  // the message is written only when it is needed: this runs for every row of an import
  const future = () =>
    `must not lie in the future (more than ${CONSENT_CLOCK_SKEW_MS / 60_000} minutes after ${now.toISOString()})`;
  const granted = c.granted_at ? Date.parse(c.granted_at) : now.getTime();
  if (c.granted_at && granted > latest) problems.push({ path: 'granted_at', message: future() });
  if (c.revoked_at) {
    const revoked = Date.parse(c.revoked_at);
    if (revoked > latest) problems.push({ path: 'revoked_at', message: future() });
    else if (revoked < granted)
      problems.push({
        path: 'revoked_at',
        message: c.granted_at ? 'must not be before granted_at' : 'must not be before granted_at (now, when absent)',
      });
  }
  return problems;
}
