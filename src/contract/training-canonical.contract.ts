import * as z from 'zod';
import {
  CanonicalImport,
  CanonicalImportResult,
  CanonicalMeta,
  ControlFilter,
  ListedControl,
} from '../domain/training-blocks/canonical.schema.js';
import { op } from './operation.js';

/** Canonical security controls (spec 4.5, issue 6). The import route is our addition for organisation catalogues. */
export const canonicalContract = {
  controls: op({
    method: 'GET',
    path: '/training/canonical/controls',
    summary: 'List canonical controls (filters take comma-separated values)',
    tenant: 'header',
    query: ControlFilter,
    output: z.array(ListedControl),
    status: 200,
  }),
  meta: op({
    method: 'GET',
    path: '/training/canonical/meta',
    summary: 'Domains, categories and audiences with counts',
    tenant: 'header',
    output: CanonicalMeta,
    status: 200,
  }),
  import: op({
    method: 'POST',
    path: '/training/canonical/import',
    summary: "Import an organisation's own controls (validated per row, idempotent)",
    tenant: 'header',
    body: CanonicalImport,
    output: CanonicalImportResult,
    status: 200,
  }),
};
