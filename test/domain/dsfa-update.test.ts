import { describe, expect, it } from 'vitest';
import type { AiUseCaseModule, Dsfa, DsfaUpdate } from '../../src/domain/dsfa/dsfa.schema.js';
import { applyUpdate, normalizeModules, statsFromCounts } from '../../src/domain/dsfa/dsfa.service.js';
import { contentHash, type DsfaWorkflow } from '../../src/domain/dsfa/dsfa.workflow.js';
import { refusal } from '../support/refusal.js';

const NOW = '2026-12-01T09:00:00.000';
const ids = () => {
  let n = 0;
  return { next: () => `new-${++n}` };
};

const draft: Dsfa = {
  id: 'd1',
  tenant_id: 't',
  title: 'Bewerbermanagement',
  description: 'Bewerbungen prüfen',
  status: 'draft',
  risk_level: 'high',
  processing_activity: 'HR',
  data_categories: ['Lebenslauf'],
  recipients: [],
  measures: ['Verschlüsselung'],
  approved_by: null,
  approved_at: null,
  created_by: 'author',
  created_at: '2026-10-01T10:00:00.000',
  updated_at: '2026-10-01T10:00:00.000',
  ai_use_case_modules: [],
};
const approved: Dsfa = { ...draft, status: 'approved', approved_by: 'dpo', approved_at: '2026-11-01T10:00:00.000' };

const update = (current: Dsfa, patch: DsfaUpdate, workflow: DsfaWorkflow = 'open') =>
  applyUpdate(current, patch, NOW, ids(), { actor: 'alice', workflow });

describe('a PUT to a DSFA', () => {
  it('changes the fields given, leaves absent and null ones alone, and lists exactly the changed fields', () => {
    const r = update(draft, { title: 'Neu', description: null, risk_level: undefined, measures: ['Verschlüsselung'] });
    expect(r.next).toEqual({ ...draft, title: 'Neu', updated_at: NOW });
    expect(r.old_values).toEqual({ title: 'Bewerbermanagement' });
    expect(r.new_values).toEqual({ title: 'Neu' });
    const quiet = update(approved, {});
    expect(quiet.next).toEqual({ ...approved, updated_at: NOW });
    expect([quiet.old_values, quiet.new_values]).toEqual([{}, {}]);
  });

  it('approves a draft with a content change in one go, recording approver, time and the hash of what it approved', () => {
    const r = update(draft, { status: 'approved', title: 'Neu' });
    expect(r.next).toMatchObject({ status: 'approved', title: 'Neu', approved_by: 'alice', approved_at: NOW });
    expect(r.old_values).toEqual({
      title: 'Bewerbermanagement',
      status: 'draft',
      approved_by: null,
      approved_at: null,
    });
    expect(r.new_values).toEqual({
      title: 'Neu',
      status: 'approved',
      approved_by: 'alice',
      approved_at: NOW,
      content_hash: contentHash(r.next),
    });
  });

  it('moves an approved DSFA to the status the body names when it leaves approved, content change or not', () => {
    const r = update(approved, { status: 'draft', title: 'Neu' });
    expect(r.next).toMatchObject({ status: 'draft', title: 'Neu', approved_by: null, approved_at: null });
    expect(r.new_values).not.toHaveProperty('content_hash');
  });

  it('moves an approved DSFA whose content changes to needs-update, without recording an approval', () => {
    const r = update(approved, { description: 'anders', status: 'approved' });
    expect(r.next).toMatchObject({ status: 'needs-update', approved_by: null, approved_at: null });
    expect(r.new_values).toEqual({
      description: 'anders',
      status: 'needs-update',
      approved_by: null,
      approved_at: null,
    });
  });

  it('keeps approved_at when only the approver is corrected in the open workflow', () => {
    const r = update(approved, { approved_by: 'Dr. Datenschutz' });
    expect(r.next).toMatchObject({
      status: 'approved',
      approved_by: 'Dr. Datenschutz',
      approved_at: approved.approved_at,
    });
    expect(r.new_values).toEqual({ approved_by: 'Dr. Datenschutz' });
    expect(update(approved, { approved_by: null }).next.approved_by).toBe('dpo');
  });

  it('in the strict workflow records an approver by an approval only, and lets content change without a transition', () => {
    const e = refusal(() => update(approved, { approved_by: 'Dr. Datenschutz' }, 'strict'));
    expect(e).toMatchObject({
      code: 'conflict',
      message: 'in the strict review workflow the approver is recorded by an approval only',
      details: [{ path: 'approved_by', message: 'set by approving (in-review → approved)' }],
    });
    expect(update(approved, { approved_by: 'dpo' }, 'strict').next.approved_by).toBe('dpo');
    // staying in draft is no transition, so the strict workflow has nothing to refuse
    expect(update(draft, { title: 'Neu', status: 'draft' }, 'strict').next).toMatchObject({ status: 'draft' });
    expect(update({ ...draft, status: 'in-review' }, { title: 'Neu' }, 'strict').next.status).toBe('in-review');
  });
});

