import { describe, expect, it } from 'vitest';
import { settleAdditions } from '../../src/domain/dsfa/dsfa.additions.js';
import type { Dsfa } from '../../src/domain/dsfa/dsfa.schema.js';

const base: Dsfa = {
  id: 'd1',
  tenant_id: 't',
  title: 'Bewerbermanagement',
  description: '',
  status: 'draft',
  risk_level: 'medium',
  processing_activity: '',
  data_categories: [],
  recipients: [],
  measures: ['A', 'B'],
  approved_by: null,
  approved_at: null,
  created_by: 'author',
  created_at: '2026-10-01T10:00:00.000',
  updated_at: '2026-10-01T10:00:00.000',
  ai_use_case_modules: [],
};
const settle = (fields: Record<string, unknown>, detailsGiven = false) =>
  settleAdditions({ ...base, ...fields } as Dsfa, detailsGiven);

describe('the optional Art. 35(7) fields of a record about to be written', () => {
  it.each([
    ['an empty text', { controller: '' }, 'controller'],
    ['an empty list', { purposes: [] }, 'purposes'],
    ['undefined', { dpo_name: undefined }, 'dpo_name'],
    ['null', { review_date: null }, 'review_date'],
    ['an empty list of risks', { risks: [] }, 'risks'],
    ['an empty list of states', { measure_details: [] }, 'measure_details'],
  ])('%s leaves the field absent, not set to nothing', (_what, fields, key) => {
    expect(Object.keys(settle(fields))).not.toContain(key);
  });

  it.each([
    ['a text', { controller: 'Muster GmbH' }],
    ['a list', { data_subjects: ['Bewerber'] }],
    ['a date', { dpo_opinion_date: '2026-11-20' }],
  ])('keeps %s that says something', (_what, fields) => {
    expect(settle(fields)).toEqual({ ...base, ...fields });
  });

  it('drops the empty note of a risk or a measure, and keeps a note that says something', () => {
    const r = settle({
      risks: [
        { title: 'r1', likelihood: 'low', severity: 'high', description: '' },
        { title: 'r2', likelihood: 'low', severity: 'high', description: 'Notiz' },
      ],
      measure_details: [
        { measure: 'A', implemented: true, description: '' },
        { measure: 'B', implemented: false, description: 'bis Mai' },
      ],
    });
    expect(r.risks).toEqual([
      { title: 'r1', likelihood: 'low', severity: 'high' },
      { title: 'r2', likelihood: 'low', severity: 'high', description: 'Notiz' },
    ]);
    expect(r.measure_details).toEqual([
      { measure: 'A', implemented: true },
      { measure: 'B', implemented: false, description: 'bis Mai' },
    ]);
  });

  it.each([
    // details named in the request add the measures they name, after those listed
    [true, ['A', 'B', 'C'], ['B', 'C', 'A']],
    // without details in the request, states of measures no longer listed go
    [false, ['A', 'B'], ['B', 'A']],
  ])('details given %s: measures %j, states of %j', (given, measures, states) => {
    const r = settle(
      {
        measure_details: [
          { measure: 'B', implemented: true },
          { measure: 'C', implemented: false },
          { measure: 'A', implemented: false },
        ],
      },
      given,
    );
    expect(r.measures).toEqual(measures);
    expect(r.measure_details!.map((m) => m.measure)).toEqual(states);
  });

  it('leaves the record it is given unchanged', () => {
    const record = { ...base, controller: '', measure_details: [{ measure: 'C', implemented: true }] } as Dsfa;
    settleAdditions(record, true);
    expect(record).toEqual({ ...base, controller: '', measure_details: [{ measure: 'C', implemented: true }] });
  });
});
