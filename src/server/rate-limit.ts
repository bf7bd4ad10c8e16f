/** Requests per minute per key and per client address on the public routes; 0 switches a limit off. */
export interface RateLimits {
  perKey: number;
  perIp: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perKey: 3000, perIp: 300 };

/** Above this many tracked callers, callers whose bucket has refilled are forgotten. */
const SWEEP_AT = 10_000;

/**
 * Token buckets, one per caller: `perMinute` requests may come at once, and they refill evenly over a minute. Memory
 * stays bounded by forgetting callers whose bucket is full again.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes one request for `caller`: 0 when allowed, else the whole seconds until the next one is (Retry-After). */
  take(caller: string): number {
    if (this.perMinute <= 0) return 0;
    const t = this.now();
    let b = this.buckets.get(caller);
    if (b) b.tokens = Math.min(this.perMinute, b.tokens + (t - b.at) * this.perMs);
    else {
      if (this.buckets.size >= SWEEP_AT) this.sweep(t);
      b = { tokens: this.perMinute, at: t };
      this.buckets.set(caller, b);
    }
    b.at = t;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.at) * this.perMs >= this.perMinute) this.buckets.delete(k);
  }
}
