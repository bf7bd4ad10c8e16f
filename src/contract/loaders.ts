import type { Contracts } from './index.js';

/**
 * Each area's contract, loaded when first needed: a client of one area (the HTTP backend) builds the schemas of
 * that area only. The table `contracts` in index.ts stays the one the server and the OpenAPI document are built
 * from; the type keeps this one complete.
 */
export const contractLoaders: { [K in keyof Contracts]: () => Promise<Contracts[K]> } = {
  dsfa: async () => (await import('./dsfa.contract.js')).dsfaContract,
  consents: async () => (await import('./consents.contract.js')).consentsContract,
  legalDocuments: async () => (await import('./legal-documents.contract.js')).legalDocumentsContract,
  cookieBanner: async () => (await import('./cookie-banner.contract.js')).cookieBannerContract,
  training: async () => (await import('./training.contract.js')).trainingContract,
  trainingContent: async () => (await import('./training-content.contract.js')).trainingContentContract,
  trainingMedia: async () => (await import('./training-media.contract.js')).trainingMediaContract,
  canonical: async () => (await import('./training-canonical.contract.js')).canonicalContract,
  trainingBlocks: async () => (await import('./training-blocks.contract.js')).trainingBlocksContract,
  journal: async () => (await import('./journal.contract.js')).journalContract,
  reports: async () => (await import('./reports.contract.js')).reportsContract,
  apiKeys: async () => (await import('./api-keys.contract.js')).apiKeysContract,
  webhooks: async () => (await import('./webhooks.contract.js')).webhooksContract,
  notifications: async () => (await import('./notifications.contract.js')).notificationsContract,
  sync: async () => (await import('./sync.contract.js')).syncContract,
  tenants: async () => (await import('./tenants.contract.js')).tenantsContract,
  bundles: async () => (await import('./bundles.contract.js')).bundlesContract,
};
