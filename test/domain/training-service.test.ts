import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { TrainingService } from '../../src/domain/training/training.service.js';
import type { AuditRecord, TrainingStore } from '../../src/domain/training/training.store.js';

const NOW = '2026-06-15T12:00:00.000Z';
const daysAgo = (d: number) => new Date(Date.parse(NOW) - d * 86_400_000).toISOString();
let n = 0;
const ids = { next: () => `id-${++n}` };

/** Only what escalation touches; `raisedElsewhere` plays a replica that escalated those assignments first. */
function fakeStore(raisedElsewhere: string[]) {
  const audit: AuditRecord[] = [];
  const candidates = [
    { id: 'a', user_name: 'A', deadline: daysAgo(8), escalation_level: 0, module_title: 'M' },
    { id: 'b', user_name: 'B', deadline: daysAgo(15), escalation_level: 0, module_title: 'M' },
    { id: 'c', user_name: 'C', deadline: daysAgo(50), escalation_level: 4, module_title: 'M' },
  ];
  const store = {
    transaction: (fn: (s: TrainingStore) => Promise<unknown>) => fn(store as unknown as TrainingStore),
    escalationCandidates: async () => candidates,
    raiseEscalation: async (_t: string, ids: string[]) => ids.filter((id) => !raisedElsewhere.includes(id)),
    appendAudit: async (entries: AuditRecord[]) => void audit.push(...entries),
  };
  return { store: store as unknown as TrainingStore, audit };
}

describe('TrainingService.escalate reports and audits only what the store raised', () => {
  it.each([
    // raised meanwhile by another replica, escalations reported here
    [[], ['a:1', 'b:2']],
    [['a'], ['b:2']],
    [['a', 'b'], []],
  ])('raised elsewhere %j -> %j', async (elsewhere, expected) => {
    const { store, audit } = fakeStore(elsewhere);
    const t = new TrainingService(store, fixedClock(NOW), ids, () => '00');
    const r = await t.escalate('firma', 'ci', { dry_run: false });
    expect(r.results.map((x) => `${x.assignment_id}:${x.new_level}`)).toEqual(expected);
    expect(r).toMatchObject({ total_checked: 3, escalated: expected.length });
    expect(audit.map((e) => `${e.entity_id}:${e.details.new_level}`)).toEqual(expected);
  });

  it('a dry run raises nothing and reports every step', async () => {
    const { store, audit } = fakeStore(['a', 'b']);
    const r = await new TrainingService(store, fixedClock(NOW), ids, () => '00').escalate('firma', 'ci', {
      dry_run: true,
    });
    expect(r.results.map((x) => x.assignment_id)).toEqual(['a', 'b']);
    expect(audit).toEqual([]);
  });
});