describe('AI modules of a DSFA', () => {
  const stored: AiUseCaseModule = {
    id: 'm1',
    use_case_type: 'custom',
    name: 'Ranking',
    provider: 'Acme',
    created_at: '2026-10-01T10:00:00.000',
    updated_at: '2026-10-02T10:00:00.000',
  };

  it('keep created_at and updated_at of a module sent back unchanged, whatever the order of its keys', () => {
    const [m] = normalizeModules(
      [{ provider: 'Acme', name: 'Ranking', use_case_type: 'custom', id: 'm1' }],
      [stored],
      NOW,
      ids(),
    );
    expect(m).toEqual(stored);
  });

  it('move updated_at of a changed module only, and give a new module an id and both timestamps', () => {
    const [changed, added] = normalizeModules(
      [{ id: 'm1', use_case_type: 'custom', name: 'Scoring', provider: 'Acme' }, { use_case_type: 'chatbot_nlp' }],
      [stored],
      NOW,
      ids(),
    );
    expect(changed).toEqual({ ...stored, name: 'Scoring', updated_at: NOW });
    expect(added).toEqual({ id: 'new-1', use_case_type: 'chatbot_nlp', created_at: NOW, updated_at: NOW });
  });
});

describe('DSFA statistics', () => {
  it('count every status and risk level, in the order of the lists, leaving zero counts out of the maps', () => {
    const s = statsFromCounts([
      { status: 'needs-update', risk_level: 'low', n: 1 },
      { status: 'in-review', risk_level: 'critical', n: 2 },
      { status: 'approved', risk_level: 'low', n: 3 },
      { status: 'draft', risk_level: 'medium', n: 4 },
      { status: 'approved', risk_level: 'high', n: 0 },
    ]);
    expect(s).toEqual({
      total: 10,
      by_status: { draft: 4, 'in-review': 2, approved: 3, 'needs-update': 1 },
      by_risk_level: { low: 4, medium: 4, critical: 2 },
      draft_count: 4,
      in_review_count: 2,
      approved_count: 3,
      needs_update_count: 1,
    });
    expect(Object.keys(s.by_status)).toEqual(['draft', 'in-review', 'approved', 'needs-update']);
    expect(Object.keys(s.by_risk_level)).toEqual(['low', 'medium', 'critical']);
  });
});

describe('the measure details of a PUT', () => {
  const detailed: Dsfa = {
    ...draft,
    measures: ['Verschlüsselung', 'Schulung'],
    measure_details: [
      { measure: 'Verschlüsselung', implemented: true },
      { measure: 'Schulung', implemented: false },
    ],
  };

  it('add a measure they name to measures', () => {
    const r = update(detailed, { measure_details: [{ measure: 'Pseudonymisierung', implemented: false }] });
    expect(r.next.measures).toEqual(['Verschlüsselung', 'Schulung', 'Pseudonymisierung']);
    expect(r.next.measure_details).toEqual([{ measure: 'Pseudonymisierung', implemented: false }]);
    expect(r.new_values.measures).toEqual(['Verschlüsselung', 'Schulung', 'Pseudonymisierung']);
  });

  it('of a measure no longer listed go when a PUT sends measures alone', () => {
    const r = update(detailed, { measures: ['Schulung'] });
    expect(r.next.measures).toEqual(['Schulung']);
    expect(r.next.measure_details).toEqual([{ measure: 'Schulung', implemented: false }]);
  });
});
