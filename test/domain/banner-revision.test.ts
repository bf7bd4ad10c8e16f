import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-json.js';
import { defaultCookieBanner } from '../../src/domain/cookie-banner/cookie-banner.schema.js';
import { bannerRevision } from '../../src/domain/cookie-banner/cookie-banner.service.js';

describe('canonical JSON and the banner revision', () => {
  it.each([
    [{ b: 1, a: [{ d: null, c: 'ä' }] }, '{"a":[{"c":"ä","d":null}],"b":1}'],
    [{ a: undefined, b: true }, '{"b":true}'],
    [[1, 'x', { z: 0, y: [] }], '[1,"x",{"y":[],"z":0}]'],
    ['text', '"text"'],
  ])('writes %j as %s', (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  const base = defaultCookieBanner('t');
  it('is the same whatever the order of keys, the tenant or the time of saving', () => {
    const reordered = JSON.parse(
      JSON.stringify({ config: base.config, categories: base.categories }, (_k, v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    );
    expect(bannerRevision(reordered)).toBe(bannerRevision(base));
    const saved = { ...defaultCookieBanner('other'), updated_at: '2026-11-26T09:00:00.000Z' };
    expect(bannerRevision(saved)).toBe(bannerRevision(base));
    expect(bannerRevision(base)).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each([
    ['a text', { ...base, config: { ...base.config, banner_texts: { ...base.config.banner_texts, title: 'Neu' } } }],
    ['the colour', { ...base, config: { ...base.config, primaryColor: '#000' } }],
    ['the style', { ...base, config: { ...base.config, style: 'modal' as const } }],
    ['a category', { ...base, categories: base.categories.slice(0, 2) }],
    ['the order of categories', { ...base, categories: [...base.categories].reverse() }],
  ])('changes with %s', (_what, changed) => {
    expect(bannerRevision(changed)).not.toBe(bannerRevision(base));
  });
});
