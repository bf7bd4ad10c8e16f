import { describe, expect, it } from 'vitest';
import {
  contrast,
  enoughContrast,
  lintCookieBanner,
  luminance,
} from '../../src/domain/cookie-banner/cookie-banner.lint.js';
import { defaultCookieBanner, type CookieBanner } from '../../src/domain/cookie-banner/cookie-banner.schema.js';

type Banner = Pick<CookieBanner, 'categories' | 'config'>;
/** A banner with no finding, changed by `edit`. */
const banner = (edit: (b: Banner) => void = () => undefined): Banner => {
  const b = defaultCookieBanner('t');
  b.config.banner_texts = {
    title: 'Cookies',
    description: 'Wir verwenden Cookies für Statistik und Marketing, nur mit Ihrer Einwilligung.',
    privacyLink: '/datenschutz',
  };
  edit(b);
  return b;
};
const rules = (b: Banner) => lintCookieBanner(b).map((f) => `${f.rule} ${f.path}`);

describe('cookie banner lint', () => {
  it('finds nothing in a banner that meets every rule', () => {
    expect(lintCookieBanner(banner())).toEqual([]);
  });

  it('asks for a decline-all button', () => {
    expect(lintCookieBanner(banner((b) => (b.config.showDeclineAll = false)))).toEqual([
      {
        rule: 'decline-all',
        path: 'config.showDeclineAll',
        message: 'the first layer needs a "decline all" button as prominent as "accept all"',
      },
    ]);
  });

  it('names each optional category switched on in advance, and only those', () => {
    const b = banner((b) => {
      b.categories[1]!.defaultEnabled = true;
      b.categories[3]!.defaultEnabled = true;
    });
    expect(lintCookieBanner(b)).toEqual([
      expect.objectContaining({ rule: 'no-preticked', path: 'categories.1.defaultEnabled' }),
      expect.objectContaining({ rule: 'no-preticked', path: 'categories.3.defaultEnabled' }),
    ]);
    expect(lintCookieBanner(b)[0]!.message).toContain('functional');
  });

  it('asks for a necessary category when none is required', () => {
    const b = banner((b) => (b.categories = b.categories.filter((c) => !c.isRequired)));
    expect(lintCookieBanner(b)).toEqual([
      { rule: 'necessary-category', path: 'categories', message: expect.stringMatching(/no necessary category/) },
    ]);
  });

  it.each(['', '   '])('reports a missing privacy link (%j)', (link) => {
    const f = lintCookieBanner(banner((b) => (b.config.banner_texts.privacyLink = link)));
    expect(f).toEqual([
      {
        rule: 'privacy-link',
        path: 'config.banner_texts.privacyLink',
        message: 'a link to the privacy notice is missing',
      },
    ]);
  });

  it.each(['datenschutz', 'www.example.com/privacy', 'ftp://example.com/p', 'https://', '/daten schutz'])(
    'reports a privacy link that is not a URL or site path: %s',
    (link) => {
      const f = lintCookieBanner(banner((b) => (b.config.banner_texts.privacyLink = link)));
      expect(f).toEqual([
        {
          rule: 'privacy-link',
          path: 'config.banner_texts.privacyLink',
          message: `"${link}" is not a URL or a site path`,
        },
      ]);
    },
  );

  it.each(['https://example.com/datenschutz', 'http://example.com', '/', '/privacy#cookies', ' /datenschutz '])(
    'accepts the privacy link %j',
    (link) => {
      expect(lintCookieBanner(banner((b) => (b.config.banner_texts.privacyLink = link)))).toEqual([]);
    },
  );

  it('reports an empty title and an empty description, each on its own path', () => {
    expect(rules(banner((b) => (b.config.banner_texts.title = '  ')))).toEqual(['texts config.banner_texts.title']);
    const f = lintCookieBanner(banner((b) => (b.config.banner_texts.description = '')));
    expect(f).toEqual([
      { rule: 'texts', path: 'config.banner_texts.description', message: 'the banner description is empty' },
    ]);
  });

  it('reports a description shorter than 40 characters, not one of exactly 40', () => {
    const short = lintCookieBanner(banner((b) => (b.config.banner_texts.description = 'x'.repeat(39))));
    expect(short).toEqual([expect.objectContaining({ rule: 'texts', message: expect.stringMatching(/too short/) })]);
    expect(lintCookieBanner(banner((b) => (b.config.banner_texts.description = 'x'.repeat(40))))).toEqual([]);
    // a description of blanks only is empty, not also too short
    expect(rules(banner((b) => (b.config.banner_texts.description = '   ')))).toEqual([
      'texts config.banner_texts.description',
    ]);
    // surrounding blanks do not count
    expect(rules(banner((b) => (b.config.banner_texts.description = ` ${'x'.repeat(39)} `)))).toEqual([
      'texts config.banner_texts.description',
    ]);
  });

  it('passes a contrast of exactly 4.5:1 and fails anything below', () => {
    expect(enoughContrast(4.5)).toBe(true);
    expect(enoughContrast(4.4999)).toBe(false);
    expect(enoughContrast(21)).toBe(true);
  });

  it('checks the button colour on white at the 4.5:1 boundary', () => {
    // #767676 is the lightest grey with 4.54:1; #777777 has 4.48:1
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(lintCookieBanner(banner((b) => (b.config.primaryColor = '#767676')))).toEqual([]);
    const f = lintCookieBanner(banner((b) => (b.config.primaryColor = '#777777')));
    expect(f).toEqual([
      {
        rule: 'contrast',
        path: 'config.primaryColor',
        message: '#777777 on white has a contrast of 4.48:1; at least 4.5:1 is needed (WCAG AA)',
      },
    ]);
  });

  it.each(['blue', '#12345', '#ggg', '1a56db', 'x#1a56db', '#1a56db0', '#a', '#ab'])(
    'reports %j as not a colour code',
    (color) => {
      expect(lintCookieBanner(banner((b) => (b.config.primaryColor = color)))).toEqual([
        { rule: 'contrast', path: 'config.primaryColor', message: `${color} is not a colour code #rgb or #rrggbb` },
      ]);
    },
  );

  it('computes WCAG luminance and contrast', () => {
    expect(luminance('#ffffff')).toBe(1);
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#abc')).toBe(luminance('#aabbcc'));
    expect(luminance('#fff')).toBe(1);
    // below the 0.04045 knee the channel is linear, above it the power curve
    expect(luminance('#0a0a0a')).toBeCloseTo(10 / 255 / 12.92, 10);
    expect(luminance('#0b0b0b')).toBeCloseTo(((11 / 255 + 0.055) / 1.055) ** 2.4, 10);
    // channel weights: green counts most, blue least
    expect(luminance('#ff0000')).toBeCloseTo(0.2126, 10);
    expect(luminance('#00ff00')).toBeCloseTo(0.7152, 10);
    expect(luminance('#0000ff')).toBeCloseTo(0.0722, 10);
    expect(contrast('#000000', '#ffffff')).toBe(21);
    expect(contrast('#ffffff', '#000000')).toBe(21);
    expect(contrast('#1a56db', '#1a56db')).toBe(1);
  });
});
