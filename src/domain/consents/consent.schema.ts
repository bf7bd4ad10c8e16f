import * as z from 'zod';
import { isoTimestamp, label, looseBoolean, NO_NUL, queryInt } from '../schema-helpers.js';
import { NUL_RULE } from '../validation.js';
import { checkCsvLayout, checkImportDialect, CsvLayout, ImportDialect, oneCharacter } from './import-options.schema.js';

export const HISTORY_ACTIONS = ['granted', 'revoked', 'version_update', 'renewed'] as const;

/** Empty optional values (an empty CSV cell) mean "not given". */
const optional = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), s.optional());

/** An optional timestamp: null means "not given"; an empty string is refused, as it says neither. */
const timestamp = z.preprocess(
  (v) => (v === null ? undefined : v),
  isoTimestamp((input) =>
    input === '' ? 'must not be empty: leave the field out (or null) when there is no time' : undefined,
  ).optional(),
);

/**
 * A consent as a client sends it (POST body and each import row): the same schema for both, so a row refused by the
 * import is refused by the API for the same reason. Booleans also accept true/false/1/0/yes/no.
 */
export const ConsentInput = z
  .object({
    user_id: label(320),
    data_point_id: label(200),
    granted: looseBoolean(),
    consent_version: optional(label(50)).default('1.0'),
    // the import reads rows past the API's boundary, so the schema itself refuses what no store can hold
    source: optional(z.string().trim().max(100).regex(NO_NUL, NUL_RULE)),
    ip_address: optional(z.union([z.ipv4(), z.ipv6()], { error: 'expected an IPv4 or IPv6 address' })),
    user_agent: optional(z.string().max(1000).regex(NO_NUL, NUL_RULE)),
    /** When the consent was given; defaults to now. Imports of historic consents carry it. */
    granted_at: timestamp,
    /** When the consent was revoked (a historic consent); absent or null: not revoked. */
    revoked_at: timestamp,
    /** The revision of the cookie-banner configuration the visitor was shown (`revision` of GET /einwilligungen/cookies). */
    banner_revision: optional(
      z
        .string()
        .trim()
        .regex(/^[0-9a-f]{8,64}$/, 'a hexadecimal revision, e.g. 3f2a9c01d4e5b6a7'),
    ),
    /** The id of the published privacy-policy version the visitor was shown. */
    policy_version_id: optional(label(100)),
    /** The SHA-256 of that version's content, hexadecimal (`content_hash` of GET /legal-documents/published). */
    policy_content_hash: optional(
      z
        .string()
        .trim()
        .regex(/^[0-9a-f]{64}$/, 'a SHA-256 as 64 hexadecimal digits'),
    ),
  })
  // the order of granted_at and revoked_at is a rule of time, checked with the clock in consentTimeProblems
  .superRefine((c, ctx) => {
    if (c.revoked_at && !c.granted)
      ctx.addIssue({ code: 'custom', path: ['revoked_at'], message: 'a refusal (granted=false) cannot be revoked' });
  });
export type ConsentInput = z.infer<typeof ConsentInput>;

/** A CSV row of the import: an empty cell cannot say "null", so an empty time cell means "not given" there. */
export const ConsentCsvRow = z.preprocess((v) => {
  if (!v || typeof v !== 'object') return v;
  const r = { ...(v as Record<string, unknown>) };
  for (const k of ['granted_at', 'revoked_at'] as const) if (r[k] === '') delete r[k];
  return r;
}, ConsentInput);

export const ConsentHistoryEntry = z.object({
  id: z.string(),
  consent_id: z.string(),
  action: z.enum(HISTORY_ACTIONS),
  consent_version: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  source: z.string().nullable(),
  created_at: z.string(),
});
export type ConsentHistoryEntry = z.infer<typeof ConsentHistoryEntry>;

export const Consent = z.object({
  id: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  data_point_id: z.string(),
  granted: z.boolean(),
  granted_at: z.string(),
  revoked_at: z.string().nullable(),
  consent_version: z.string(),
  source: z.string().nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  banner_revision: z.string().nullable(),
  policy_version_id: z.string().nullable(),
  policy_content_hash: z.string().nullable(),
});
export type Consent = z.infer<typeof Consent>;
export const ConsentWithHistory = Consent.extend({ history: z.array(ConsentHistoryEntry) });
export type ConsentWithHistory = z.infer<typeof ConsentWithHistory>;

export const ConsentListQuery = z.object({
  limit: queryInt({ min: 1, max: 500, default: 50 }),
  offset: queryInt({ min: 0, default: 0 }),
  user_id: z.string().min(1).optional(),
  data_point_id: z.string().min(1).optional(),
  granted: looseBoolean().optional(),
});
export type ConsentListQuery = z.infer<typeof ConsentListQuery>;

export const ConsentList = z.object({
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
  consents: z.array(ConsentWithHistory),
});

export const CONSENT_OUTCOMES = ['created', 'unchanged', 'renewed'] as const;

