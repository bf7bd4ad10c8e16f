import { describe, expect, it } from 'vitest';
import {
  neededScope,
  normalizeOrigin,
  parseExpiry,
  refusal,
  type KeyGrant,
} from '../../src/domain/api-keys/api-key.rules.js';
import { RateLimiter, serviceLimitItem } from '../../src/server/rate-limit.js';

const NOW = new Date('2026-11-26T12:00:00.000Z');

describe('origins', () => {
  it.each([
    ['https://www.example.com', 'https://www.example.com'],
    ['https://WWW.Example.COM/', 'https://www.example.com'],
    ['https://www.example.com:443', 'https://www.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
  ])('stores %s as the browser sends it: %s', (given, stored) => {
    expect(normalizeOrigin(given)).toBe(stored);
  });

  it.each([
    'www.example.com',
    'ftp://a.example',
    'https://a.example/page',
    'https://a.example/?q=1',
    'https://u:p@a.example',
    'https://a.example/#x',
    'https://a.example?',
    '*',
  ])('refuses %s', (given) => {
    expect(() => normalizeOrigin(given)).toThrow(/expected an origin/);
  });
});

describe('expiry', () => {
  it.each([
    ['90d', '2027-02-24T12:00:00.000Z'],
    ['1d', '2026-11-27T12:00:00.000Z'],
    ['2027-01-31', '2027-02-01T00:00:00.000Z'],
    ['2026-12-01T08:00:00Z', '2026-12-01T08:00:00.000Z'],
  ])('%s expires at %s', (given, at) => {
    expect(parseExpiry(given, NOW)).toBe(at);
  });

  it.each([
    ['0d', /in the past/],
    ['2026-11-25', /in the past/],
    ['2027-02-30', /expected a number of days/],
    ['90', /expected a number of days/],
    ['tomorrow', /expected a number of days/],
  ])('refuses %s', (given, message) => {
    expect(() => parseExpiry(given, NOW)).toThrow(message);
  });
});

describe('what a key may do', () => {
  const grant = (g: Partial<KeyGrant>): KeyGrant => ({
    id: 'k',
    prefix: '0123456789ab',
    scope: 'read',
    tenants: ['acme'],
    origins: [],
    expires_at: null,
    ...g,
  });
  const pk = grant({ scope: 'publishable', origins: ['https://shop.example'] });
  it.each([
    // key, need, refused with
    [pk, { scope: 'publishable', method: 'POST', tenant: 'acme', origin: 'https://shop.example' }, undefined],
    [pk, { scope: 'publishable', method: 'POST', tenant: 'acme' }, 'forbidden'],
    [pk, { scope: 'publishable', method: 'POST', tenant: 'acme', origin: 'https://shop.example:444' }, 'forbidden'],
    [pk, { scope: 'publishable', method: 'GET', tenant: 'globex', origin: 'https://shop.example' }, 'forbidden'],
    [pk, { scope: 'read', method: 'GET', tenant: 'acme', origin: 'https://shop.example' }, 'forbidden'],
    [grant({}), { scope: 'publishable', method: 'GET', tenant: 'acme' }, undefined],
    [grant({}), { scope: 'publishable', method: 'POST', tenant: 'acme' }, 'forbidden'],
    [grant({ scope: 'write' }), { scope: 'publishable', method: 'POST', tenant: 'acme' }, undefined],
    [grant({ scope: 'write' }), { scope: 'admin', method: 'GET' }, 'forbidden'],
    [grant({ scope: 'admin' }), { scope: 'admin', method: 'GET' }, undefined],
    [
      grant({ scope: 'admin' }),
      { scope: 'read', method: 'GET', tenant: 'acme', origin: 'https://a.example' },
      'forbidden',
    ],
    [grant({ scope: 'admin', tenants: null }), { scope: 'write', method: 'PUT', tenant: 'anyone' }, undefined],
    [
      grant({ expires_at: '2026-11-26T12:00:00.000Z' }),
      { scope: 'read', method: 'GET', tenant: 'acme' },
      'unauthorized',
    ],
    [grant({ expires_at: '2026-11-26T12:00:01.000Z' }), { scope: 'read', method: 'GET', tenant: 'acme' }, undefined],
  ] as const)('%#: %o needing %o → %s', (g, need, code) => {
    expect(refusal(g as KeyGrant, need, NOW)?.code).toBe(code);
  });

  it('reads the least scope of an operation from the contract, by method when it names none', () => {
    expect(neededScope({ method: 'GET' })).toBe('read');
    expect(neededScope({ method: 'DELETE' })).toBe('write');
    expect(neededScope({ method: 'POST', scope: 'publishable' })).toBe('publishable');
  });
});

describe('rate limiter', () => {
  it('lets a minute of requests through at once, refills them evenly, and says how long to wait', () => {
    let t = 0;
    const limiter = new RateLimiter('per-key', 6, () => t);
    const wait = (caller: string) => limiter.take(caller)!.wait;
    for (let i = 0; i < 6; i++) expect(wait('a')).toBe(0);
    expect(wait('a')).toBe(10); // one request every 10 s
    expect(wait('b')).toBe(0);
    t = 9_000;
    expect(wait('a')).toBe(1);
    t = 10_000;
    expect(wait('a')).toBe(0);
    expect(new RateLimiter('off', 0, () => t).take('a')).toBeUndefined();
  });

  it('says what is left and when the next request comes, as the RateLimit fields carry it', () => {
    let t = 0;
    const limiter = new RateLimiter('per-address', 6, () => t);
    expect(limiter.policyItem()).toBe('"per-address";q=6;w=60');
    const first = limiter.take('a')!;
    expect(first).toEqual({ wait: 0, remaining: 5, reset: 10 });
    expect(serviceLimitItem(limiter, first)).toBe('"per-address";r=5;t=10');
    for (let i = 0; i < 5; i++) limiter.take('a');
    t = 4_000; // 0.4 of a request refilled
    const refused = limiter.take('a')!;
    expect(refused).toEqual({ wait: 6, remaining: 0, reset: 6 });
    t = 10_000_000; // long after: full again, and this request leaves five
    expect(limiter.take('a')).toEqual({ wait: 0, remaining: 5, reset: 10 });
    // a full bucket names no reset: no quota is waiting to come back
    expect(serviceLimitItem(limiter, { wait: 0, remaining: 6, reset: undefined })).toBe('"per-address";r=6');
  });
});
