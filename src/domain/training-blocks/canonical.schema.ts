import * as z from 'zod';
import { commaList } from '../schema-helpers.js';

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const AUDIENCES = ['enterprise', 'authority', 'provider', 'all'] as const;

const refs = z.array(z.string().trim().min(1).max(64)).max(50).default([]);

/** A canonical security control (issue 6): stable id DOMAIN-NNN, framework references as identifiers only. */
export const CanonicalControl = z.object({
  id: z.string().regex(/^[A-Z]{2,6}-\d{3}$/, 'expected DOMAIN-NNN, e.g. AUTH-001'),
  title: z.string().trim().min(1).max(300),
  objective: z.string().trim().min(1).max(4000),
  domain: z.string().regex(/^[A-Z]{2,6}$/, 'expected 2 to 6 capital letters, e.g. AUTH'),
  category: z.string().trim().min(1).max(100),
  severity: z.enum(SEVERITIES),
  target_audience: z.enum(AUDIENCES),
  references: z
    .object({ iso27001: refs, nis2: refs, bsi: refs, nist: refs })
    .default({ iso27001: [], nis2: [], bsi: [], nist: [] }),
});
export type CanonicalControl = z.infer<typeof CanonicalControl>;

/** A control as listed: where it comes from (the shipped catalogue or the tenant's own import). */
export const ListedControl = CanonicalControl.extend({ source: z.enum(['builtin', 'tenant']) });
export type ListedControl = z.infer<typeof ListedControl>;

/** Filters take one value or a comma-separated list; an audience filter also matches controls for `all`. */
export const ControlFilter = z.object({
  domain: commaList(z.string()).optional(),
  category: commaList(z.string()).optional(),
  severity: commaList(z.enum(SEVERITIES)).optional(),
  target_audience: commaList(z.enum(AUDIENCES)).optional(),
});
export type ControlFilter = z.infer<typeof ControlFilter>;

export const CanonicalMeta = z.object({
  domains: z.array(z.object({ domain: z.string(), count: z.number().int() })),
  categories: z.array(z.object({ category: z.string(), count: z.number().int() })),
  audiences: z.array(z.object({ audience: z.string(), count: z.number().int() })),
  total: z.number().int(),
});
export type CanonicalMeta = z.infer<typeof CanonicalMeta>;

/** Import body: raw rows, each validated on its own so one bad row does not stop the others. */
export const CanonicalImport = z.object({
  controls: z.array(z.unknown()).min(1, 'at least one control').max(100_000),
  /** Line numbers of the rows in the source file, for messages (same length as controls). */
  lines: z.array(z.int().positive()).optional(),
  dry_run: z.boolean().default(false),
});
export type CanonicalImport = z.infer<typeof CanonicalImport>;

export const ImportRejection = z.object({ line: z.int(), id: z.string().nullable(), reason: z.string() });
export const CanonicalImportResult = z.object({
  read: z.int(),
  created: z.int(),
  updated: z.int(),
  unchanged: z.int(),
  rejected: z.int(),
  rejections: z.array(ImportRejection),
  dry_run: z.boolean(),
});
export type CanonicalImportResult = z.infer<typeof CanonicalImportResult>;
