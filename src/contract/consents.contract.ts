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
import { IdParams } from '../domain/dsfa/dsfa.schema.js';
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
    summary: 'Record a consent (or a refusal with granted=false)',
    tenant: 'header',
    body: ConsentInput,
    output: ConsentCreated,
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
    summary: 'Renew an active consent, optionally with a new version',
    tenant: 'header',
    params: IdParams,
    body: ConsentRenew,
    output: ConsentWithHistory,
    status: 200,
    raises: ['conflict'],
  }),
  history: op({
    method: 'GET',
    path: '/einwilligungen/consents/{id}/history',
    summary: 'History of a consent, oldest first',
    tenant: 'header',
    params: IdParams,
    output: z.array(ConsentHistoryEntry),
    status: 200,
  }),
};
