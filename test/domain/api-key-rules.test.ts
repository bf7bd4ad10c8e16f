import { describe, expect, it } from 'vitest';
import {
  checkNewKey,
  checkTenants,
  isExpired,
  KEY_SCOPES,
  neededScope,
  normalizeOrigin,
  parseExpiry,
  parseScope,
  refusal,
  type KeyGrant,
} from '../../src/domain/api-keys/api-key.rules.js';
import { DomainError } from '../../src/domain/errors.js';
import { TENANT_RULE } from '../../src/domain/tenant.js';
import { RateLimiter, serviceLimitItem } from '../../src/server/rate-limit.js';

const NOW = new Date('2026-11-26T12:00:00.000Z');

/** The error a rule throws; a rule that returns fails the test. */
function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected the rule to refuse');
}

const ORIGIN_RULE = 'an origin: http or https, a host and an optional port, no path (https://www.example.com)';

describe('origins', () => {
  it.each([
    ['https://www.example.com', 'https://www.example.com'],
    ['https://WWW.Example.COM/', 'https://www.example.com'],
    ['HTTPS://www.example.com', 'https://www.example.com'],
    ['https://www.example.com:443', 'https://www.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://[::1]:8080/', 'http://[::1]:8080'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])('stores %s as the browser sends it: %s', (given, stored) => {
    expect(normalizeOrigin(given)).toBe(stored);
  });

  it.each([
    'www.example.com',
    'ftp://a.example',
    'https://a.example/page',
    'https://a.example//',
    'https://a.example/.',
    'https://a.example/?q=1',
    'https://a.example?q=1',
    'https://u:p@a.example',
    // a user name alone, or an empty one, is a user too: the URL parser would drop the empty ones silently
    'https://u@a.example',
    'https://@a.example',
    'https://:@a.example',
    'https://:p@a.example',
    'https://a.example/#x',
    'https://a.example#',
    'https://a.example?',
    'https://a.example\\',
    'https://a .example',
    ' https://a.example',
    'https://a.example ',
    'xhttps://a.example',
    'https://a.example:99999',
    'https://',
    '*',
  ])('refuses %s, naming the field and what an origin is', (given) => {
    const e = thrown(() => normalizeOrigin(given));
    expect(e).toBeInstanceOf(DomainError);
    expect(e.code).toBe('validation');
    expect(e.message).toBe(`invalid origins "${given}": expected ${ORIGIN_RULE}`);
    expect(e.details).toEqual([{ path: 'origins', message: `"${given}": expected ${ORIGIN_RULE}` }]);
  });

  it('names the field it was given', () => {
    const e = thrown(() => normalizeOrigin('x', '--origin'));
    expect(e.message).toBe(`invalid --origin "x": expected ${ORIGIN_RULE}`);
    expect(e.details).toEqual([{ path: '--origin', message: `"x": expected ${ORIGIN_RULE}` }]);
  });
});

describe('scopes and tenants', () => {
  it.each(KEY_SCOPES)('takes the scope %s', (scope) => {
    expect(parseScope(scope)).toBe(scope);
  });

  it.each(['', 'Admin', 'root', 'read '])('refuses the scope %j, naming the allowed ones', (given) => {
    const e = thrown(() => parseScope(given));
    expect(e).toBeInstanceOf(DomainError);
    expect(e.code).toBe('validation');
    expect(e.message).toBe(`invalid scope "${given}": expected one of publishable, read, write, admin`);
    expect(e.details).toEqual([{ path: 'scope', message: 'expected one of publishable, read, write, admin' }]);
    expect(thrown(() => parseScope(given, '--scope')).details).toEqual([
      { path: '--scope', message: 'expected one of publishable, read, write, admin' },
    ]);
  });

  it('takes each tenant once, in the order given', () => {
    expect(checkTenants(['acme', 'globex', 'acme'])).toEqual(['acme', 'globex']);
    expect(checkTenants(['ä'])).toEqual(['ä']);
  });

  it('refuses no tenant, and a tenant the API could never name', () => {
    const none = thrown(() => checkTenants([]));
    expect([none.code, none.message, none.details]).toEqual([
      'validation',
      'tenants: name at least one tenant',
      [{ path: 'tenants', message: 'at least one' }],
    ]);
    expect(thrown(() => checkTenants([], '--tenant')).message).toBe('--tenant: name at least one tenant');
    for (const bad of ['', 'a\u0000b', 'x'.repeat(201)]) {
      const e = thrown(() => checkTenants(['acme', bad], '--tenant'));
      expect([e.code, e.message, e.details]).toEqual([
        'validation',
        `invalid tenant "${bad}": ${TENANT_RULE}`,
        [{ path: '--tenant', message: TENANT_RULE }],
      ]);
    }
    expect(thrown(() => checkTenants(['\u0007'])).details).toEqual([{ path: 'tenants', message: TENANT_RULE }]);
  });

  it('lets a publishable key name its tenants and origins, a secret key no origin', () => {
    expect(() =>
      checkNewKey({ scope: 'publishable', tenants: ['acme'], origins: ['https://a.example'] }),
    ).not.toThrow();
    for (const scope of ['read', 'write', 'admin'] as const) {
      expect(() => checkNewKey({ scope, tenants: null, origins: [] })).not.toThrow();
      expect(() => checkNewKey({ scope, tenants: ['acme'], origins: [] })).not.toThrow();
      const e = thrown(() => checkNewKey({ scope, tenants: ['acme'], origins: ['https://a.example'] }));
      expect([e.code, e.message, e.details]).toEqual([
        'validation',
        `origins are for publishable keys only: a ${scope} key is refused from every browser`,
        [{ path: 'origins', message: 'only with scope publishable' }],
      ]);
    }
    const everyTenant = thrown(() =>
      checkNewKey({ scope: 'publishable', tenants: null, origins: ['https://a.example'] }),
    );
    expect([everyTenant.code, everyTenant.message, everyTenant.details]).toEqual([
      'validation',
      'a publishable key names its tenants (--tenant)',
      [{ path: 'tenants', message: 'required for a publishable key' }],
    ]);
    const noOrigin = thrown(() => checkNewKey({ scope: 'publishable', tenants: ['acme'], origins: [] }));
    expect([noOrigin.code, noOrigin.message, noOrigin.details]).toEqual([
      'validation',
      'a publishable key needs at least one origin (--origin https://…)',
      [{ path: 'origins', message: 'at least one for a publishable key' }],
    ]);
  });
});

describe('expiry', () => {
  it.each([
    ['90d', '2027-02-24T12:00:00.000Z'],
    ['1d', '2026-11-27T12:00:00.000Z'],
    ['99999d', '2300-09-10T12:00:00.000Z'],
    ['2027-01-31', '2027-02-01T00:00:00.000Z'],
    ['2026-12-01T08:00:00Z', '2026-12-01T08:00:00.000Z'],
    ['2026-12-01T08:00:00.250Z', '2026-12-01T08:00:00.250Z'],
  ])('%s expires at %s', (given, at) => {
    expect(parseExpiry(given, NOW)).toBe(at);
  });

  const EXPECTED =
    'expected a number of days (90d), a date (2027-01-31: valid through that day, UTC) or an ISO time with Z';
  it.each([
    ['0d', 'lies in the past: a key must expire in the future'],
    ['2026-11-25', 'lies in the past: a key must expire in the future'],
    ['2026-11-26T12:00:00Z', 'lies in the past: a key must expire in the future'],
    ['2027-02-30', EXPECTED],
    ['2027-13-01', EXPECTED],
    ['2027-1-31', EXPECTED],
    ['90', EXPECTED],
    ['x90d', EXPECTED],
    ['90dx', EXPECTED],
    ['123456d', EXPECTED],
    ['tomorrow', EXPECTED],
    ['2027-01-31x', EXPECTED],
    ['2026-13-01T00:00:00Z', EXPECTED],
    ['2026-12-01T08:00:00+01:00', EXPECTED],
    ['2026-12-01 08:00:00Z', EXPECTED],
  ])('refuses %s: %s', (given, why) => {
    const e = thrown(() => parseExpiry(given, NOW));
    expect(e).toBeInstanceOf(DomainError);
    expect([e.code, e.message, e.details]).toEqual([
      'validation',
      `invalid expires "${given}": ${why}`,
      [{ path: 'expires', message: why }],
    ]);
    expect(thrown(() => parseExpiry(given, NOW, '--expires')).details).toEqual([{ path: '--expires', message: why }]);
  });

  it('counts a key as expired from its expiry on, and one without an expiry never', () => {
    expect(isExpired({ expires_at: null }, NOW)).toBe(false);
    expect(isExpired({ expires_at: '2026-11-26T12:00:00.000Z' }, NOW)).toBe(true);
    expect(isExpired({ expires_at: '2026-11-26T11:59:59.999Z' }, NOW)).toBe(true);
    expect(isExpired({ expires_at: '2026-11-26T12:00:00.001Z' }, NOW)).toBe(false);
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

  it('says why, naming the key, its scope, the tenant or the origin', () => {
    const why = (g: KeyGrant, need: Parameters<typeof refusal>[1]) => {
      const e = refusal(g, need, NOW);
      return e && [e.code, e.message];
    };
    const key = 'API key 0123456789ab';
    expect(why(grant({ expires_at: '2026-01-01T00:00:00.000Z' }), { scope: 'read', method: 'GET' })).toEqual([
      'unauthorized',
      `${key} expired at 2026-01-01T00:00:00.000Z`,
    ]);
    expect(why(pk, { scope: 'read', method: 'GET', origin: 'https://shop.example' })).toEqual([
      'forbidden',
      `${key} is publishable: it may only read the banner configuration and published documents and record consents`,
    ]);
    expect(why(pk, { scope: 'publishable', method: 'GET', tenant: 'acme' })).toEqual([
      'forbidden',
      `${key} is publishable: it is accepted only from its origins (Origin header)`,
    ]);
    expect(why(pk, { scope: 'publishable', method: 'GET', tenant: 'acme', origin: 'https://evil.example' })).toEqual([
      'forbidden',
      `${key} is not valid for origin https://evil.example`,
    ]);
    expect(why(grant({ scope: 'write' }), { scope: 'read', method: 'GET', origin: 'https://shop.example' })).toEqual([
      'forbidden',
      `${key} is a secret (write) key and is refused from a browser (Origin https://shop.example): use a publishable key`,
    ]);
    expect(why(grant({}), { scope: 'publishable', method: 'POST', tenant: 'acme' })).toEqual([
      'forbidden',
      `${key} has scope read: this operation needs write`,
    ]);
    expect(why(grant({ scope: 'write' }), { scope: 'admin', method: 'GET' })).toEqual([
      'forbidden',
      `${key} has scope write: this operation needs admin`,
    ]);
    expect(why(grant({}), { scope: 'read', method: 'GET', tenant: 'globex' })).toEqual([
      'forbidden',
      `${key} is not valid for tenant globex`,
    ]);
    expect(why(pk, { scope: 'publishable', method: 'GET', tenant: 'globex', origin: 'https://shop.example' })).toEqual([
      'forbidden',
      `${key} is not valid for tenant globex`,
    ]);
    // a key of every tenant, and a route that names none
    expect(why(grant({ tenants: null }), { scope: 'read', method: 'GET', tenant: 'globex' })).toBeUndefined();
    expect(why(grant({ scope: 'admin' }), { scope: 'admin', method: 'POST' })).toBeUndefined();
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
