import { describe, expect, it } from 'vitest';
import { NOW, refusal, refusals, rows, T0, T1, T2 } from '../support/sync-rows.js';

// The rules of consents at the door: the facts of a consent never change, a revocation stays (only a reverted import
// run undoes its own), the history is written once and dated when the consent was given or after.
describe('a consent at the door', () => {
  const c = rows.consent();
  it('keeps its facts: who, what, when, whether it was a refusal', async () => {
    for (const [column, value] of [
      ['user_id', 'u2'],
      ['granted', 0],
      ['granted_at', T1],
      ['ip_address', '10.0.0.1'],
      ['import_run_id', 'r1'],
    ] as const)
      expect(
        await refusal(
          { consent_import_run: [rows.consent_import_run()] },
          { entity: 'consent', before: c, after: { ...c, [column]: value } },
        ),
      ).toBe(`consent c1 cannot change ${column}: it is fixed once the record is written`);
    expect(
      await refusal({}, { entity: 'consent', before: c, after: { ...c, consent_version: '2.0' } }),
    ).toBeUndefined();
  });

  it('refuses revoking a refusal, a time in the future, and a revocation before the grant', async () => {
    expect(
      await refusal({}, { entity: 'consent', before: null, after: rows.consent({ granted: 0, revoked_at: T1 }) }),
    ).toBe('consent c1 records a refusal (granted=false) and cannot be revoked');
    expect(
      await refusal(
        {},
        { entity: 'consent', before: null, after: rows.consent({ granted_at: '2027-01-01T00:00:00Z' }) },
      ),
    ).toMatch(/^consent c1: granted_at must not lie in the future/);
    expect(
      await refusal(
        {},
        { entity: 'consent', before: null, after: rows.consent({ revoked_at: '2026-04-01T00:00:00Z' }) },
      ),
    ).toBe('consent c1: revoked_at must not be before granted_at');
    expect(await refusal({}, { entity: 'consent', before: c, after: { ...c, revoked_at: T1 } })).toBeUndefined();
  });

  it('stays revoked, at the time it was revoked', async () => {
    const revoked = rows.consent({ revoked_at: T1 });
    const entry = rows.consent_history({ id: 'h2', action: 'revoked', created_at: T1 });
    const held = { consent: [revoked], consent_history: [rows.consent_history(), entry] };
    expect(await refusal(held, { entity: 'consent', before: revoked, after: c })).toBe(
      `consent c1 is revoked (at ${T1}) and stays revoked`,
    );
    // lifted with its history entry gone: still refused, no import run undid it
    expect(
      (
        await refusals(held, [
          { entity: 'consent', before: revoked, after: c },
          { entity: 'consent_history', before: entry, after: null },
        ])
      )['consent c1'],
    ).toBe(`consent c1 is revoked (at ${T1}) and stays revoked`);
    expect(await refusal(held, { entity: 'consent', before: revoked, after: { ...revoked, revoked_at: T2 } })).toBe(
      `consent c1 was revoked at ${T1}: a revocation keeps its time`,
    );
    // the same instant written otherwise is the same time
    expect(
      await refusal(held, {
        entity: 'consent',
        before: revoked,
        after: { ...revoked, revoked_at: '2026-05-10T12:00:00+02:00' },
      }),
    ).toBeUndefined();
  });

  it('is revoked again as it was when its import run is reverted, which removes the run’s entry with it', async () => {
    const run = rows.consent_import_run();
    const revoked = rows.consent({ revoked_at: T1 });
    const entry = rows.consent_history({
      id: 'h2',
      action: 'revoked',
      source: 'import',
      import_run_id: 'r1',
      created_at: T1,
    });
    const held = { consent: [revoked], consent_history: [rows.consent_history(), entry], consent_import_run: [run] };
    const revert = { ...run, status: 'reverted', reverted_at: T2, reverted_by: 'sam' };
    const undo = [
      { entity: 'consent', before: revoked, after: c },
      { entity: 'consent_history', before: entry, after: null },
      { entity: 'consent_import_run', before: run, after: revert },
    ];
    expect(await refusals(held, undo)).toStrictEqual({});
    // the run not reverted: nothing goes
    const reasons = await refusals(held, undo.slice(0, 2));
    expect(reasons['consent c1']).toBe(`consent c1 is revoked (at ${T1}) and stays revoked`);
    expect(reasons['consent_history h2']).toBe(
      "consent_history h2 cannot be deleted: a consent's history is append-only",
    );
    // the entry kept: the revocation stays
    expect((await refusals(held, [undo[0]!, undo[2]!]))['consent c1']).toBe(
      `consent c1 is revoked (at ${T1}) and stays revoked`,
    );
    // a revocation by a request is no run's to undo
    const byRequest = { ...entry, source: null, import_run_id: null };
    const mine = { ...held, consent_history: [byRequest] };
    expect(
      (await refusals(mine, [undo[0]!, { entity: 'consent_history', before: byRequest, after: null }, undo[2]!]))[
        'consent c1'
      ],
    ).toBe(`consent c1 is revoked (at ${T1}) and stays revoked`);
  });

  it('a reverted run takes back only the revocation it made itself (source import), not another entry naming it', async () => {
    const revert = rows.consent_import_run({ status: 'reverted', reverted_at: T2, reverted_by: 'sam' });
    const revoked = rows.consent({ revoked_at: T1 });
    const forged = rows.consent_history({
      id: 'h2',
      action: 'revoked',
      source: 'api',
      import_run_id: 'r1',
      created_at: T1,
    });
    const held = {
      consent: [revoked],
      consent_history: [rows.consent_history(), forged],
      consent_import_run: [revert],
    };
    expect(await refusal(held, { entity: 'consent_history', before: forged, after: null })).toBe(
      "consent_history h2 cannot be deleted: a consent's history is append-only",
    );
    const own = { ...forged, source: 'import' };
    expect(
      await refusal({ ...held, consent_history: [own] }, { entity: 'consent_history', before: own, after: null }),
    ).toBeUndefined();
  });

  it('goes, with all its history, only when the import run that created it is reverted', async () => {
    const run = rows.consent_import_run();
    const made = rows.consent({ import_run_id: 'r1' });
    const entry = rows.consent_history({ import_run_id: 'r1' });
    const held = { consent: [made], consent_history: [entry], consent_import_run: [run] };
    const revert = { ...run, status: 'reverted', reverted_at: T2, reverted_by: 'sam' };
    const gone = [
      { entity: 'consent', before: made, after: null },
      { entity: 'consent_history', before: entry, after: null },
    ];
    expect(await refusals(held, [...gone, { entity: 'consent_import_run', before: run, after: revert }])).toStrictEqual(
      {},
    );
    expect(await refusals(held, gone)).toEqual({
      'consent c1':
        'consent c1 cannot be deleted: consents are removed only by reverting the import run that created them',
      'consent_history h1': "consent_history h1 cannot be deleted: a consent's history is append-only",
    });
    // a consent a request made is not a run's
    const own = rows.consent();
    expect(
      await refusal({ consent: [own], consent_import_run: [revert] }, { entity: 'consent', before: own, after: null }),
    ).toBe('consent c1 cannot be deleted: consents are removed only by reverting the import run that created them');
    // the history of a consent that stays goes only as the run's revocation
    const granted = rows.consent_history({ import_run_id: 'r1' });
    expect(
      await refusal(
        { consent: [made], consent_history: [granted], consent_import_run: [revert] },
        { entity: 'consent_history', before: granted, after: null },
      ),
    ).toBe("consent_history h1 cannot be deleted: a consent's history is append-only");
  });
});

