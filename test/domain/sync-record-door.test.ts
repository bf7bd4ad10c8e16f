import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { refusedChanges } from '../../src/domain/sync/record-door.js';
import { ROW_RULES } from '../../src/domain/sync/row-rules.js';
import {
  before,
  changedColumn,
  CLOCK_SKEW_MS,
  columnsOf,
  futureColumn,
  inFuture,
  jsonText,
  storedRow,
  timeOf,
} from '../../src/domain/sync/row-rule.js';
import { SYNC_TABLES } from '../../src/store/kysely/replica.store.js';
import { idOf, memoryReader, NOW, refusal, refusals, rows, T0, T1, T2, TENANT } from '../support/sync-rows.js';
import { z } from 'zod';

// The door every record passes before a sync, a bundle or `sync resolve` writes it: the rules of its table, the
// records it names, and the records of the same batch it rests on. Pure: the tenant's records are rows in memory.
describe('the door of a record', () => {
  it('has the rules of every table that travels, and a row of each as the API writes it passes', async () => {
    expect(Object.keys(ROW_RULES).sort()).toEqual(Object.keys(SYNC_TABLES).sort());
    const done = { status: 'completed', progress_percent: 100, quiz_passed: 1, started_at: T0, completed_at: T1 };
    const held = {
      training_module: [rows.training_module()],
      training_assignment: [rows.training_assignment({ ...done, valid_until: '2027-05-10T10:00:00.000Z' })],
      training_block: [rows.training_block()],
      legal_document: [rows.legal_document()],
      consent: [rows.consent()],
      dsfa: [rows.dsfa()],
    };
    for (const [entity, make] of Object.entries(rows)) {
      const row = make();
      expect(await refusal(held, { entity, before: null, after: row }), entity).toBeUndefined();
      // every column the row has is a column of its table
      expect([...columnsOf(ROW_RULES[entity]!.schema)].sort(), entity).toEqual(Object.keys(row).sort());
    }
  });

  it('refuses a table that does not travel, naming those that do', async () => {
    const reasons = await refusedChanges(memoryReader({}), TENANT, NOW, [
      { entity: 'api_key', id: 'k', before: null, after: { id: 'k' } },
    ]);
    expect(reasons.get('api_key\u0000k')).toMatch(
      /^api_key records do not travel: the tables that do are dsfa_setting, dsfa, /,
    );
    // names an object has of its own are no tables either
    for (const entity of ['toString', 'constructor', '__proto__']) {
      const r = await refusedChanges(memoryReader({}), TENANT, NOW, [
        { entity, id: 'k', before: null, after: { id: 'k' } },
      ]);
      expect(r.get(`${entity}\u0000k`), entity).toMatch(/records do not travel/);
    }
  });

  it('refuses an unknown column, a missing one and a value of the wrong type, naming the column', async () => {
    const extra = await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ owner: 'x' }) });
    expect(extra).toBe('dsfa d1 does not fit its table: (body): unknown field(s): owner');
    const { title: _t, ...noTitle } = rows.dsfa();
    expect(await refusal({}, { entity: 'dsfa', before: null, after: noTitle })).toBe(
      'dsfa d1 does not fit its table: title: missing: every column of the table is sent',
    );
    const two = await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ status: 'hacked', title: 7 }) });
    expect(two).toMatch(/^dsfa d1 does not fit its table: (title|status): .* \(and 1 more\)$/);
    expect(await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ data_categories: 'not json' }) })).toBe(
      'dsfa d1 does not fit its table: data_categories: must be JSON text',
    );
    expect(await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ data_categories: '[1]' }) })).toMatch(
      /^dsfa d1 does not fit its table: data_categories\.0: /,
    );
  });

  it("refuses another tenant's row and a row that names another record", async () => {
    expect(await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ tenant_id: 'globex' }) })).toBe(
      `dsfa d1 belongs to tenant globex, not ${TENANT}`,
    );
    const found = await refusedChanges(memoryReader({}), TENANT, NOW, [
      { entity: 'dsfa', id: 'd2', before: null, after: rows.dsfa() },
    ]);
    expect([...found]).toEqual([['dsfa\u0000d2', 'the row of dsfa d2 names another record']]);
    // a link has no tenant of its own: it is the block's
    expect(
      await refusal(
        { training_block: [rows.training_block()], training_module: [rows.training_module()] },
        { entity: 'training_block_control', before: null, after: rows.training_block_control() },
      ),
    ).toBeUndefined();
  });

  it('refuses any change of history and any deletion a table does not allow; passes a change to nothing', async () => {
    const entry = rows.dsfa_audit();
    expect(
      await refusal(
        { dsfa_audit: [entry] },
        { entity: 'dsfa_audit', before: entry, after: { ...entry, changed_by: 'x' } },
      ),
    ).toBe('dsfa_audit a1 cannot be changed: dsfa_audit is history, written once and never changed');
    expect(await refusal({}, { entity: 'dsfa_audit', before: entry, after: entry })).toBeUndefined();
    expect(await refusal({}, { entity: 'dsfa_audit', before: entry, after: null })).toBe(
      'dsfa_audit a1 cannot be deleted: dsfa_audit records are never deleted',
    );
    // a record absent on both sides is nothing to write
    const found = await refusedChanges(memoryReader({}), TENANT, NOW, [
      { entity: 'dsfa_audit', id: 'a9', before: null, after: null },
    ]);
    expect(found.size).toBe(0);
  });

  it('refuses a change of a fixed column and a time in the future beyond the clock skew', async () => {
    const d = rows.dsfa();
    expect(await refusal({}, { entity: 'dsfa', before: d, after: { ...d, created_by: 'mallory' } })).toBe(
      'dsfa d1 cannot change created_by: it is fixed once the record is written',
    );
    const late = new Date(NOW.getTime() + CLOCK_SKEW_MS + 1000).toISOString().slice(0, -1);
    expect(await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ updated_at: late }) })).toBe(
      `dsfa d1: updated_at lies in the future (more than 5 minutes after ${NOW.toISOString()})`,
    );
    const soon = new Date(NOW.getTime() + CLOCK_SKEW_MS - 1000).toISOString().slice(0, -1);
    expect(await refusal({}, { entity: 'dsfa', before: null, after: rows.dsfa({ updated_at: soon }) })).toBeUndefined();
  });

  it('refuses a record that names one the tenant does not hold; one written in the same batch is held', async () => {
    const assignment = rows.training_assignment({ module_id: 'm-gone' });
    expect(await refusal({}, { entity: 'training_assignment', before: null, after: assignment })).toBe(
      'training_assignment as1 names training_module m-gone (module_id), which this tenant does not hold',
    );
    const module = rows.training_module({ id: 'm-new', module_code: 'NEU-1' });
    expect(
      await refusals({}, [
        {
          entity: 'training_assignment',
          before: null,
          after: assignment.module_id === 'm-gone' ? { ...assignment, module_id: 'm-new' } : assignment,
        },
        { entity: 'training_module', before: null, after: module },
      ]),
    ).toStrictEqual({});
  });

  it('checks again without a refused record the records that rest on it, until none is refused anew', async () => {
    const module = rows.training_module({ id: 'm-new', title: '' });
    const assignment = rows.training_assignment({ module_id: 'm-new' });
    const attempt = rows.training_quiz_attempt({ module_id: 'm-new' });
    const reasons = await refusals({}, [
      { entity: 'training_module', before: null, after: module },
      { entity: 'training_assignment', before: null, after: assignment },
      { entity: 'training_quiz_attempt', before: null, after: attempt },
    ]);
    expect(Object.keys(reasons).sort()).toEqual([
      'training_assignment as1',
      'training_module m-new',
      'training_quiz_attempt qa1',
    ]);
    expect(reasons['training_assignment as1']).toContain('names training_module m-new');
  });

  it('a deleted record is absent after the batch; a refused deletion leaves it held', async () => {
    const module = rows.training_module();
    const question = rows.training_question();
    // the module goes (no assignment): its question may go, and a new question for it may not come
    expect(
      await refusals({ training_module: [module], training_question: [question] }, [
        { entity: 'training_module', before: module, after: null },
        { entity: 'training_question', before: null, after: rows.training_question({ id: 'q2' }) },
      ]),
    ).toEqual({
      'training_question q2':
        'training_question q2 names training_module m1 (module_id), which this tenant does not hold',
    });
    // with an assignment it stays, and the new question may come
    const held = { training_module: [module], training_assignment: [rows.training_assignment()] };
    expect(
      await refusals(held, [
        { entity: 'training_module', before: module, after: null },
        { entity: 'training_question', before: null, after: rows.training_question({ id: 'q2' }) },
      ]),
    ).toEqual({ 'training_module m1': 'module m1 has 1 assignment(s) and cannot be deleted' });
  });

  it('a rule that reads what it did not ask for is a bug, not a pass', async () => {
    const sneaky = {
      ...ROW_RULES.training_block!,
      check: (_c: unknown, f: { row(e: string, id: string): unknown }) => (f.row('dsfa', 'x') ? null : 'nope'),
    };
    const saved = ROW_RULES.training_block!;
    ROW_RULES.training_block = sneaky as never;
    try {
      const e = await refusals({}, [{ entity: 'training_block', before: null, after: rows.training_block() }]).catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).message).toBe('a sync rule read dsfa x without asking for it');
      expect((e as DomainError).code).toBe('internal');
      ROW_RULES.training_block = {
        ...saved,
        check: (_c, f) => (f.heldWhere('dsfa', 'id', 'x').length ? null : 'nope'),
      };
      const w = await refusals({}, [{ entity: 'training_block', before: null, after: rows.training_block() }]).catch(
        (x: unknown) => x,
      );
      expect((w as DomainError).message).toBe('a sync rule read dsfa by id without asking for it');
      expect((w as DomainError).code).toBe('internal');
    } finally {
      ROW_RULES.training_block = saved;
    }
  });

  it('reads what the rules ask for a table at a time, and the batch over it', async () => {
    const calls: string[] = [];
    const inner = memoryReader({
      training_module: [rows.training_module(), rows.training_module({ id: 'm3', module_code: 'X-9' })],
    });
    const reader = {
      readMany: (t: string, e: string, w: Array<{ id: string }>) => {
        calls.push(`readMany ${e} ${w.map((x) => x.id).join(',')}`);
        return inner.readMany(t, e, w);
      },
      rowsWhere: (t: string, e: string, c: string, v: unknown[]) => {
        calls.push(`rowsWhere ${e}.${c} ${v.join(',')}`);
        return inner.rowsWhere(t, e, c, v);
      },
      idOf: inner.idOf,
    };
    const found = await refusedChanges(reader, TENANT, NOW, [
      { entity: 'training_assignment', id: 'as1', before: null, after: rows.training_assignment() },
      {
        entity: 'training_assignment',
        id: 'as2',
        before: null,
        after: rows.training_assignment({ id: 'as2', module_id: 'm2' }),
      },
      {
        entity: 'training_assignment',
        id: 'as3',
        before: null,
        after: rows.training_assignment({ id: 'as3', module_id: 'm3' }),
      },
      {
        entity: 'training_assignment',
        id: 'as4',
        before: null,
        after: rows.training_assignment({ id: 'as4', module_id: 'm3' }),
      },
      // m1 takes the code X-2 and m2, new, takes X-3: neither is taken
      {
        entity: 'training_module',
        id: 'm1',
        before: rows.training_module(),
        after: rows.training_module({ module_code: 'X-2' }),
      },
      {
        entity: 'training_module',
        id: 'm2',
        before: null,
        after: rows.training_module({ id: 'm2', module_code: 'X-3' }),
      },
    ]);
    expect([...found]).toEqual([]);
    expect(calls).toEqual(['readMany training_module m3', 'rowsWhere training_module.module_code X-2,X-3']);
  });

  it('lets a record go where its table allows deletion (a block and its links)', async () => {
    const held = {
      training_block: [rows.training_block()],
      training_block_control: [rows.training_block_control()],
      training_module: [rows.training_module()],
    };
    expect(
      await refusals(held, [
        { entity: 'training_block_control', before: rows.training_block_control(), after: null },
        { entity: 'training_block', before: rows.training_block(), after: null },
      ]),
    ).toStrictEqual({});
  });

  it('judges deletions first, whatever the order of the batch: a refused one leaves its record for the others', async () => {
    const module = rows.training_module();
    const held = { training_module: [module], training_assignment: [rows.training_assignment()] };
    expect(
      await refusals(held, [
        { entity: 'training_question', before: null, after: rows.training_question({ id: 'q2' }) },
        { entity: 'training_module', before: module, after: null },
      ]),
    ).toEqual({ 'training_module m1': 'module m1 has 1 assignment(s) and cannot be deleted' });
  });

  it('checks again a record judged before a later one it rests on was refused', async () => {
    // the link comes first and finds its new block in the batch; the block is refused after it, so the link goes too
    const block = rows.training_block({ id: 'b2', created_at: T1, updated_at: T0 });
    const reasons = await refusals({ training_module: [rows.training_module()] }, [
      { entity: 'training_block_control', before: null, after: rows.training_block_control({ block_id: 'b2' }) },
      { entity: 'training_block', before: null, after: block },
    ]);
    expect(reasons).toEqual({
      'training_block b2': 'training block b2: updated_at lies before created_at',
      [`training_block_control ${idOf('training_block_control', rows.training_block_control({ block_id: 'b2' }))}`]:
        'training_block_control ["b2","AUTH-001"] names training_block b2 (block_id), which this tenant does not hold',
    });
  });

  it('reads the held records of every lookup apart: two consents, two histories, two tables in one batch', async () => {
    const a = rows.consent({ id: 'ca' });
    const b = rows.consent({ id: 'cb', data_point_id: 'ads' });
    // ca was renewed after T1, cb was not
    const renewal = rows.consent_history({ id: 'h-a', consent_id: 'ca', action: 'renewed', created_at: T2 });
    const held = {
      consent: [a, b],
      consent_history: [
        rows.consent_history({ id: 'g-a', consent_id: 'ca' }),
        rows.consent_history({ id: 'g-b', consent_id: 'cb' }),
        renewal,
      ],
      training_module: [rows.training_module()],
    };
    const reasons = await refusals(held, [
      { entity: 'consent', before: a, after: { ...a, revoked_at: T1 } },
      { entity: 'consent', before: b, after: { ...b, revoked_at: T1 } },
      {
        entity: 'training_module',
        before: null,
        after: rows.training_module({ id: 'm2', module_code: 'NEU-1' }),
      },
      {
        entity: 'training_module',
        before: null,
        after: rows.training_module({ id: 'm3', module_code: 'NEU-1' }),
      },
    ]);
    // cb, never renewed, may be revoked; of two new modules with one code the first is refused and the second kept
    expect(Object.keys(reasons).sort()).toEqual(['consent ca', 'training_module m2']);
    expect(reasons['consent ca']).toMatch(/^consent ca cannot be revoked at .*: it was renewed after/);
    expect(reasons['training_module m2']).toBe('module_code NEU-1 is already used by module m3');
  });

  it('looks up each held record a batch names, several of one table', async () => {
    const held = {
      consent: [rows.consent({ id: 'ca' }), rows.consent({ id: 'cb', data_point_id: 'ads' })],
    };
    expect(
      await refusals(held, [
        {
          entity: 'consent_history',
          before: null,
          after: rows.consent_history({ id: 'x-a', consent_id: 'ca', action: 'renewed', created_at: T1 }),
        },
        {
          entity: 'consent_history',
          before: null,
          after: rows.consent_history({ id: 'x-b', consent_id: 'cb', action: 'renewed', created_at: T1 }),
        },
      ]),
    ).toStrictEqual({});
  });
});