/** The answer to a recorded decision: the consent that holds it (spec 4.2), and what recording it did (addition). */
export const ConsentCreated = z.object({
  success: z.boolean(),
  id: z.string(),
  user_id: z.string(),
  data_point_id: z.string(),
  granted: z.boolean(),
  granted_at: z.string(),
  outcome: z
    .enum(CONSENT_OUTCOMES)
    .describe(
      'created: a new consent (201); unchanged: the decision is recorded already, id names that consent (200); renewed: the grant in force took the new version or texts (200)',
    ),
  revoked_consent_ids: z
    .array(z.string())
    .describe('the grants this refusal withdrew (revoked at its time); empty otherwise'),
});
export const ConsentRevoked = z.object({ success: z.boolean(), id: z.string(), revoked_at: z.string() });
export const ConsentRenew = z.object({ consent_version: label(50).nullish() });

export const ConsentStats = z.object({
  total_consents: z.int(),
  active_consents: z.int(),
  revoked_consents: z.int(),
  unique_users: z.int(),
  conversion_rate: z.number(),
  by_data_point: z.record(z.string(), z.object({ total: z.int(), active: z.int(), revoked: z.int() })),
});
export type ConsentStats = z.infer<typeof ConsentStats>;

/** Options of a bulk import, as query parameters (the body is the CSV or NDJSON itself). */
export const ImportOptions = z
  .object({
    dry_run: looseBoolean().default(false),
    delimiter: oneCharacter.optional(),
    /** `column:field` pairs, comma-separated, for files whose headers differ from the field names. */
    map: z.string().optional(),
    file_name: z
      .string()
      .trim()
      .max(500)
      .optional()
      .describe('the name of the file the body comes from, recorded on the import run'),
    raw_cells: looseBoolean()
      .default(false)
      .describe(
        "CSV: read cells as they are; by default a cell that starts with ' followed by = + - @, a tab or a carriage return (more quotes before them included) loses that one ' (a CSV export writes such cells so)",
      ),
    ...ImportDialect.shape,
  })
  .superRefine((o, ctx) => {
    const bad = badMapEntry(o.map);
    if (bad)
      ctx.addIssue({
        code: 'custom',
        path: ['map'],
        message: `invalid entry "${bad}": expected column=field with field one of ${CONSENT_FIELDS.join(', ')}`,
      });
    checkImportDialect(o, ctx);
  });
export type ImportOptions = z.infer<typeof ImportOptions>;

/**
 * A refused row: the line where it starts, why, and the row itself as read, so it can be fixed and imported again:
 * `cells` for a CSV row (as many as it had), `text` for an NDJSON line; neither for the further lines of a malformed
 * CSV row that spans several (its first line carries it).
 */
export const ImportRejection = z.object({
  line: z.int(),
  reason: z.string(),
  cells: z.array(z.string()).optional(),
  text: z.string().optional(),
});
export const ImportSummary = z.object({
  /** The run's id (GET /einwilligungen/consents/imports/{id}); null in a dry run, which is not recorded. */
  run_id: z.string().nullable(),
  /** A CSV file's header row as read, and the delimiter in use (given or detected); null for NDJSON. */
  columns: z.array(z.string()).nullable(),
  delimiter: z.string().nullable(),
  read: z.int(),
  created: z.int(),
  unchanged: z.int(),
  /**
   * Rows that revoked a stored consent: one they otherwise equal, given as revoked, or the grant in force a refusal
   * withdrew (the refusal is stored too) (import-match.ts).
   */
  revoked: z.int(),
  /** Rows that renewed the grant in force of their user and data point to their version. */
  renewed: z.int(),
  rejected: z.int(),
  seconds: z.number(),
  dry_run: z.boolean(),
  /** The first 10,000 refused rows with line number and reason. */
  rejections: z.array(ImportRejection),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const ExportQuery = z
  .object({
    format: z.enum(['csv', 'ndjson']).default('ndjson'),
    user_id: z.string().min(1).optional(),
    data_point_id: z.string().min(1).optional(),
    granted: looseBoolean().optional(),
    ...CsvLayout.shape,
  })
  .superRefine(checkCsvLayout);
export type ExportQuery = z.infer<typeof ExportQuery>;

/** The fields of a consent that an import reads and an export writes, in column order. */
export const CONSENT_FIELDS = [
  'user_id',
  'data_point_id',
  'granted',
  'granted_at',
  'revoked_at',
  'consent_version',
  'source',
  'ip_address',
  'user_agent',
] as const;
export const REQUIRED_IMPORT_FIELDS = ['user_id', 'data_point_id', 'granted'] as const;

/** The first entry of a `map` option (`column=field` or `column:field`, comma-separated) that names no consent field. */
export function badMapEntry(map: string | undefined): string | undefined {
  for (const pair of (map ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [col, field] = pair.split(/[:=]/).map((p) => p.trim());
    if (!col || !field || !(CONSENT_FIELDS as readonly string[]).includes(field)) return pair;
  }
  return undefined;
}
