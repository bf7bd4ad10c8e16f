import type { CookieBannerView } from '../../../domain/cookie-banner/cookie-banner.schema.js';

export const pairs = (c: CookieBannerView): Array<[string, unknown]> => [
  [
    'categories',
    c.categories.map((x) => `${x.id}${x.isRequired ? ' (required)' : ''}${x.defaultEnabled ? ' [on]' : ''}`),
  ],
  ['position', c.config.position],
  ['style', c.config.style],
  ['primaryColor', c.config.primaryColor],
  ['showDeclineAll', c.config.showDeclineAll],
  ['showSettings', c.config.showSettings],
  ['title', c.config.banner_texts.title],
  ['privacyLink', c.config.banner_texts.privacyLink],
  ['updated_at', c.updated_at],
  ['revision', c.revision],
];
