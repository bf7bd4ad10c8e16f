import type { ConsentStore } from './consents/consent-store.port.js';
import type { ImportRunStore } from './consents/import-run-store.port.js';
import type { CookieBannerStore } from './cookie-banner/cookie-banner-store.port.js';
import type { DsfaStore } from './dsfa/dsfa-store.port.js';
import type { LegalDocumentStore } from './legal-documents/legal-document-store.port.js';
import type { NotificationStore } from './notifications/notification-store.port.js';
import type { TrainingBlockStore } from './training-blocks/block.store.js';
import type { CanonicalStore } from './training-blocks/canonical-store.port.js';
import type { TrainingContentStore } from './training/content.store.js';
import type { TrainingMediaStore } from './training/media.store.js';
import type { TrainingStore } from './training/training-store.port.js';
import type { ReplicaStore } from './sync/replica-store.port.js';
import type { SyncStateStore } from './sync/sync-state.port.js';
import type { WebhookStore } from './events/webhook-store.port.js';
import type { JournalStore } from './journal/journal-store.port.js';
import type { ManagementReportStore } from './report/management-report-store.port.js';
import type { TenantStore } from './tenants/tenant-store.port.js';

/** Every area's store, as one transaction sees them (or a read outside any). */
export interface Stores {
  dsfa: DsfaStore;
  consents: ConsentStore;
  consentImports: ImportRunStore;
  legalDocuments: LegalDocumentStore;
  cookieBanner: CookieBannerStore;
  training: TrainingStore;
  trainingContent: TrainingContentStore;
  trainingMedia: TrainingMediaStore;
  trainingBlocks: TrainingBlockStore;
  canonical: CanonicalStore;
  notifications: NotificationStore;
  /** Records of every area as stored, for sync and bundles. */
  replica: ReplicaStore;
  syncState: SyncStateStore;
  /** A tenant's webhook endpoints and deliveries (operational rows, written in the same transaction as the change). */
  webhooks: WebhookStore;
  /** The tenant's chain as this transaction sees it (its own entries are appended at commit). */
  journal: JournalStore;
  /** The aggregates of the management report (reads only). */
  reports: ManagementReportStore;
  /** The tenants of the store, read across every tenant (reads only). */
  tenants: TenantStore;
}

/**
 * How services reach the stores. `read` answers outside a transaction and refuses writes. `write` runs `fn` as one
 * transaction of one tenant with every area's store: the change, its audit entries and its journal entries commit
 * together or not at all. `fn` may run more than once (a transaction that lost a race on PostgreSQL runs again), so it
 * must not act outside the stores. A `write` inside another joins it.
 */
export interface UnitOfWork {
  readonly read: Stores;
  write<T>(tenant: string, fn: (tx: Stores) => Promise<T>): Promise<T>;
}
