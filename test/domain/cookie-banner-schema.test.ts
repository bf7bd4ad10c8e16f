// The cookie banner's configuration as the PUT schema reads it: category ids, the colour code, the texts' bounds, and
// the rules across categories (unique ids, a required category switched on). The lint judges what passes here.
import { describe, expect, it } from 'vitest';
import { CookieBannerInput, defaultCookieBanner } from '../../src/domain/cookie-banner/cookie-banner.schema.js';
import { lintCookieBanner } from '../../src/domain/cookie-banner/cookie-banner.lint.js';
import { parseOrThrow } from '../../src/domain/validation.js';
import { refusal } from '../support/refusal.js';

const { categories, config } = defaultCookieBanner('t');
const put = (edit: Record<string, unknown> = {}) => parseOrThrow(CookieBannerInput, { categories, config, ...edit });
const withConfig = (c: Record<string, unknown>) => put({ config: { ...config, ...c } });
const withTexts = (t: Record<string, unknown>) => withConfig({ banner_texts: { ...config.banner_texts, ...t } });
const category = (c: Record<string, unknown>) => ({
  id: 'x',
  name: 'X',
  isRequired: false,
  defaultEnabled: false,
  ...c,
});
const paths = (fn: () => unknown) => refusal(fn).details.map((d) => d.path);

describe('the cookie banner configuration', () => {
  it('takes the default configuration as it is', () => {
    expect(put()).toEqual({ categories, config });
  });

  it.each([
    ['analytics', 'analytics'],
    ['a', 'a'],
    ['0', '0'],
    ['ad_tracking-2', 'ad_tracking-2'],
    ['  marketing  ', 'marketing'],
    ['a'.repeat(50), 'a'.repeat(50)],
  ])('accepts the category id %j as %j', (id, read) => {
    expect(put({ categories: [categories[0], category({ id })] }).categories[1]!.id).toBe(read);
  });

  it.each(['', '   ', 'Analytics', '_x', '-x', 'ad tracking', 'statistik!', 'a'.repeat(51), 'ä'])(
    'refuses the category id %j',
    (id) => {
      expect(refusal(() => put({ categories: [categories[0], category({ id })] })).details).toEqual([
        { path: 'categories.1.id', message: 'lower-case letters, digits, _ and -, e.g. analytics' },
      ]);
    },
  );

  it('needs a category name of up to 100 characters', () => {
    expect(put({ categories: [category({ name: ' Statistik ' })] }).categories[0]!.name).toBe('Statistik');
    expect(put({ categories: [category({ name: 'n'.repeat(100) })] }).categories[0]!.name).toHaveLength(100);
    expect(paths(() => put({ categories: [category({ name: ' ' })] }))).toEqual(['categories.0.name']);
    expect(paths(() => put({ categories: [category({ name: 'n'.repeat(101) })] }))).toEqual(['categories.0.name']);
  });

  it('needs one to fifty categories', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => category({ id: `c${i}` }));
    expect(paths(() => put({ categories: [] }))).toEqual(['categories']);
    expect(put({ categories: many(1) }).categories).toHaveLength(1);
    expect(put({ categories: many(50) }).categories).toHaveLength(50);
    expect(paths(() => put({ categories: many(51) }))).toEqual(['categories']);
  });

  it('names each repeated category id, after its first use', () => {
    const cats = [category({ id: 'a' }), category({ id: 'b' }), category({ id: 'a' }), category({ id: ' b ' })];
    expect(refusal(() => put({ categories: cats })).details).toEqual([
      { path: 'categories.2.id', message: 'duplicate category id a' },
      { path: 'categories.3.id', message: 'duplicate category id b' },
    ]);
  });

  it('needs a required category to be switched on, and lets an optional one be either', () => {
    expect(refusal(() => put({ categories: [category({ isRequired: true })] })).details).toEqual([
      { path: 'categories.0.defaultEnabled', message: 'a required category must be enabled by default' },
    ]);
    for (const [isRequired, defaultEnabled] of [
      [true, true],
      [false, false],
      [false, true],
    ])
      expect(put({ categories: [category({ isRequired, defaultEnabled })] }).categories[0]).toMatchObject({
        isRequired,
        defaultEnabled,
      });
  });

  it.each(['#abc', '#ABC', '#1a56db', '#1A56DB', '#09aF0b'])('accepts the colour code %s', (primaryColor) => {
    expect(withConfig({ primaryColor }).config.primaryColor).toBe(primaryColor);
  });

  it.each(['', 'red', '1a56db', '#1a56d', '#1a56dbb', '#ab', '#abcd', '#ggg', ' #abc', '#abc ', 'x#abc', '#abcx'])(
    'refuses the colour code %j',
    (primaryColor) => {
      expect(refusal(() => withConfig({ primaryColor })).details).toEqual([
        { path: 'config.primaryColor', message: 'a colour code #rgb or #rrggbb, e.g. #1a73e8' },
      ]);
    },
  );

  it('keeps texts as written, empty ones included (the lint names those), up to their bounds', () => {
    const texts = { title: '', description: ' ', privacyLink: '' };
    expect(withTexts(texts).config.banner_texts).toEqual(texts);
    const longest = { title: 't'.repeat(300), description: 'd'.repeat(5000), privacyLink: 'p'.repeat(2000) };
    expect(withTexts(longest).config.banner_texts).toEqual(longest);
    expect(paths(() => withTexts({ title: 't'.repeat(301) }))).toEqual(['config.banner_texts.title']);
    expect(paths(() => withTexts({ description: 'd'.repeat(5001) }))).toEqual(['config.banner_texts.description']);
    expect(paths(() => withTexts({ privacyLink: 'p'.repeat(2001) }))).toEqual(['config.banner_texts.privacyLink']);
  });

  it('reads the switches and the layout', () => {
    const c = withConfig({ position: 'top', style: 'modal', showDeclineAll: false, showSettings: false }).config;
    expect(c).toMatchObject({ position: 'top', style: 'modal', showDeclineAll: false, showSettings: false });
    expect(paths(() => withConfig({ showDeclineAll: 'yes', showSettings: 1 }))).toEqual([
      'config.showDeclineAll',
      'config.showSettings',
    ]);
  });
});

describe('the default cookie banner', () => {
  it('is one a tenant can save unchanged and the lint passes, with nothing stored yet', () => {
    const d = defaultCookieBanner('kanzlei');
    expect(d.tenant_id).toBe('kanzlei');
    expect(d.updated_at).toBeNull();
    expect(d.categories.filter((c) => c.defaultEnabled).map((c) => c.id)).toEqual(['necessary']);
    expect(parseOrThrow(CookieBannerInput, d)).toEqual({ categories: d.categories, config: d.config });
    expect(lintCookieBanner(d)).toEqual([]);
  });
});
