import { z } from 'zod';
import {
  ConsentCreated,
  ConsentHistoryEntry,
  ConsentInput,
  ConsentList,
  ConsentListQuery,
  ConsentRenew,
  ConsentRevoked,
  ConsentStats,
  ConsentWithHistory,
  ExportQuery,
  ImportOptions,
  ImportSummary,
} from '../domain/consents/consent.schema.js';
import { ImportRevert, ImportRun, ImportRunList, ImportRunQuery } from '../domain/consents/import-run.schema.js';
import { IdParams } from '../domain/dsfa/dsfa.schema.js';
import { ConsentReceipt } from '../domain/consents/receipt.schema.js';
import type { StreamBody } from './operation.js';
import { op } from './operation.js';

const Stream = z.custom<StreamBody>();

/** Consents, spec 4.2, plus renew (decisions.md) and the bulk import and export routes (our additions). */
export const consentsContract = {
  list: op({
    method: 'GET',
    path: '/einwilligungen/consents',
    summary: 'List consents with their history',
    tenant: 'header',
    query: ConsentListQuery,
    output: ConsentList,
    status: 200,
  }),
  create: op({
    method: 'POST',
    path: '/einwilligungen/consents',
    summary:
      'Record a consent (or a refusal with granted=false); from a browser the server sets granted_at, source and user_agent (422 when sent)',
    tenant: 'header',
    body: ConsentInput,
    output: ConsentCreated,
    scope: 'publishable',
    // a page records a choice now, through the banner: it cannot date it, revoke it or name another channel
    serverDecides: {
      fields: ['granted_at', 'revoked_at', 'source', 'ip_address', 'user_agent'],
      values: (seen) => ({ source: 'web_banner', user_agent: seen.userAgent?.slice(0, 1000) }),
    },
    status: 201,
  }),
  stats: op({
    method: 'GET',
    path: '/einwilligungen/consents/stats',
    summary: 'Consent statistics of the tenant',
    tenant: 'header',
    output: ConsentStats,
    status: 200,
  }),
  import: op({
    method: 'POST',
    path: '/einwilligungen/consents/import',
    summary: 'Bulk import from CSV (text/csv) or NDJSON (application/x-ndjson), streamed',
    tenant: 'header',
    query: ImportOptions,
    requestKind: 'stream',
    output: ImportSummary,
    status: 200,
    requestTypes: ['text/csv', 'application/x-ndjson'],
  }),
  imports: op({
    method: 'GET',
    path: '/einwilligungen/consents/imports',
    summary: 'Bulk import runs of the tenant, newest first (dry runs are not recorded)',
    tenant: 'header',
    query: ImportRunQuery,
    output: ImportRunList,
    status: 200,
  }),
  importRun: op({
    method: 'GET',
    path: '/einwilligungen/consents/imports/{id}',
    summary: 'One bulk import run',
    tenant: 'header',
    params: IdParams,
    ids: { params: { id: 'consent_import_run' } },
    output: ImportRun,
    status: 200,
  }),
  revertImport: op({
    method: 'POST',
    path: '/einwilligungen/consents/imports/{id}/revert',
    summary:
      'Revert an import run: remove the consents it created and undo the revocations it applied, in one transaction; 409 listing the records that changed since',
    tenant: 'header',
    params: IdParams,
    ids: { params: { id: 'consent_import_run' } },
    output: ImportRevert,
    status: 200,
    raises: ['conflict'],
  }),
  export: op({
    method: 'GET',
    path: '/einwilligungen/consents/export',
    summary: 'Streamed export as CSV or NDJSON',
    tenant: 'header',
    query: ExportQuery,
    responseKind: 'stream',
    output: Stream,
    status: 200,
    responseTypes: ['text/csv', 'application/x-ndjson'],
  }),
  revoke: op({
    method: 'PUT',
    path: '/einwilligungen/consents/{id}/revoke',
    ids: { params: { id: 'consent' } },
    summary: 'Revoke an active consent (irreversible)',
    tenant: 'header',
    params: IdParams,
    output: ConsentRevoked,
    status: 200,
    raises: ['conflict'],
  }),
  renew: op({
    method: 'PUT',
    path: '/einwilligungen/consents/{id}/renew',
    ids: { params: { id: 'consent' } },
    summary: 'Renew an active consent, optionally with a new version',
    tenant: 'header',
    params: IdParams,
    body: ConsentRenew,
    output: ConsentWithHistory,
    status: 200,
    raises: ['conflict'],
  }),
  receipt: op({
    method: 'GET',
    path: '/einwilligungen/consents/{id}/receipt',
    ids: { params: { id: 'consent' } },
    summary:
      'A receipt of the consent signed by the store (Ed25519): who, what, when, the banner revision and privacy-policy version it was given on, with their hashes (addition)',
    tenant: 'header',
    params: IdParams,
    output: ConsentReceipt,
    status: 200,
  }),
  history: op({
    method: 'GET',
    path: '/einwilligungen/consents/{id}/history',
    ids: { params: { id: 'consent' } },
    summary: 'History of a consent, oldest first',
    tenant: 'header',
    params: IdParams,
    output: z.array(ConsentHistoryEntry),
    status: 200,
  }),
};
