import type { Contracts } from '../contract/index.js';
import type { Client } from '../contract/operation.js';

/** The product's operations, whether they run on the embedded store or against a remote /sdk/v1 server. */
export interface Backend {
  dsfa: Client<Contracts['dsfa']>;
  consents: Client<Contracts['consents']>;
  legalDocuments: Client<Contracts['legalDocuments']>;
  cookieBanner: Client<Contracts['cookieBanner']>;
  training: Client<Contracts['training']>;
  trainingContent: Client<Contracts['trainingContent']>;
  trainingMedia: Client<Contracts['trainingMedia']>;
  canonical: Client<Contracts['canonical']>;
  trainingBlocks: Client<Contracts['trainingBlocks']>;
  journal: Client<Contracts['journal']>;
  reports: Client<Contracts['reports']>;
  apiKeys: Client<Contracts['apiKeys']>;
  webhooks: Client<Contracts['webhooks']>;
  notifications: Client<Contracts['notifications']>;
  sync: Client<Contracts['sync']>;
  tenants: Client<Contracts['tenants']>;
  bundles: Client<Contracts['bundles']>;
  /** Where the data lives, for messages: a file path or a URL. */
  readonly location: string;
  close(): Promise<void>;
}
