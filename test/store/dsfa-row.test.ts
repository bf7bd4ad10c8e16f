import { describe, expect, it } from 'vitest';
import type { Dsfa } from '../../src/domain/dsfa/dsfa.schema.js';
import { dsfaFromRow, dsfaToRow } from '../../src/store/kysely/dsfa.store.js';

const record = {
  id: 'd1',
  tenant_id: 't',
  title: 'Bewerbermanagement',
  description: '',
  status: 'draft',
  risk_level: 'high',
  processing_activity: 'HR',
  data_categories: ['Lebenslauf'],
  recipients: [],
  measures: [],
  created_by: 'author',
  created_at: '2026-10-01T10:00:00.000',
  updated_at: '2026-11-01T10:00:00.000',
  ai_use_case_modules: [],
  purposes: ['Auswahl'],
} as unknown as Dsfa;

// dsfaToRow writes from the table's column list (rowColumns), not by spreading the record.
describe('a DSFA written as a row of table dsfa', () => {
  it('writes every column, a field the record leaves out as NULL, so an update clears it', () => {
    const row = dsfaToRow(record) as unknown as Record<string, unknown>;
    expect(row.approved_by).toBeNull();
    expect(row.approved_at).toBeNull();
    expect(row.review_date).toBeNull();
    expect(row.purposes).toBe('["Auswahl"]');
  });

  it('writes nothing that is not a column', () => {
    const row = dsfaToRow({ ...record, not_a_column: 1 } as unknown as Dsfa) as unknown as Record<string, unknown>;
    expect(row).not.toHaveProperty('not_a_column');
    expect(Object.keys(row)).toHaveLength(26);
  });

  it('reads back what it wrote', () => {
    expect(dsfaFromRow(dsfaToRow(record))).toEqual({ ...record, approved_by: null, approved_at: null });
  });
});
