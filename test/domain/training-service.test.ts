import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { TrainingService } from '../../src/domain/training/training.service.js';
import type { TrainingStore } from '../../src/domain/training/training-store.port.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { sqliteUnitOfWork, withStore, wrapWrites } from '../support/unit-of-work.js';

const NOW = '2026-06-15T12:00:00.000Z';
const T = 'firma';
const daysAgo = (d: number) => new Date(Date.parse(NOW) - d * 86_400_000).toISOString();
let n = 0;
const ids = { next: () => `id-${String(++n).padStart(6, '0')}` };
const clock = fixedClock(NOW);
const service = (uow: UnitOfWork) => new TrainingService(uow, clock, ids, () => '00');

/** The levels a (8 days overdue) and b (15 days) reach today: what the other replica raises them to. */
const LEVEL: Record<string, number> = { a: 1, b: 2 };

/**
 * The unit of work of a fresh SQLite store with one overdue assignment per user: a (8 days, level 0), b (15 days, level 0)
 * and c (50 days, already at the top level 4, so checked but no step). `nameOf` maps an assignment id to its user.
 */
async function overdueAssignments() {
  const { uow } = await sqliteUnitOfWork(clock, ids);
  const t = service(uow);
  const m = await t.createModule(T, 'hr', {
    module_code: 'M-1',
    title: 'M',
    description: '',
    regulation_area: 'dsgvo',
    frequency_type: 'annual',
    duration_minutes: 30,
    pass_threshold: 70,
    validity_days: 365,
  });
  await t.setMatrix(T, { role_code: 'R1', module_id: m.id, is_mandatory: true, priority: 1 });
  const idOf: Record<string, string> = {};
  for (const name of ['a', 'b', 'c']) {
    const user = { user_id: name, user_name: name, user_email: `${name}@example.com`, roles: ['R1' as const] };
    idOf[name] = (await t.compute(T, 'hr', { ...user, deadline_days: 30 })).assignments[0]!.id;
  }
  // an earlier run raised c to level 4 while a and b were not due yet; only then are a and b overdue
  await t.updateAssignment(T, idOf['c']!, { deadline: daysAgo(50) });
  await t.escalate(T, 'earlier-run', { dry_run: false });
  await t.updateAssignment(T, idOf['a']!, { deadline: daysAgo(8) });
  await t.updateAssignment(T, idOf['b']!, { deadline: daysAgo(15) });
  const nameOf = new Map(Object.entries(idOf).map(([name, id]) => [id, name]));
  // the escalations `actor` wrote, read back from the store (newest first there, sorted here)
  const audited = async (actor: string) =>
    (await uow.read.training.auditLog(T, { action: 'escalated', limit: 100, offset: 0 }))
      .filter((e) => e.actor === actor)
      .map((e) => `${nameOf.get(e.entity_id)}:${e.details['new_level']}`)
      .sort();
  return { uow, audited };
}

/**
 * The unit of work of a replica that loses a race for `elsewhere`: right after this service read the candidates,
 * another replica raises those to the level they reach today, at the same moment. SQLite lets one writer in at a
 * time, so that raise runs in this transaction, between this service's read and its own raise.
 */
const raisedMeanwhile = (uow: UnitOfWork, elsewhere: string[]): UnitOfWork =>
  wrapWrites(uow, (tx) => withStore(tx, 'training', racing(tx.training, elsewhere)));

const racing = (inner: TrainingStore, elsewhere: string[]): TrainingStore =>
  new Proxy(inner, {
    get(target, key: keyof TrainingStore) {
      if (key === 'escalationCandidates')
        return async (tenant: string, at: string) => {
          const rows = await target.escalationCandidates(tenant, at);
          for (const r of rows)
            if (elsewhere.includes(r.user_name)) await target.raiseEscalation(tenant, [r.id], LEVEL[r.user_name]!, at);
          return rows;
        };
      const v = target[key];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });

describe('TrainingService.escalate reports and audits only what the store raised', () => {
  it.each([
    // raised meanwhile by another replica, escalations reported here
    [[], ['a:1', 'b:2']],
    [['a'], ['b:2']],
    [['a', 'b'], []],
  ])('raised elsewhere %j -> %j', async (elsewhere, expected) => {
    const { uow, audited } = await overdueAssignments();
    const r = await service(raisedMeanwhile(uow, elsewhere)).escalate(T, 'ci', { dry_run: false });
    // the store reads the candidates in no set order
    expect(r.results.map((x) => `${x.user_name}:${x.new_level}`).sort()).toEqual(expected);
    expect(r).toMatchObject({ total_checked: 3, escalated: expected.length });
    expect(await audited('ci')).toEqual(expected);
  });

  it('a dry run raises nothing and reports every step', async () => {
    const { uow, audited } = await overdueAssignments();
    const r = await service(raisedMeanwhile(uow, ['a', 'b'])).escalate(T, 'ci', { dry_run: true });
    expect(r.results.map((x) => x.user_name).sort()).toEqual(['a', 'b']);
    expect(await audited('ci')).toEqual([]);
  });
});
