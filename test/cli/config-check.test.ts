import { describe, expect, it } from 'vitest';
import { configSchema, isValid, parseConfig, resolveConfig, type Config } from '../../src/config.js';
import { DomainError } from '../../src/domain/errors.js';

const good: Config = {
  db: '/tmp/x.db',
  dbIsDefault: false,
  remote: 'http://127.0.0.1:8765',
  apiKey: 'cmp_k',
  tenant: 'acme',
  tenantGiven: true,
  user: 'sam',
  json: false,
  lang: 'de',
};

// The configuration is checked by hand when it is valid (no schema built at start-up) and parsed by the schema when
// it is not, so the error names each field as before: the two must agree on every configuration.
describe('the configuration check', () => {
  const cases: Array<[string, Partial<Record<keyof Config, unknown>>]> = [
    ['valid', good],
    ['valid without the optional fields', { ...good, remote: undefined, apiKey: undefined, lang: undefined }],
    ['a tenant of 200 characters', { ...good, tenant: 'a'.repeat(200) }],
    ['an empty --db', { ...good, db: '' }],
    ['an empty --remote', { ...good, remote: '' }],
    ['an empty --api-key', { ...good, apiKey: '' }],
    ['an empty tenant', { ...good, tenant: '' }],
    ['a tenant of 201 characters', { ...good, tenant: 'a'.repeat(201) }],
    ['a tenant with a control character', { ...good, tenant: 'ac\u0007me' }],
    ['a tenant with DEL', { ...good, tenant: 'acme\u007f' }],
    ['an empty user', { ...good, user: '' }],
    ['a language not offered', { ...good, lang: 'fr' }],
    ['json not a boolean', { ...good, json: 'yes' }],
    ['a number for db', { ...good, db: 7 }],
  ];
  it.each(cases)('%s: the hand check and the schema agree', (_name, c) => {
    expect(isValid(c)).toBe(configSchema().safeParse(c).success);
    let parsed: Config | DomainError;
    try {
      parsed = parseConfig(c);
    } catch (e) {
      parsed = e as DomainError;
    }
    if (isValid(c)) expect(parsed).toEqual(c);
    else {
      expect(parsed).toBeInstanceOf(DomainError);
      expect((parsed as DomainError).code).toBe('bad_request');
    }
  });

  it('words a bad tenant with the field and the rule', () => {
    let err: DomainError | undefined;
    try {
      resolveConfig({ tenant: 'a\u0001' }, {});
    } catch (e) {
      err = e as DomainError;
    }
    expect(err?.code).toBe('bad_request');
    expect(err?.message).toContain('tenant');
    expect(err?.message).toContain('1 to 200 characters without control characters');
  });
});
