/**
 * Seconds to wait after each failed attempt (the Standard Webhooks schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h — eight attempts over 27.6 hours. After the last, the delivery is failed and its endpoint marked failing.
 */
export const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** When to try again after `attempts` failed attempts, or null when the delivery gives up. */
export function nextAttempt(attempts: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_S[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay * 1000);
}

/** How long an attempt holds its claim: longer than a request may take, so two replicas never send it at once. */
export const CLAIM_SECONDS = 60;

/** How long one attempt may take, from the first byte sent to the last read: then it ends as a failed attempt. */
export const ATTEMPT_SECONDS = 10;
