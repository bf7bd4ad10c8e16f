import type { CookieBanner } from './cookie-banner.schema.js';

/** One problem found by the lint, with the rule it breaks. */
export interface LintFinding {
  rule: string;
  path: string;
  message: string;
}

/** WCAG 2.x relative luminance of an sRGB colour #rgb or #rrggbb. */
export function luminance(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  const channel = (i: number) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** WCAG contrast ratio between two colours, from 1 to 21. */
export const contrast = (a: string, b: string): number => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};

/** WCAG AA for normal text: a contrast of 4.5:1 or more passes, exactly 4.5:1 included. */
export const enoughContrast = (ratio: number): boolean => ratio >= 4.5;

/**
 * Checks a banner against what European regulators ask of consent banners: refusing must be as easy as accepting
 * (a decline-all button on the first layer), nothing optional switched on in advance (CJEU Planet49), a link to the
 * privacy notice, texts that say something, and a button colour readable on white (WCAG AA, 4.5:1).
 */
export function lintCookieBanner(b: Pick<CookieBanner, 'categories' | 'config'>): LintFinding[] {
  const f: LintFinding[] = [];
  if (!b.config.showDeclineAll)
    f.push({
      rule: 'decline-all',
      path: 'config.showDeclineAll',
      message: 'the first layer needs a "decline all" button as prominent as "accept all"',
    });
  b.categories.forEach((c, i) => {
    if (!c.isRequired && c.defaultEnabled)
      f.push({
        rule: 'no-preticked',
        path: `categories.${i}.defaultEnabled`,
        message: `category ${c.id} is not necessary but enabled by default; consent must be opt-in`,
      });
  });
  if (!b.categories.some((c) => c.isRequired))
    f.push({
      rule: 'necessary-category',
      path: 'categories',
      message: 'no necessary category: name the cookies the site needs to work',
    });
  const link = b.config.banner_texts.privacyLink.trim();
  if (!link)
    f.push({
      rule: 'privacy-link',
      path: 'config.banner_texts.privacyLink',
      message: 'a link to the privacy notice is missing',
    });
  else if (!/^(https?:\/\/\S+|\/\S*)$/.test(link))
    f.push({
      rule: 'privacy-link',
      path: 'config.banner_texts.privacyLink',
      message: `"${link}" is not a URL or a site path`,
    });
  for (const key of ['title', 'description'] as const) {
    if (!b.config.banner_texts[key].trim())
      f.push({ rule: 'texts', path: `config.banner_texts.${key}`, message: `the banner ${key} is empty` });
  }
  if (b.config.banner_texts.description.trim() && b.config.banner_texts.description.trim().length < 40)
    f.push({
      rule: 'texts',
      path: 'config.banner_texts.description',
      message: 'the description is too short to explain what is processed and why',
    });
  if (/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(b.config.primaryColor)) {
    const ratio = contrast(b.config.primaryColor, '#ffffff');
    if (!enoughContrast(ratio))
      f.push({
        rule: 'contrast',
        path: 'config.primaryColor',
        message: `${b.config.primaryColor} on white has a contrast of ${ratio.toFixed(2)}:1; at least 4.5:1 is needed (WCAG AA)`,
      });
  } else
    f.push({
      rule: 'contrast',
      path: 'config.primaryColor',
      message: `${b.config.primaryColor} is not a colour code #rgb or #rrggbb`,
    });
  return f;
}
