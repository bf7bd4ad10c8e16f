import type { ServerResponse } from 'node:http';

/** Requests per minute per key and per client address on the public routes; 0 switches a limit off. */
export interface RateLimits {
  perKey: number;
  perIp: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perKey: 3000, perIp: 300 };

/** Above this many tracked callers, callers whose bucket has refilled are forgotten. */
const SWEEP_AT = 10_000;

/** The window a quota refills over, in seconds (the `w` of RateLimit-Policy). */
const WINDOW_S = 60;

/** What one request left of a caller's quota. */
export interface Taken {
  /** 0 when the request may go ahead, else the whole seconds until one may (Retry-After). */
  wait: number;
  /** Whole requests left now (the `r` of RateLimit). */
  remaining: number;
  /** Whole seconds until one more request is available (the `t` of RateLimit); undefined while the quota is full. */
  reset: number | undefined;
}

/**
 * Token buckets, one per caller: `perMinute` requests may come at once, and they refill evenly over a minute. Memory
 * stays bounded by forgetting callers whose bucket is full again. `policy` names the quota in the RateLimit fields.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    readonly policy: string,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / (WINDOW_S * 1000);
  }

  /** Takes one request for `caller`; undefined when this limit is off. */
  take(caller: string): Taken | undefined {
    if (this.perMinute <= 0) return undefined;
    const t = this.now();
    let b = this.buckets.get(caller);
    if (b) b.tokens = Math.min(this.perMinute, b.tokens + (t - b.at) * this.perMs);
    else {
      if (this.buckets.size >= SWEEP_AT) this.sweep(t);
      b = { tokens: this.perMinute, at: t };
      this.buckets.set(caller, b);
    }
    b.at = t;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    const remaining = Math.floor(b.tokens);
    // the next whole request: the same moment Retry-After names when this one was refused
    const reset = b.tokens >= this.perMinute ? undefined : this.seconds(remaining + 1 - b.tokens);
    return { wait: allowed ? 0 : reset!, remaining, reset };
  }

  /** The quota policy item of RateLimit-Policy: `"per-key";q=3000;w=60`. */
  policyItem(): string {
    return `"${this.policy}";q=${this.perMinute};w=${WINDOW_S}`;
  }

  private seconds(tokens: number): number {
    return Math.max(1, Math.ceil(tokens / this.perMs / 1000));
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.at) * this.perMs >= this.perMinute) this.buckets.delete(k);
  }
}

/** The service limit item of RateLimit: `"per-key";r=2999;t=1`. */
export function serviceLimitItem(limiter: RateLimiter, taken: Taken): string {
  return `"${limiter.policy}";r=${taken.remaining}${taken.reset === undefined ? '' : `;t=${taken.reset}`}`;
}

/**
 * Adds one quota to an answer's RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers: each a
 * Structured Fields list with one item per quota that counted the request), and Retry-After when it refuses it.
 */
export function addRateLimitFields(res: ServerResponse, limiter: RateLimiter, taken: Taken): void {
  const append = (name: string, item: string) => {
    const before = res.getHeader(name);
    res.setHeader(name, before === undefined ? item : `${String(before)}, ${item}`);
  };
  append('ratelimit-policy', limiter.policyItem());
  append('ratelimit', serviceLimitItem(limiter, taken));
  if (taken.wait > 0) res.setHeader('retry-after', String(taken.wait));
}
