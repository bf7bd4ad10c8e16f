import { describe, expect, it } from 'vitest';
import { local, refusal, refusals, rows, T0, T1, T2 } from '../support/sync-rows.js';

// The rules of a DSFA's records at the door of a sync or a bundle: the workflow and four eyes of dsfa.workflow.ts,
// an approval held by an approved assessment only, an audit trail that is written once and dated after its DSFA.
const strict = { dsfa_setting: [rows.dsfa_setting({ workflow: 'strict' })] };
const step = (id: string, status: string, at: string, extra: Record<string, unknown> = {}) =>
  rows.dsfa_audit({
    id,
    action: 'STATUS_CHANGE',
    new_values: JSON.stringify({ status, ...extra }),
    created_at: local(at),
  });
const approved = (o: Record<string, unknown> = {}) =>
  rows.dsfa({ status: 'approved', approved_by: 'bob', approved_at: local(T2), updated_at: local(T2), ...o });

describe('a DSFA at the door', () => {
  it('holds an approval exactly while approved, and its times in order', async () => {
    const cases: Array<[Record<string, unknown>, string | undefined]> = [
      [{ status: 'approved', approved_at: null }, 'dsfa d1: it is approved without approved_at'],
      [{ status: 'draft', approved_at: local(T1) }, 'dsfa d1: it is draft but carries an approval'],
      [{ status: 'needs-update', approved_by: 'bob' }, 'dsfa d1: it is needs-update but carries an approval'],
      [{ status: 'approved', approved_at: '2019-01-01T00:00:00.000' }, 'dsfa d1: approved_at lies before created_at'],
      [{ status: 'approved', approved_at: local(T0) }, undefined],
      [{ updated_at: '2019-01-01T00:00:00.000' }, 'dsfa d1: updated_at lies before created_at'],
      [{ updated_at: local(T0) }, undefined],
    ];
    for (const [o, want] of cases)
      expect(await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa(o) }), JSON.stringify(o)).toBe(want);
  });

  it('under the open workflow takes any status change', async () => {
    const d = rows.dsfa();
    expect(await refusal({}, { entity: 'dsfa', before: d, after: approved() })).toBeUndefined();
    expect(
      await refusal({}, { entity: 'dsfa', before: approved(), after: rows.dsfa({ updated_at: local(T2) }) }),
    ).toBeUndefined();
  });

  it('under the strict workflow takes a step it allows, and refuses a step it does not', async () => {
    const d = rows.dsfa();
    const review = rows.dsfa({ status: 'in-review', updated_at: local(T1) });
    expect(await refusal(strict, { entity: 'dsfa', before: d, after: review })).toBeUndefined();
    expect(await refusal(strict, { entity: 'dsfa', before: d, after: approved() })).toBe(
      'dsfa d1: the strict review workflow does not allow draft → approved; from draft it allows in-review',
    );
    // and a new assessment starts as a draft
    expect(await refusal(strict, { entity: 'dsfa', before: null, after: review })).toBeUndefined();
    expect(await refusal(strict, { entity: 'dsfa', before: null, after: approved() })).toBe(
      'dsfa d1: the strict review workflow does not allow draft → approved; from draft it allows in-review',
    );
  });

  it('under the strict workflow takes several steps at once where the audit trail records each', async () => {
    const d = rows.dsfa();
    // offline: submitted, then approved by bob; the push carries the record and both audit entries
    const changes = [
      { entity: 'dsfa', before: d, after: approved() },
      { entity: 'dsfa_audit', before: null, after: step('a1', 'in-review', T1) },
      { entity: 'dsfa_audit', before: null, after: step('a2', 'approved', T2, { approved_by: 'bob' }) },
    ];
    expect(await refusals(strict, changes)).toStrictEqual({});
    // an entry from before the version held here says nothing of this change
    const old = { ...strict, dsfa_audit: [step('a0', 'in-review', '2026-05-01T09:00:00.000Z')] };
    expect(await refusal(old, { entity: 'dsfa', before: d, after: approved() })).toMatch(
      /does not allow draft → approved/,
    );
    // the trail's steps must be steps the workflow allows
    const jump = [changes[0]!, { entity: 'dsfa_audit', before: null, after: step('a3', 'needs-update', T1) }];
    expect((await refusals(strict, jump))['dsfa d1']).toBe(
      'dsfa d1: the strict review workflow does not allow draft → needs-update; from draft it allows in-review',
    );
    // entries of the same time are read in the order of their ids
    const same = [
      changes[0]!,
      { entity: 'dsfa_audit', before: null, after: step('b2', 'approved', T1) },
      { entity: 'dsfa_audit', before: null, after: step('b1', 'in-review', T1) },
    ];
    expect(await refusals(strict, same)).toStrictEqual({});
    // an UPDATE that changed no status is no step
    const update = rows.dsfa_audit({ id: 'u1', new_values: '{"title":"x"}', created_at: local(T1) });
    expect(
      (await refusals(strict, [changes[0]!, { entity: 'dsfa_audit', before: null, after: update }]))['dsfa d1'],
    ).toMatch(/does not allow draft → approved/);
  });

  it('under the strict workflow keeps four eyes and refuses approving again', async () => {
    const review = rows.dsfa({ status: 'in-review', updated_at: local(T1) });
    expect(await refusal(strict, { entity: 'dsfa', before: review, after: approved({ approved_by: 'Lea ' }) })).toBe(
      'dsfa d1: Lea  wrote this assessment and cannot approve it as well (four-eyes principle)',
    );
    expect(await refusal(strict, { entity: 'dsfa', before: review, after: approved({ approved_by: null }) })).toBe(
      'dsfa d1: the strict review workflow needs approved_by: the name of the person approving',
    );
    expect(await refusal(strict, { entity: 'dsfa', before: review, after: approved() })).toBeUndefined();
    const again = approved({
      approved_at: local('2026-05-25T10:00:00.000Z'),
      updated_at: local('2026-05-25T10:00:00.000Z'),
    });
    expect(await refusal(strict, { entity: 'dsfa', before: approved(), after: again })).toBe(
      'dsfa d1: the strict review workflow does not allow approved → approved; from approved it allows needs-update',
    );
    // a change of content only is no step
    expect(
      await refusal(strict, { entity: 'dsfa', before: approved(), after: approved({ description: 'x' }) }),
    ).toBeUndefined();
    // under the open workflow an approval may be renewed, and an author may approve
    expect(await refusal({}, { entity: 'dsfa', before: approved(), after: again })).toBeUndefined();
    expect(
      await refusal({}, { entity: 'dsfa', before: review, after: approved({ approved_by: 'lea' }) }),
    ).toBeUndefined();
  });

  it('deletes an assessment (its audit entries stay)', async () => {
    const d = rows.dsfa();
    expect(
      await refusal({ dsfa_audit: [rows.dsfa_audit()] }, { entity: 'dsfa', before: d, after: null }),
    ).toBeUndefined();
  });
});

