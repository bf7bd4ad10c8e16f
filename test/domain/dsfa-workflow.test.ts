import { describe, expect, it } from 'vitest';
import type { Dsfa, DsfaAuditEntry } from '../../src/domain/dsfa/dsfa.schema.js';
import {
  approvedContent,
  checkApprover,
  checkTransition,
  contentHash,
  STRICT_TRANSITIONS,
} from '../../src/domain/dsfa/dsfa.workflow.js';
import { DSFA_STATUSES } from '../../src/domain/dsfa/dsfa.values.js';

const base: Dsfa = {
  id: 'd1',
  tenant_id: 't',
  title: 'Bewerbermanagement',
  description: 'Bewerbungen prüfen',
  status: 'approved',
  risk_level: 'high',
  processing_activity: 'HR',
  data_categories: ['Lebenslauf, Zeugnisse'],
  recipients: [],
  measures: ['Verschlüsselung'],
  approved_by: 'dpo',
  approved_at: '2026-11-01T10:00:00.000',
  created_by: 'author',
  created_at: '2026-10-01T10:00:00.000',
  updated_at: '2026-11-01T10:00:00.000',
  ai_use_case_modules: [
    { id: 'm1', use_case_type: 'custom', name: 'Ranking', created_at: '2026-10-01T10:00:00.000', updated_at: 'x' },
  ],
};

const approval = (hash: unknown): DsfaAuditEntry => ({
  id: 'a1',
  tenant_id: 't',
  dsfa_id: 'd1',
  action: 'STATUS_CHANGE',
  changed_by: 'dpo',
  old_values: { status: 'in-review' },
  new_values: { status: 'approved', approved_at: base.approved_at, content_hash: hash },
  created_at: base.approved_at!,
});

describe('the DSFA review rules', () => {
  it('hash the assessed content only, independent of key order', () => {
    const h = contentHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    // the review's own fields and timestamps are not content
    const reviewed = { ...base, status: 'draft', approved_by: null, approved_at: null, updated_at: 'later' } as Dsfa;
    expect(contentHash(reviewed)).toBe(h);
    const moduleTouched = { ...base, ai_use_case_modules: [{ ...base.ai_use_case_modules[0]!, updated_at: 'y' }] };
    expect(contentHash(moduleTouched)).toBe(h);
    const reordered = Object.fromEntries(Object.entries(base).reverse()) as Dsfa;
    expect(contentHash(reordered)).toBe(h);
    for (const change of [
      { title: 'anders' },
      { description: '' },
      { risk_level: 'low' },
      { processing_activity: 'IT' },
      { data_categories: ['Lebenslauf', 'Zeugnisse'] },
      { recipients: ['Agentur'] },
      { measures: [] },
      { ai_use_case_modules: [{ ...base.ai_use_case_modules[0]!, name: 'Scoring' }] },
    ])
      expect(contentHash({ ...base, ...change } as Dsfa), JSON.stringify(change)).not.toBe(h);
  });

  it('say whether the approved content is the content stored', () => {
    expect(approvedContent(base, [approval(contentHash(base))])).toBe('current');
    expect(approvedContent({ ...base, description: 'neu' }, [approval(contentHash(base))])).toBe('changed');
    expect(approvedContent(base, [approval(undefined)])).toBe('unknown');
    expect(approvedContent(base, [])).toBe('unknown');
    expect(approvedContent({ ...base, status: 'needs-update' }, [approval(contentHash(base))])).toBe('none');
  });

  it('allow in the strict workflow exactly its transitions, and every one in the open workflow', () => {
    const allowed = new Set(Object.entries(STRICT_TRANSITIONS).flatMap(([f, ts]) => ts.map((t) => `${f}>${t}`)));
    expect([...allowed].sort()).toEqual([
      'approved>needs-update',
      'draft>in-review',
      'in-review>approved',
      'in-review>draft',
      'needs-update>in-review',
    ]);
    for (const from of DSFA_STATUSES)
      for (const to of DSFA_STATUSES) {
        expect(() => checkTransition('open', from, to)).not.toThrow();
        if (allowed.has(`${from}>${to}`)) expect(() => checkTransition('strict', from, to)).not.toThrow();
        else expect(() => checkTransition('strict', from, to), `${from}>${to}`).toThrow(/strict review workflow/);
      }
  });

  it('need a named approver other than the author in the strict workflow only', () => {
    expect(() => checkApprover('open', 'author', undefined)).not.toThrow();
    expect(() => checkApprover('open', 'author', 'author')).not.toThrow();
    expect(() => checkApprover('strict', 'author', undefined)).toThrow(/needs approved_by/);
    expect(() => checkApprover('strict', 'author', '')).toThrow(/needs approved_by/);
    expect(() => checkApprover('strict', 'Author', ' author ')).toThrow(/four-eyes/);
    expect(() => checkApprover('strict', 'author', 'dpo')).not.toThrow();
  });
});