describe('times as stored', () => {
  it('reads a time without a zone as UTC, with Z or an offset as given, anything else as no time', () => {
    expect(timeOf('2026-05-01T10:00:00.000')).toBe(Date.parse('2026-05-01T10:00:00.000Z'));
    expect(timeOf('2026-05-01T10:00:00Z')).toBe(Date.parse('2026-05-01T10:00:00Z'));
    expect(timeOf('2026-05-01T12:00:00+02:00')).toBe(Date.parse('2026-05-01T10:00:00Z'));
    expect(timeOf('2026-05-01T12:00:00+0200')).toBe(Date.parse('2026-05-01T10:00:00Z'));
    expect(timeOf(null)).toBeNaN();
    expect(timeOf(5)).toBeNaN();
    expect(before(T0, T1)).toBe(true);
    expect(before(T1, T0)).toBe(false);
    expect(before(T0, T0)).toBe(false);
    expect(before(null, T0)).toBe(false);
    expect(inFuture(new Date(NOW.getTime() + CLOCK_SKEW_MS).toISOString(), NOW)).toBe(false);
    expect(inFuture(new Date(NOW.getTime() + CLOCK_SKEW_MS + 1).toISOString(), NOW)).toBe(true);
  });

  it('finds the first fixed column that changed and the first time in the future; a table without either has none', () => {
    const late = new Date(NOW.getTime() + CLOCK_SKEW_MS + 1000).toISOString();
    const row = { a: 1, b: null, t: T0, u: null, v: late };
    expect(changedColumn(['a', 'b'], row, { ...row, b: 2 })).toBe('b');
    expect(changedColumn(['a', 'b'], row, { ...row, c: 3 })).toBeUndefined();
    // a column missing on one side reads as null
    expect(changedColumn(['b'], row, { a: 1 })).toBeUndefined();
    expect(changedColumn(undefined, row, { a: 2 })).toBeUndefined();
    expect(futureColumn(['t', 'u', 'v'], row, NOW)).toBe('v');
    expect(futureColumn(['t', 'u'], row, NOW)).toBeUndefined();
    expect(futureColumn(undefined, row, NOW)).toBeUndefined();
  });

  it('a stored row takes exactly its columns, each by its schema, and rules across them', () => {
    const s = storedRow({ a: z.string().default('x'), b: z.int() }, (row, ctx) => {
      if (row.b > 5) ctx.addIssue({ code: 'custom', path: ['b'], message: 'too big' });
    });
    expect(columnsOf(s)).toEqual(['a', 'b']);
    expect(s.safeParse({ a: 'y', b: 1 }).success).toBe(true);
    expect(s.safeParse({ b: 1 }).error?.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      ['custom', ['a'], 'missing: every column of the table is sent'],
    ]);
    const json = storedRow({ list: jsonText(z.array(z.string())) });
    expect(json.safeParse({ list: '["a"]' }).success).toBe(true);
    expect(json.safeParse({ list: '["a"' }).error?.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      ['custom', ['list'], 'must be JSON text'],
    ]);
    expect(s.safeParse({ a: 'y', b: 1, c: 2 }).success).toBe(false);
    expect(s.safeParse({ a: 'y', b: 9 }).error?.issues.map((i) => i.message)).toEqual(['too big']);
    expect(s.safeParse('text').success).toBe(false);
    expect(columnsOf(z.string())).toEqual([]);
    expect(idOf('dsfa_setting', rows.dsfa_setting())).toBe(TENANT);
  });
});
