import { consentsContract } from './consents.contract.js';
import { cookieBannerContract } from './cookie-banner.contract.js';
import { dsfaContract } from './dsfa.contract.js';
import { legalDocumentsContract } from './legal-documents.contract.js';
import { trainingContract } from './training.contract.js';
import { trainingContentContract } from './training-content.contract.js';
import { trainingMediaContract } from './training-media.contract.js';
import { canonicalContract } from './training-canonical.contract.js';
import { trainingBlocksContract } from './training-blocks.contract.js';
import { journalContract } from './journal.contract.js';
import { reportsContract } from './reports.contract.js';
import { apiKeysContract } from './api-keys.contract.js';
import { webhooksContract } from './webhooks.contract.js';
import { notificationsContract } from './notifications.contract.js';
import { syncContract } from './sync.contract.js';
import { tenantsContract } from './tenants.contract.js';
import { bundlesContract } from './bundles.contract.js';

/** Every area of /sdk/v1; the server, the HTTP client and the OpenAPI document are generated from this table. */
export const contracts = {
  dsfa: dsfaContract,
  consents: consentsContract,
  legalDocuments: legalDocumentsContract,
  cookieBanner: cookieBannerContract,
  training: trainingContract,
  trainingContent: trainingContentContract,
  trainingMedia: trainingMediaContract,
  canonical: canonicalContract,
  trainingBlocks: trainingBlocksContract,
  journal: journalContract,
  reports: reportsContract,
  apiKeys: apiKeysContract,
  webhooks: webhooksContract,
  notifications: notificationsContract,
  sync: syncContract,
  tenants: tenantsContract,
  bundles: bundlesContract,
};
export type Contracts = typeof contracts;
export type AreaName = keyof Contracts;
