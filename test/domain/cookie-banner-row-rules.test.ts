import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS } from '../../src/domain/sync/row-rule.js';
import { NOW, refusal, rows, T1, TENANT } from '../support/sync-rows.js';

// A tenant's banner as a push, a pull or a bundle brings it: what PUT takes, in two JSON text columns.
const banner = (o: Record<string, unknown> = {}) => rows.cookie_banner(o);
const category = (id: string, o: Record<string, unknown> = {}) => ({
  id,
  name: id,
  isRequired: false,
  defaultEnabled: false,
  ...o,
});
const config = JSON.parse(banner().config as string) as Record<string, unknown>;
const insert = (o: Record<string, unknown>) => refusal({}, { entity: 'cookie_banner', before: null, after: banner(o) });
const PREFIX = `cookie_banner ${TENANT} does not fit its table: `;

describe('the row of a cookie banner', () => {
  it('passes as PUT writes it, and a later change of it', async () => {
    expect(await insert({})).toBeUndefined();
    const held = banner();
    const changed = banner({ categories: JSON.stringify([category('necessary'), category('stats')]), updated_at: T1 });
    expect(await refusal({}, { entity: 'cookie_banner', before: held, after: changed })).toBeUndefined();
  });

  it.each([
    ['categories that are not JSON text', { categories: 'nope' }, 'categories: must be JSON text'],
    ['a configuration that is not JSON text', { config: '{position' }, 'config: must be JSON text'],
    ['a configuration that is no object', { config: '"nope"' }, 'config: expected object, got "nope"'],
    ['no category', { categories: '[]' }, 'categories: Too small: expected array to have >=1 items'],
    [
      'a required category not enabled by default',
      { categories: JSON.stringify([category('necessary', { isRequired: true })]) },
      'categories.0.defaultEnabled: a required category must be enabled by default',
    ],
    [
      'two categories with one id',
      { categories: JSON.stringify([category('stats'), category('stats')]) },
      'categories.1.id: duplicate category id stats',
    ],
    [
      'a position PUT does not take',
      { config: JSON.stringify({ ...config, position: 'left' }) },
      'config.position: "left" is not allowed; allowed values: bottom, top, center, bottom-left, bottom-right',
    ],
    [
      'two faults, naming the first',
      { categories: 'nope', config: 'nope' },
      'categories: must be JSON text (and 1 more)',
    ],
  ])('refuses %s, naming the field', async (_, o, problem) => {
    expect(await insert(o)).toBe(PREFIX + problem);
  });

  it("refuses another tenant's banner, also as a change of the tenant's own", async () => {
    expect(await insert({ tenant_id: 'globex' })).toBe(
      `cookie_banner ${TENANT} belongs to tenant globex, not ${TENANT}`,
    );
    const held = banner();
    expect(await refusal({}, { entity: 'cookie_banner', before: held, after: { ...held, tenant_id: 'globex' } })).toBe(
      `cookie_banner ${TENANT} belongs to tenant globex, not ${TENANT}`,
    );
  });

  it('refuses a time of saving beyond the clock skew', async () => {
    const late = new Date(NOW.getTime() + CLOCK_SKEW_MS + 1000).toISOString();
    expect(await insert({ updated_at: late })).toBe(
      `cookie_banner ${TENANT}: updated_at lies in the future (more than 5 minutes after ${NOW.toISOString()})`,
    );
  });
});