describe('a revoked consent is not renewed, whichever record arrives first', () => {
  const renewed = (id: string, at: string, action = 'renewed') =>
    rows.consent_history({ id, action, consent_version: '2.0', created_at: at });
  const c = rows.consent();
  const LATER = '2026-05-25T10:00:00.000Z';

  it('refuses revoking a consent at or before a renewal its history holds; after it, the revocation stands', async () => {
    for (const action of ['renewed', 'version_update']) {
      const held = { consent: [c], consent_history: [rows.consent_history(), renewed('h3', T2, action)] };
      expect(await refusal(held, { entity: 'consent', before: c, after: { ...c, revoked_at: T1 } }), action).toBe(
        `consent c1 cannot be revoked at ${T1}: it was renewed after (${action} to version 2.0 at ${T2}), and a revoked consent is not renewed`,
      );
      expect(await refusal(held, { entity: 'consent', before: c, after: { ...c, revoked_at: T2 } }), action).toMatch(
        /^consent c1 cannot be revoked at /,
      );
      expect(
        await refusal(held, { entity: 'consent', before: c, after: { ...c, revoked_at: LATER } }),
        action,
      ).toBeUndefined();
    }
    // the granted entry is no renewal
    const held = { consent: [c], consent_history: [rows.consent_history()] };
    expect(await refusal(held, { entity: 'consent', before: c, after: { ...c, revoked_at: T1 } })).toBeUndefined();
    // a renewal pushed in the same batch counts as one held
    expect(
      (
        await refusals(held, [
          { entity: 'consent', before: c, after: { ...c, revoked_at: T1 } },
          { entity: 'consent_history', before: null, after: renewed('h3', T2) },
        ])
      )['consent c1'],
    ).toMatch(/^consent c1 cannot be revoked at .*: it was renewed after/);
  });

  it("refuses a renewal of a revoked consent at or after its revocation; one before it is the consent's past", async () => {
    const revoked = rows.consent({ revoked_at: T1 });
    const held = { consent: [revoked] };
    for (const action of ['renewed', 'version_update']) {
      expect(
        await refusal(held, { entity: 'consent_history', before: null, after: renewed('h3', T2, action) }),
        action,
      ).toBe(
        `consent_history h3: consent c1 is revoked (at ${T1}) and a revoked consent is not renewed (${action} to version 2.0 at ${T2})`,
      );
      expect(
        await refusal(held, { entity: 'consent_history', before: null, after: renewed('h3', T1, action) }),
        action,
      ).toMatch(/a revoked consent is not renewed/);
      expect(
        await refusal(held, {
          entity: 'consent_history',
          before: null,
          after: renewed('h3', '2026-05-05T10:00:00.000Z', action),
        }),
        action,
      ).toBeUndefined();
    }
    // a renewal of a consent in force
    expect(
      await refusal({ consent: [c] }, { entity: 'consent_history', before: null, after: renewed('h3', T2) }),
    ).toBeUndefined();
  });
});

