import * as z from 'zod';
import { before, jsonText, storedRow, storedTime, type RowRule } from '../sync/row-rule.js';
import { BlockCreate } from './block.schema.js';
import { CanonicalControl } from './canonical.schema.js';

const c = CanonicalControl.shape;
const ControlRow = storedRow({
  tenant_id: z.string(),
  id: c.id,
  title: c.title,
  objective: c.objective,
  domain: c.domain,
  category: c.category,
  severity: c.severity,
  target_audience: c.target_audience,
  references: jsonText(c.references),
  updated_at: storedTime,
});

const b = BlockCreate.shape;
const BlockRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  name: b.name,
  description: b.description,
  domain_filter: b.domain_filter,
  category_filter: b.category_filter,
  severity_filter: b.severity_filter,
  target_audience_filter: b.target_audience_filter,
  regulation_area: b.regulation_area,
  module_code_prefix: b.module_code_prefix,
  frequency_type: b.frequency_type,
  duration_minutes: b.duration_minutes,
  pass_threshold: b.pass_threshold,
  max_controls_per_module: b.max_controls_per_module,
  created_at: storedTime,
  updated_at: storedTime,
  last_generated_at: storedTime.nullable(),
});

const LinkRow = storedRow({
  block_id: z.string(),
  control_id: c.id,
  module_id: z.string(),
  position: z.int().min(0),
});

export const BLOCK_ROW_RULES: Record<string, RowRule> = {
  training_canonical_control: { schema: ControlRow, times: ['updated_at'] },
  training_block: {
    schema: BlockRow,
    fixed: ['created_at'],
    times: ['created_at', 'updated_at', 'last_generated_at'],
    deletion: () => null,
    check: ({ id, after: r }) =>
      before(r.updated_at, r.created_at) ? `training block ${id}: updated_at lies before created_at` : null,
  },
  training_block_control: {
    schema: LinkRow,
    refs: [
      { column: 'block_id', entity: 'training_block' },
      { column: 'module_id', entity: 'training_module' },
    ],
    deletion: () => null,
  },
};