describe("a DSFA's additions at the door, as the API takes them", () => {
  const risk = (title: string) => ({ title, likelihood: 'low', severity: 'high' });
  const measure = (m: string) => ({ measure: m, implemented: false });
  const pushed = (o: Record<string, unknown>) => refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa(o) });

  it('takes up to 200 risks and 500 measure details, each once', async () => {
    const risks = JSON.stringify(Array.from({ length: 200 }, (_, i) => risk(`Risiko ${i}`)));
    const details = JSON.stringify(Array.from({ length: 500 }, (_, i) => measure(`Maßnahme ${i}`)));
    expect(await pushed({ risks, measure_details: details })).toBeUndefined();
    expect(await pushed({ risks: JSON.stringify([risk('a'), risk('a')]) })).toBeUndefined();
  });

  it('refuses more, a risk of the wrong shape, and a measure listed twice (as PUT /dsfa does)', async () => {
    const risks = JSON.stringify(Array.from({ length: 201 }, (_, i) => risk(`Risiko ${i}`)));
    expect(await pushed({ risks })).toMatch(/^dsfa d1 does not fit its table: risks: /);
    const details = JSON.stringify(Array.from({ length: 501 }, (_, i) => measure(`Maßnahme ${i}`)));
    expect(await pushed({ measure_details: details })).toMatch(/^dsfa d1 does not fit its table: measure_details: /);
    expect(await pushed({ risks: JSON.stringify([{ ...risk('a'), likelihood: 'certain' }]) })).toMatch(
      /^dsfa d1 does not fit its table: risks\.0\.likelihood: /,
    );
    expect(await pushed({ measure_details: JSON.stringify([measure('Schulung'), measure('Schulung')]) })).toBe(
      'dsfa d1 does not fit its table: measure_details.1.measure: "Schulung" is listed twice',
    );
  });
});

describe("a DSFA's audit entry at the door", () => {
  const held = { dsfa: [rows.dsfa()] };
  it('is dated after its assessment was created; a CREATE entry when it was', async () => {
    expect(
      await refusal(held, {
        entity: 'dsfa_audit',
        before: null,
        after: rows.dsfa_audit({ changed_by: 'forged-dpo', created_at: '2019-03-01T00:00:00.000' }),
      }),
    ).toBe('dsfa_audit a1 is dated 2019-03-01T00:00:00.000, before DSFA d1 was created (2026-05-01T10:00:00.000)');
    expect(await refusal(held, { entity: 'dsfa_audit', before: null, after: rows.dsfa_audit() })).toBeUndefined();
    expect(
      await refusal(held, { entity: 'dsfa_audit', before: null, after: rows.dsfa_audit({ action: 'CREATE' }) }),
    ).toBe('dsfa_audit a1: a CREATE entry is dated when its DSFA was created (2026-05-01T10:00:00.000)');
    expect(
      await refusal(held, {
        entity: 'dsfa_audit',
        before: null,
        after: rows.dsfa_audit({ action: 'CREATE', created_at: local(T0) }),
      }),
    ).toBeUndefined();
  });

  it('may name an assessment no store holds (deleted since, or made and deleted offline)', async () => {
    expect(
      await refusal(
        {},
        { entity: 'dsfa_audit', before: null, after: rows.dsfa_audit({ dsfa_id: 'gone', action: 'DELETE' }) },
      ),
    ).toBeUndefined();
  });

  it('refuses an action the trail does not know and values that are not an object', async () => {
    expect(
      await refusal(held, { entity: 'dsfa_audit', before: null, after: rows.dsfa_audit({ action: 'FORGE' }) }),
    ).toMatch(/^dsfa_audit a1 does not fit its table: action: /);
    expect(
      await refusal(held, { entity: 'dsfa_audit', before: null, after: rows.dsfa_audit({ new_values: '[1]' }) }),
    ).toMatch(/new_values: /);
  });

  it("a tenant's workflow setting is one of open, strict", async () => {
    expect(
      await refusal({}, { entity: 'dsfa_setting', before: null, after: rows.dsfa_setting({ workflow: 'lax' }) }),
    ).toMatch(/workflow: "lax" is not allowed; allowed values: open, strict/);
    expect(
      await refusal(
        {},
        {
          entity: 'dsfa_setting',
          before: rows.dsfa_setting(),
          after: rows.dsfa_setting({ workflow: 'strict', updated_at: local(T1) }),
        },
      ),
    ).toBeUndefined();
  });
});