describe("a consent's history at the door", () => {
  const held = { consent: [rows.consent()] };
  it('is dated when the consent was given or after, the granted entry when it was given', async () => {
    expect(
      await refusal(held, {
        entity: 'consent_history',
        before: null,
        after: rows.consent_history({ id: 'h9', action: 'revoked', created_at: '2019-01-01T00:00:00Z' }),
      }),
    ).toBe(`consent_history h9 is dated 2019-01-01T00:00:00Z, before consent c1 was given (${T0})`);
    expect(
      await refusal(held, { entity: 'consent_history', before: null, after: rows.consent_history({ created_at: T1 }) }),
    ).toBe(`consent_history h1: the granted entry is dated when the consent was given (${T0})`);
    expect(
      await refusal(held, { entity: 'consent_history', before: null, after: rows.consent_history() }),
    ).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'consent_history',
        before: null,
        after: rows.consent_history({ id: 'h3', action: 'renewed', created_at: T2 }),
      }),
    ).toBeUndefined();
  });

  it('names a consent of the tenant, and never revokes a refusal', async () => {
    expect(await refusal({}, { entity: 'consent_history', before: null, after: rows.consent_history() })).toBe(
      'consent_history h1 names consent c1 (consent_id), which this tenant does not hold',
    );
    const refusalOnly = { consent: [rows.consent({ granted: 0 })] };
    expect(
      await refusal(refusalOnly, {
        entity: 'consent_history',
        before: null,
        after: rows.consent_history({ id: 'h4', action: 'revoked', created_at: T1 }),
      }),
    ).toBe('consent_history h4: consent c1 records a refusal and cannot be revoked');
  });

  it('a revoked entry goes with its consent’s revocation: none for a consent in force, one per revoked consent', async () => {
    const entry = rows.consent_history({ id: 'h6', action: 'revoked', created_at: T1 });
    expect(await refusal(held, { entity: 'consent_history', before: null, after: entry })).toBe(
      `consent_history h6 revokes consent c1 at ${T1}, which is not revoked: a revoked entry goes with its consent's revocation`,
    );
    const revoked = { consent: [rows.consent({ revoked_at: T2 })] };
    expect(await refusal(revoked, { entity: 'consent_history', before: null, after: entry })).toBe(
      `consent_history h6 revokes consent c1 at ${T1}, which is revoked at ${T2} already: a consent is revoked once`,
    );
    // at the consent's revocation, the same instant written otherwise: its entry
    const same = { consent: [rows.consent({ revoked_at: '2026-05-10T12:00:00+02:00' })] };
    expect(await refusal(same, { entity: 'consent_history', before: null, after: entry })).toBeUndefined();
    // with the revocation in the same batch: written together; the revocation refused, the entry goes with it
    const both = await refusals(held, [
      { entity: 'consent', before: rows.consent(), after: rows.consent({ revoked_at: T1 }) },
      { entity: 'consent_history', before: null, after: entry },
    ]);
    expect(both).toStrictEqual({});
    const renewed = {
      ...held,
      consent_history: [rows.consent_history({ id: 'h7', action: 'renewed', created_at: T2 })],
    };
    const refusedTogether = await refusals(renewed, [
      { entity: 'consent', before: rows.consent(), after: rows.consent({ revoked_at: T1 }) },
      { entity: 'consent_history', before: null, after: entry },
    ]);
    expect(Object.keys(refusedTogether).sort()).toEqual(['consent c1', 'consent_history h6']);
    expect(refusedTogether['consent_history h6']).toContain('which is not revoked');
  });

  it('is never changed', async () => {
    const h = rows.consent_history();
    expect(await refusal(held, { entity: 'consent_history', before: h, after: { ...h, created_at: T1 } })).toBe(
      'consent_history h1 cannot be changed: consent_history is history, written once and never changed',
    );
  });

  it('a future entry is refused', async () => {
    const late = new Date(NOW.getTime() + 3_600_000).toISOString();
    expect(
      await refusal(held, {
        entity: 'consent_history',
        before: null,
        after: rows.consent_history({ id: 'h5', action: 'renewed', created_at: late }),
      }),
    ).toMatch(/^consent_history h5: created_at lies in the future/);
  });
});

