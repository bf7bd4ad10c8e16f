import * as z from 'zod';
import { label, nonBlank } from '../schema-helpers.js';
import { AUDIENCES, ListedControl, SEVERITIES } from './canonical.schema.js';

export const REGULATION_AREAS = ['dsgvo', 'nis2', 'iso27001', 'ai_act', 'geschgehg', 'hinschg'] as const;
export const FREQUENCY_TYPES = ['onboarding', 'annual', 'event_trigger', 'micro'] as const;

const filterText = nonBlank(200);

/** The fields of a training block configuration (spec 2.10); create requires name, regulation_area and prefix. */
const BlockFields = z.object({
  name: label(200),
  description: z.string().max(4000).default(''),
  domain_filter: filterText.nullish(),
  category_filter: filterText.nullish(),
  severity_filter: z
    .string()
    .trim()
    .min(1)
    .regex(
      new RegExp(`^\\s*(${SEVERITIES.join('|')})(,(${SEVERITIES.join('|')}))*\\s*$`),
      `one or more of ${SEVERITIES.join(', ')}, comma-separated`,
    )
    .nullish(),
  target_audience_filter: z.enum(AUDIENCES).nullish(),
  regulation_area: z.enum(REGULATION_AREAS),
  module_code_prefix: z
    .string()
    .trim()
    .regex(/^\s*[A-Z0-9][A-Z0-9-]{0,19}\s*$/, 'capital letters, digits and -, at most 20 characters, e.g. SEC-AUTH'),
  frequency_type: z.enum(FREQUENCY_TYPES).default('annual'),
  duration_minutes: z.int().min(1).max(600).default(30),
  pass_threshold: z.int().min(0).max(100).default(70),
  max_controls_per_module: z.int().min(1).max(100).default(10),
});

export const BlockCreate = BlockFields;
export type BlockCreate = z.infer<typeof BlockCreate>;

/** PUT: any field; absent stays unchanged, null clears an optional filter. */
export const BlockUpdate = z.object({
  name: BlockFields.shape.name.optional(),
  description: z.string().max(4000).optional(),
  domain_filter: filterText.nullish(),
  category_filter: filterText.nullish(),
  severity_filter: BlockFields.shape.severity_filter,
  target_audience_filter: z.enum(AUDIENCES).nullish(),
  regulation_area: z.enum(REGULATION_AREAS).optional(),
  module_code_prefix: BlockFields.shape.module_code_prefix.optional(),
  frequency_type: z.enum(FREQUENCY_TYPES).optional(),
  duration_minutes: z.int().min(1).max(600).optional(),
  pass_threshold: z.int().min(0).max(100).optional(),
  max_controls_per_module: z.int().min(1).max(100).optional(),
});
export type BlockUpdate = z.infer<typeof BlockUpdate>;

export const Block = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string(),
  domain_filter: z.string().nullable(),
  category_filter: z.string().nullable(),
  severity_filter: z.string().nullable(),
  target_audience_filter: z.enum(AUDIENCES).nullable(),
  regulation_area: z.enum(REGULATION_AREAS),
  module_code_prefix: z.string(),
  frequency_type: z.enum(FREQUENCY_TYPES),
  duration_minutes: z.int(),
  pass_threshold: z.int(),
  max_controls_per_module: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
  last_generated_at: z.string().nullable(),
});
export type Block = z.infer<typeof Block>;

/** One module a block would generate, with the controls grouped into it. */
export const PlannedModule = z.object({
  module_code: z.string(),
  title: z.string(),
  description: z.string(),
  domain: z.string(),
  control_ids: z.array(z.string()),
});
export type PlannedModule = z.infer<typeof PlannedModule>;

export const BlockPreview = z.object({
  block_id: z.string(),
  total_controls: z.int(),
  modules: z.array(PlannedModule),
  roles: z.array(z.string()),
  message: z.string(),
});
export type BlockPreview = z.infer<typeof BlockPreview>;

export const BlockGenerate = z.object({
  language: z.enum(['de', 'en']).default('de'),
  auto_matrix: z.boolean().default(true),
  /** Our addition: skip the language model (modules and links only). */
  skip_content: z.boolean().default(false),
});
export type BlockGenerate = z.infer<typeof BlockGenerate>;

export const BlockGenerateResult = z.object({
  modules_created: z.int(),
  modules_updated: z.int(),
  controls_linked: z.int(),
  matrix_entries_created: z.int(),
  content_generated: z.int(),
  errors: z.array(z.object({ module_code: z.string().nullable(), message: z.string() })),
});
export type BlockGenerateResult = z.infer<typeof BlockGenerateResult>;

export const BlockControl = ListedControl.extend({ module_code: z.string(), module_id: z.string() });
export type BlockControl = z.infer<typeof BlockControl>;
