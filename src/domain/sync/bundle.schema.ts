import * as z from 'zod';
import { looseBoolean } from '../schema-helpers.js';

/** How a bundle is imported: into its own tenant, or with its records renamed to the request's. */
export const BundleImportQuery = z.object({
  rename_tenant: looseBoolean()
    .default(false)
    .describe("import the records as the request's tenant when the bundle holds another (else that is refused, 422)"),
});
export type BundleImportQuery = z.infer<typeof BundleImportQuery>;

const Side = z.object({ actor: z.string().nullable(), time: z.string().nullable(), deleted: z.boolean() });

/** A record of the bundle that differs from the one here (or would break a rule of the merge), kept with both. */
const BundleConflict = z.object({
  id: z.string(),
  area: z.string(),
  entity: z.string(),
  entity_id: z.string(),
  reason: z.string(),
  fields: z.array(z.string()),
  ours: Side,
  theirs: Side,
  status: z.string(),
});

/** What an import wrote: new records per area, records already here the same, and the conflicts it left open. */
export const BundleImportSummary = z.object({
  tenant: z.string(),
  created: z.record(z.string(), z.number().int().min(0)),
  unchanged: z.number().int().min(0),
  conflicts: z.array(BundleConflict),
});
