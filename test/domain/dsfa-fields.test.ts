import { describe, expect, it } from 'vitest';
import type { Dsfa } from '../../src/domain/dsfa/dsfa.schema.js';
import { AI_MODULE_FIELDS, contentHash, DSFA_FIELDS } from '../../src/domain/dsfa/dsfa.workflow.js';
import { Dsfa as DsfaSchema, AiUseCaseModule } from '../../src/domain/dsfa/dsfa.schema.js';

// Every field of the record has a role (the type demands it, `satisfies Record<keyof Dsfa, FieldRole>`); these tests
// hold the hash to the roles, field by field, and the roles to the schema at run time.
const base: Dsfa = {
  id: 'd1',
  tenant_id: 't',
  title: 'Bewerbermanagement',
  description: 'Bewerbungen prüfen',
  status: 'approved',
  risk_level: 'high',
  processing_activity: 'HR',
  data_categories: ['Lebenslauf'],
  recipients: [],
  measures: ['Verschlüsselung'],
  approved_by: 'dpo',
  approved_at: '2026-11-01T10:00:00.000',
  created_by: 'author',
  created_at: '2026-10-01T10:00:00.000',
  updated_at: '2026-11-01T10:00:00.000',
  ai_use_case_modules: [{ id: 'm1', use_case_type: 'custom', created_at: '2026-10-01T10:00:00.000', updated_at: 'x' }],
};

/** A value of the field's shape that differs from `base`'s. */
const changed = (field: string): unknown => {
  if (field === 'status') return 'draft';
  if (field === 'risk_level') return 'low';
  if (field === 'ai_use_case_modules') return [];
  if (['data_categories', 'recipients', 'measures', 'purposes', 'data_subjects'].includes(field)) return ['anders'];
  if (field === 'risks') return [{ title: 'r', likelihood: 'low', severity: 'low' }];
  if (field === 'measure_details') return [{ measure: 'm', implemented: true }];
  return 'anders';
};

describe('the fields of a DSFA, each classified as content, review or bookkeeping', () => {
  it('name every field of the record and of its AI modules, nothing more', () => {
    expect(Object.keys(DSFA_FIELDS).sort()).toEqual(Object.keys(DsfaSchema.shape).sort());
    expect(Object.keys(AI_MODULE_FIELDS).sort()).toEqual(Object.keys(AiUseCaseModule.shape).sort());
  });

  it.each(Object.entries(DSFA_FIELDS))('%s (%s) changes the approved-content hash only if it is content', (f, role) => {
    const other = contentHash({ ...base, [f]: changed(f) } as Dsfa);
    if (role === 'content') expect(other).not.toBe(contentHash(base));
    else expect(other).toBe(contentHash(base));
  });

  it.each(Object.entries(AI_MODULE_FIELDS))('a module’s %s (%s) likewise', (f, role) => {
    const module = { ...base.ai_use_case_modules[0]!, [f]: f === 'use_case_type' ? 'chatbot_nlp' : 'anders' };
    const other = contentHash({ ...base, ai_use_case_modules: [module] } as Dsfa);
    if (role === 'content') expect(other).not.toBe(contentHash(base));
    else expect(other).toBe(contentHash(base));
  });
});
