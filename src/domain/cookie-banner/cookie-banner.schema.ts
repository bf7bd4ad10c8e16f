import * as z from 'zod';
import { label } from '../schema-helpers.js';

/** A map by language tag as `<html lang>` gives it (`en`, `de`, `de-AT`), each key checked with a clear message. */
const byLanguage = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).superRefine((map, ctx) => {
    for (const key of Object.keys(map))
      if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(key))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `"${key}" is not a language tag such as en, de or de-AT`,
        });
  });

/** The banner's texts in another language; a text left out is shown as in `banner_texts`. */
const Translation = z.object({
  title: z.string().max(300).optional(),
  description: z.string().max(5000).optional(),
  privacyLink: z.string().max(2000).optional(),
});

export const POSITIONS = ['bottom', 'top', 'center', 'bottom-left', 'bottom-right'] as const;
export const STYLES = ['bar', 'box', 'modal'] as const;

const Category = z.object({
  id: z
    .string()
    .trim()
    .regex(/^\s*[a-z0-9][a-z0-9_-]{0,49}\s*$/, 'lower-case letters, digits, _ and -, e.g. analytics'),
  name: label(100),
  isRequired: z.boolean(),
  defaultEnabled: z.boolean(),
  /** The name in other languages, by language tag (`{"en": "Statistics"}`): the website banner shows the page's. */
  names: byLanguage(label(100)).optional(),
});

/** PUT body (spec 2.9): the whole configuration; validated as decisions.md says. */
export const CookieBannerInput = z
  .object({
    categories: z.array(Category).min(1).max(50),
    config: z.object({
      position: z.enum(POSITIONS),
      style: z.enum(STYLES),
      primaryColor: z
        .string()
        .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a colour code #rgb or #rrggbb, e.g. #1a73e8'),
      showDeclineAll: z.boolean(),
      showSettings: z.boolean(),
      banner_texts: z.object({
        title: z.string().max(300),
        description: z.string().max(5000),
        privacyLink: z.string().max(2000),
        /** The texts in other languages, by language tag (addition): the website banner shows the page's. */
        translations: byLanguage(Translation).optional(),
      }),
    }),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.categories.forEach((c, i) => {
      if (seen.has(c.id))
        ctx.addIssue({ code: 'custom', path: ['categories', i, 'id'], message: `duplicate category id ${c.id}` });
      seen.add(c.id);
      if (c.isRequired && !c.defaultEnabled)
        ctx.addIssue({
          code: 'custom',
          path: ['categories', i, 'defaultEnabled'],
          message: 'a required category must be enabled by default',
        });
    });
  });
export type CookieBannerInput = z.infer<typeof CookieBannerInput>;

export const CookieBanner = z.object({
  tenant_id: z.string(),
  categories: z.array(Category),
  config: z.object({
    position: z.enum(POSITIONS),
    style: z.enum(STYLES),
    primaryColor: z.string(),
    showDeclineAll: z.boolean(),
    showSettings: z.boolean(),
    banner_texts: z.object({
      title: z.string(),
      description: z.string(),
      privacyLink: z.string(),
      translations: z.record(z.string(), Translation).optional(),
    }),
  }),
  updated_at: z.string().nullable(),
});
export type CookieBanner = z.infer<typeof CookieBanner>;

/**
 * The configuration as the API shows it, with its `revision`: the first 16 hexadecimal digits of the SHA-256 of its
 * content (categories and config in canonical JSON; not the tenant, not the time of saving). A banner remembers the
 * revision its visitor answered, and asks again when it changes; a consent given in the banner records it.
 */
export const CookieBannerView = CookieBanner.extend({
  revision: z.string().describe('hash of the content: changes whenever categories or config change (addition)'),
});
export type CookieBannerView = z.infer<typeof CookieBannerView>;

/** GET before any PUT (decisions.md). */
export const defaultCookieBanner = (tenant: string): CookieBanner => ({
  tenant_id: tenant,
  categories: [
    { id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: true },
    { id: 'functional', name: 'Funktional', isRequired: false, defaultEnabled: false },
    { id: 'analytics', name: 'Statistik', isRequired: false, defaultEnabled: false },
    { id: 'marketing', name: 'Marketing', isRequired: false, defaultEnabled: false },
  ],
  config: {
    position: 'bottom',
    style: 'bar',
    primaryColor: '#1a56db',
    showDeclineAll: true,
    showSettings: true,
    banner_texts: {
      title: 'Wir respektieren Ihre Privatsphäre',
      description:
        'Wir verwenden Cookies, die für den Betrieb der Website notwendig sind. Weitere Cookies setzen wir nur mit Ihrer Einwilligung.',
      privacyLink: '/datenschutz',
    },
  },
  updated_at: null,
});
