import { describe, expect, it } from 'vitest';
import type { Dsfa, DsfaAuditEntry } from '../../src/domain/dsfa/dsfa.schema.js';
import {
  approvedContent,
  authorsOf,
  checkApprover,
  isKeyPrincipal,
  checkTransition,
  contentHash,
  STRICT_TRANSITIONS,
} from '../../src/domain/dsfa/dsfa.workflow.js';
import { DSFA_STATUSES } from '../../src/domain/dsfa/dsfa.values.js';
import type { DomainError } from '../../src/domain/errors.js';

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

  it('hash a record the same across versions of this program, as stored approvals compare against it', () => {
    // written down once: a change in how the content is serialised would turn every earlier approval into "changed"
    expect(contentHash(base)).toBe('1ff2ab1b9a1090152520cdb607e66f3293b7d127004398ef3d25da2d944805c4');
    // who wrote the record, when, and under which id and tenant is not what was approved
    const elsewhere = {
      ...base,
      id: 'd2',
      tenant_id: 'u',
      created_by: 'someone',
      created_at: '2020-01-01T00:00:00.000',
    };
    expect(contentHash(elsewhere)).toBe(contentHash(base));
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
    const e = (() => {
      try {
        checkTransition('strict', 'in-review', 'needs-update');
      } catch (err) {
        return err as DomainError;
      }
    })();
    expect(e).toMatchObject({
      code: 'conflict',
      message:
        'the strict review workflow does not allow in-review → needs-update; from in-review it allows approved, draft',
      details: [{ path: 'status', message: 'allowed from in-review: approved, draft' }],
    });
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
    // case is ignored, nothing else: "Strauss" is not "Strauß" (upper-casing would make them one)
    expect(() => checkApprover('strict', 'Jens Strauß', 'jens strauss')).not.toThrow();
    const details = (approvedBy: string | undefined) => {
      try {
        checkApprover('strict', 'author', approvedBy);
      } catch (err) {
        return (err as DomainError).details;
      }
    };
    expect(details(undefined)).toEqual([{ path: 'approved_by', message: 'required in the strict review workflow' }]);
    expect(details('AUTHOR')).toEqual([
      { path: 'approved_by', message: 'must differ from created_by in the strict review workflow' },
    ]);
  });

  it.each([
    // approver, wrote, submitted: refused with, or allowed (undefined)
    ['key:aaa', 'key:aaa', 'key:bbb', 'wrote'],
    ['key:bbb', 'key:aaa', 'key:bbb', 'submitted'],
    ['key:aaa', 'key:aaa', 'key:aaa', 'wrote'],
    ['key:ccc', 'key:aaa', 'key:bbb', undefined],
    ['key:ccc', undefined, undefined, undefined],
    // without a key the names decide: one operating-system account records a DPO's approval on a laptop
    ['os:anna', 'os:anna', 'os:anna', undefined],
    ['anonymous', 'anonymous', 'anonymous', undefined],
    [undefined, 'key:aaa', 'key:aaa', undefined],
    ['KEY:aaa', 'KEY:aaa', 'KEY:aaa', undefined],
  ])(
    'four eyes compare keys: %s approving what %s wrote and %s submitted → %s',
    (approver, created, submitted, role) => {
      const check = () => checkApprover('strict', 'alice', 'bob', { approver, created, submitted });
      if (role === undefined) {
        expect(check).not.toThrow();
        return;
      }
      let e: DomainError | undefined;
      try {
        check();
      } catch (err) {
        e = err as DomainError;
      }
      expect(e).toMatchObject({
        code: 'conflict',
        message: `${approver} ${role} this assessment and cannot approve it as well (four-eyes principle: the API keys are compared, whatever names the request sends); approve with another key`,
        details: [
          { path: 'approved_by', message: `the approving key must differ from the key that ${role} the assessment` },
        ],
      });
      // the open workflow compares nothing, and the names rule still comes first
      expect(() => checkApprover('open', 'alice', 'bob', { approver, created, submitted })).not.toThrow();
      expect(() => checkApprover('strict', 'alice', 'Alice', { approver, created, submitted })).toThrow(
        /alice wrote|Alice wrote/,
      );
    },
  );

  it('find who wrote an assessment and who last submitted it in its changes', () => {
    const c = (principal: string, status: string | null) => ({ principal, status });
    expect(authorsOf([])).toEqual({ created: undefined, submitted: undefined });
    expect(authorsOf([c('key:a', 'draft')])).toEqual({ created: 'key:a', submitted: undefined });
    expect(
      authorsOf([c('key:a', 'draft'), c('key:b', 'in-review'), c('key:c', 'in-review'), c('key:d', 'draft')]),
    ).toEqual({ created: 'key:a', submitted: 'key:b' });
    expect(
      authorsOf([
        c('key:a', 'draft'),
        c('key:b', 'in-review'),
        c('key:c', 'draft'),
        c('key:d', 'in-review'),
        c('key:e', 'in-review'),
      ]),
    ).toEqual({ created: 'key:a', submitted: 'key:d' });
    // created straight into review (the open workflow, before the tenant chose strict)
    expect(authorsOf([c('key:a', 'in-review'), c('key:b', 'in-review')])).toEqual({
      created: 'key:a',
      submitted: 'key:a',
    });
    expect(isKeyPrincipal('key:x')).toBe(true);
    expect(isKeyPrincipal('os:key:x')).toBe(false);
    expect(isKeyPrincipal(undefined)).toBe(false);
  });
});
