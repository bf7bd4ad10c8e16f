import { describe, expect, it } from 'vitest';
import { createEventsRunner } from '../../src/backend/local/events/events-runner.js';
import { openStore } from '../../src/store/open-store.js';
import { cli, ENGINE_NAMES, freshStore } from '../support/helpers.js';

// Finished webhook deliveries and sent e-mail are kept for a retention (90 days unless COMPLIANCE_EVENTS_KEEP_DAYS
// says otherwise), then deleted: by `events prune`, and by the delivery loop once an hour. Rows still due are never
// deleted, however old. Every tenant's, on both engines.
const NOW = new Date('2026-06-01T12:00:00Z');
const clock = { now: () => new Date(NOW) };
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

/** Rows of both tables, for two tenants: finished long ago, finished lately, and due however old. */
const ROWS: Array<{ id: string; table: 'webhook_delivery' | 'notification_outbox'; status: string; age: number }> = [
  { id: 'd-old-delivered', table: 'webhook_delivery', status: 'delivered', age: 200 },
  { id: 'd-old-failed', table: 'webhook_delivery', status: 'failed', age: 31 },
  { id: 'd-recent', table: 'webhook_delivery', status: 'delivered', age: 29 },
  { id: 'd-old-pending', table: 'webhook_delivery', status: 'pending', age: 400 },
  { id: 'm-old-sent', table: 'notification_outbox', status: 'sent', age: 95 },
  { id: 'm-old-failed', table: 'notification_outbox', status: 'failed', age: 45 },
  { id: 'm-recent', table: 'notification_outbox', status: 'sent', age: 1 },
  { id: 'm-old-queued', table: 'notification_outbox', status: 'queued', age: 400 },
];

async function seeded(engine: 'sqlite' | 'postgres'): Promise<string> {
  const target = await freshStore(engine);
  const store = await openStore(target);
  try {
    for (const [i, r] of ROWS.entries()) {
      const at = daysAgo(r.age);
      const common = { id: r.id, tenant_id: i % 2 ? 'acme' : 'globex', status: r.status, attempts: 1 };
      if (r.table === 'webhook_delivery')
        await store.admin
          .insertInto('webhook_delivery')
          .values({
            ...common,
            endpoint_id: 'ep',
            seq: i,
            event_type: 'dsfa.created',
            payload: '{}',
            created_at: at,
            next_attempt_at: at,
          })
          .execute();
      else
        await store.admin
          .insertInto('notification_outbox')
          .values({
            ...common,
            run_id: 'run',
            recipient: 'a@example.com',
            language: 'de',
            subject: 'Erinnerung',
            body_text: 'Bitte',
            body_html: '<p>Bitte</p>',
            created_at: at,
            next_attempt_at: at,
          })
          .execute();
    }
  } finally {
    await store.close();
  }
  return target;
}

async function remaining(target: string): Promise<string[]> {
  const store = await openStore(target);
  try {
    const d = await store.admin.selectFrom('webhook_delivery').select('id').execute();
    const m = await store.admin.selectFrom('notification_outbox').select('id').execute();
    return [...d, ...m].map((r) => r.id).sort();
  } finally {
    await store.close();
  }
}

const all = ROWS.map((r) => r.id).sort();

describe.each(ENGINE_NAMES)('retention of finished events on %s', (engine) => {
  it('events prune deletes what finished before the cutoff, in every tenant, and nothing still due', async () => {
    const target = await seeded(engine);
    const dry = await cli(['--db', target, 'events', 'prune', '--older-than', '30', '--dry-run', '--json'], { clock });
    expect(dry.stderr).toBe('');
    expect(JSON.parse(dry.stdout)).toEqual({ older_than_days: 30, dry_run: true, webhook_deliveries: 2, emails: 2 });
    expect(await remaining(target)).toEqual(all);

    const r = await cli(['--db', target, 'events', 'prune', '--older-than', '30'], { clock });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/webhook deliveries deleted\s+2/);
    expect(r.stdout).toMatch(/e-mail deleted\s+2/);
    expect(await remaining(target)).toEqual(['d-old-pending', 'd-recent', 'm-old-queued', 'm-recent']);
  });

  it('events run --once prunes past the default retention and says so', async () => {
    const target = await seeded(engine);
    const r = await cli(['--db', target, 'events', 'run', '--once'], { clock });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/finished deliveries pruned\s+1/);
    expect(r.stdout).toMatch(/finished e-mail pruned\s+1/);
    expect(await remaining(target)).not.toContain('d-old-delivered');
  });

  it('the delivery pass prunes past the retention once an hour; 0 keeps everything', async () => {
    const target = await seeded(engine);
    const store = await openStore(target);
    try {
      const keepAll = createEventsRunner(store, { clock, env: { COMPLIANCE_EVENTS_KEEP_DAYS: '0' } });
      expect((await keepAll.pass()).pruned).toEqual({ webhook_deliveries: 0, emails: 0 });
      expect(await remaining(target)).toEqual(all);

      // the default: 90 days
      const runner = createEventsRunner(store, { clock, env: {} });
      expect((await runner.pass()).pruned).toEqual({ webhook_deliveries: 1, emails: 1 });
      expect(await remaining(target)).not.toContain('d-old-delivered');
      expect(await remaining(target)).not.toContain('m-old-sent');
      // within the hour the next pass does not look again
      const tight = createEventsRunner(store, { clock, keepDays: 30 });
      expect((await tight.pass()).pruned).toEqual({ webhook_deliveries: 1, emails: 1 });
      expect((await tight.pass()).pruned).toEqual({ webhook_deliveries: 0, emails: 0 });
    } finally {
      await store.close();
    }
  });

  it('refuses a retention that is not a whole number of days, naming where it came from', async () => {
    const target = await seeded(engine);
    for (const bad of ['0', '-3', 'abc', '1.5', '1000000', '99999999999']) {
      const r = await cli(['--db', target, 'events', 'prune', '--older-than', bad, '--json']);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr).details[0].path).toBe('--older-than');
    }
    for (const days of ['ninety', '1000000'])
      for (const args of [
        ['events', 'run', '--once'],
        ['events', 'prune'],
      ]) {
        const env = { COMPLIANCE_EVENTS_KEEP_DAYS: days };
        const r = await cli(['--db', target, ...args, '--json'], { env });
        expect(r.code).toBe(2);
        expect(JSON.parse(r.stderr)).toMatchObject({
          error: `invalid COMPLIANCE_EVENTS_KEEP_DAYS: "${days}" (days, 0 keeps for ever)`,
          details: [{ path: 'COMPLIANCE_EVENTS_KEEP_DAYS' }],
        });
      }
    // the longest retention that can be set prunes none of these
    const longest = await cli(['--db', target, 'events', 'prune', '--older-than', '999999', '--json'], { clock });
    expect(JSON.parse(longest.stdout)).toMatchObject({ webhook_deliveries: 0, emails: 0 });
    expect(await remaining(target)).toEqual(all);
  });
});
