import { CookieBannerInput, CookieBannerView } from '../domain/cookie-banner/cookie-banner.schema.js';
import { op } from './operation.js';

/** The cookie-banner configuration, one per tenant (spec 4.4). */
export const cookieBannerContract = {
  get: op({
    method: 'GET',
    path: '/einwilligungen/cookies',
    summary: 'The configuration (the default before the first PUT)',
    tenant: 'header',
    output: CookieBannerView,
    scope: 'publishable',
    status: 200,
  }),
  put: op({
    method: 'PUT',
    path: '/einwilligungen/cookies',
    summary: 'Replace the whole configuration',
    tenant: 'header',
    body: CookieBannerInput,
    output: CookieBannerView,
    status: 200,
  }),
};