describe('an import run at the door', () => {
  const run = rows.consent_import_run();
  it('stays reverted, keeps its counts once finished, and is reverted with who and when', async () => {
    const revert = { ...run, status: 'reverted', reverted_at: T2, reverted_by: 'sam' };
    expect(await refusal({}, { entity: 'consent_import_run', before: run, after: revert })).toBeUndefined();
    expect(await refusal({}, { entity: 'consent_import_run', before: revert, after: run })).toBe(
      'import run r1 is reverted and stays reverted',
    );
    for (const column of ['read', 'created', 'unchanged', 'revoked', 'renewed', 'rejected'])
      expect(
        await refusal({}, { entity: 'consent_import_run', before: run, after: { ...run, [column]: 9 } }),
        column,
      ).toBe('import run r1 is completed: its counts no longer change');
    expect(await refusal({}, { entity: 'consent_import_run', before: run, after: { ...run, finished_at: T1 } })).toBe(
      'import run r1 is completed: its counts no longer change',
    );
    expect(
      await refusal({}, { entity: 'consent_import_run', before: run, after: { ...revert, reverted_by: null } }),
    ).toBe('import run r1: reverted_at and reverted_by are set exactly when it is reverted');
    expect(
      await refusal(
        {},
        { entity: 'consent_import_run', before: run, after: { ...run, reverted_at: T2, reverted_by: 'x' } },
      ),
    ).toBe('import run r1: reverted_at and reverted_by are set exactly when it is reverted');
    const running = { ...run, status: 'running', finished_at: null, created: 0 };
    expect(await refusal({}, { entity: 'consent_import_run', before: running, after: run })).toBeUndefined();
    expect(
      await refusal(
        {},
        { entity: 'consent_import_run', before: null, after: { ...run, finished_at: '2026-04-01T00:00:00Z' } },
      ),
    ).toBe(`import run r1: it cannot finish or be reverted before it started (${T0})`);
    expect(
      await refusal(
        {},
        { entity: 'consent_import_run', before: null, after: { ...revert, reverted_at: '2026-04-01T00:00:00Z' } },
      ),
    ).toBe(`import run r1: it cannot finish or be reverted before it started (${T0})`);
    expect(
      await refusal({}, { entity: 'consent_import_run', before: null, after: { ...run, options: '{"delimiter":1}' } }),
    ).toMatch(/options\.delimiter/);
  });
});
