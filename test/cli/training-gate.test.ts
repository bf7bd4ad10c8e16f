import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb, useServer } from '../support/helpers.js';

// The CI gate and escalation with --as-of behave the same on the embedded store and against a server.
const DAY = 86_400_000;
const staff = () => {
  const f = join(tmp(), 'staff.csv');
  writeFileSync(f, 'user_id,user_name,user_email,roles\ng1,Gina,gina@example.com,R9\ng2,Gerd,gerd@example.com,R5|R9\n');
  return f;
};

async function scenario(run: (...a: string[]) => Promise<{ code: number; stdout: string; stderr: string }>) {
  expect((await run('training', 'catalog', 'install')).code).toBe(0);
  const computed = JSON.parse(
    (await run('training', 'assignments', 'compute', '--users', staff(), '--deadline-days', '10', '--json')).stdout,
  );
  expect(computed).toMatchObject({ users: 2, refused: 0 });
  const list = JSON.parse((await run('training', 'assignments', 'list', '--limit', '500', '--json')).stdout) as Array<{
    deadline: string;
  }>;
  expect(list.length).toBe(computed.created);
  const deadline = Date.parse(list[0]!.deadline);
  expect(list.every((a) => Date.parse(a.deadline) === deadline)).toBe(true);
  const asOf = (days: number) => new Date(deadline + days * DAY + 60_000).toISOString();
  const out: Record<string, unknown> = { total: list.length };

  const none = await run('training', 'overdue', '--json');
  out.none = [none.code, none.stdout.trim()];
  const week = await run('training', 'overdue', '--as-of', asOf(8), '--json');
  out.week = [
    week.code,
    (JSON.parse(week.stdout) as Array<{ days_overdue: number; level: number; status: string }>).map((a) => [
      a.days_overdue,
      a.level,
      a.status,
    ]),
  ];
  out.weekLevel2 = (await run('training', 'overdue', '--as-of', asOf(8), '--min-level', '2', '--json')).code;
  const dry = JSON.parse(
    (await run('training', 'escalation', 'check', '--as-of', asOf(15), '--dry-run', '--json')).stdout,
  );
  out.dry = [
    dry.total_checked,
    dry.escalated,
    dry.dry_run,
    [
      ...new Set(
        dry.results.map((r: { new_level: number; escalation_label: string }) => `${r.new_level}:${r.escalation_label}`),
      ),
    ],
  ];
  out.afterDry = JSON.parse((await run('training', 'audit-log', '--action', 'escalated', '--json')).stdout).length;
  // a date in the future writes nothing without --force
  const future = await run('training', 'escalation', 'check', '--as-of', asOf(15));
  out.future = [future.code, /in the future.*--dry-run.*--force/.test(future.stderr)];
  out.afterFuture = JSON.parse((await run('training', 'audit-log', '--action', 'escalated', '--json')).stdout).length;
  const real = JSON.parse(
    (await run('training', 'escalation', 'check', '--as-of', asOf(15), '--force', '--json')).stdout,
  );
  out.real = [real.escalated, real.as_of];
  out.down = JSON.parse(
    (await run('training', 'escalation', 'check', '--as-of', asOf(8), '--force', '--json')).stdout,
  ).escalated;
  out.afterReal = JSON.parse(
    (await run('training', 'audit-log', '--action', 'escalated', '--limit', '500', '--json')).stdout,
  ).length;
  // stored level 2 counts at --min-level 2 even when judged at a date that alone reaches only level 1
  out.stored = (await run('training', 'overdue', '--as-of', asOf(8), '--min-level', '2')).code;
  out.level4 = (await run('training', 'overdue', '--as-of', asOf(45), '--min-level', '4', '--format', 'junit')).code;
  out.badDate = (await run('training', 'overdue', '--as-of', 'soon')).code;
  return out;
}

describe('training overdue and escalation with --as-of', () => {
  const srv = useServer();

  it('give the same answers locally and remotely', async () => {
    const db = tmpDb();
    const local = await scenario((...a) => cli(['--db', db, ...a]));
    const remote = await scenario((...a) => cli(['--remote', srv.url, ...a]));
    const n = local.total as number;
    expect(local).toMatchObject({
      none: [0, '[]'],
      week: [6, Array.from({ length: n }, () => [8, 1, 'overdue'])],
      weekLevel2: 0,
      dry: [n, n, true, ['2:notify_team_lead']],
      afterDry: 0,
      future: [2, true],
      afterFuture: 0,
      real: [n, expect.stringMatching(/Z$/)],
      down: 0,
      afterReal: n,
      stored: 6,
      level4: 6,
      badDate: 2,
    });
    expect({ ...remote, real: (remote.real as unknown[])[0] }).toEqual({
      ...local,
      real: (local.real as unknown[])[0],
    });
  });
});
