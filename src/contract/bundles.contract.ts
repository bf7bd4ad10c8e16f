import * as z from 'zod';
import { BundleImportQuery, BundleImportSummary } from '../domain/sync/bundle.schema.js';
import { op, type StreamBody } from './operation.js';

const Stream = z.custom<StreamBody>();

/**
 * Tenant bundles (our addition): every record of a tenant, its media files and their schemas as one ZIP file, out
 * and in, streamed both ways. Admin keys only: a bundle holds everything of the tenant, and an import writes records
 * as they were exported (checked whole first, merged as a sync does).
 */
export const bundlesContract = {
  export: op({
    method: 'GET',
    path: '/bundle',
    summary: 'Every record of the tenant, its media files and their schemas as one bundle (ZIP), streamed (admin)',
    tenant: 'header',
    scope: 'admin',
    responseKind: 'stream',
    output: Stream,
    status: 200,
    responseTypes: ['application/zip'],
  }),
  import: op({
    method: 'POST',
    path: '/bundle',
    summary:
      'Import a bundle (ZIP) into the tenant, checked whole before anything is written; records that differ here are conflicts (admin)',
    tenant: 'header',
    scope: 'admin',
    query: BundleImportQuery,
    requestKind: 'stream',
    requestTypes: ['application/zip'],
    output: BundleImportSummary,
    status: 200,
    raises: ['conflict'],
  }),
};
