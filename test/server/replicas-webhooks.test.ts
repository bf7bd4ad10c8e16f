import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { replicaClient, serve } from '../support/serve-process.js';
import { cli, tmpDb } from '../support/helpers.js';
import { startReceiver } from '../support/webhook-receiver.js';

type Served = Awaited<ReturnType<typeof serve>>;

const until = async (what: string, done: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const seqsOf = (r: Awaited<ReturnType<typeof startReceiver>>) =>
  new Set(r.received.filter((x) => x.answered < 300).map((x) => x.payload.data.journal_seq as number));

describe('webhook deliveries from serve replicas', () => {
  const procs: Served[] = [];
  afterAll(() => {
    for (const p of procs) p.proc.kill('SIGKILL');
  });

  it('two replicas on one PostgreSQL database never deliver the same entry twice, and deliver every one', async () => {
    const db = await freshPostgresDatabase();
    const receiver = await startReceiver();
    try {
      // the receiver listens on 127.0.0.1: the operator lets API clients add such endpoints
      const args = ['--db', db, '--allow-private-webhooks'];
      const replicas = await Promise.all([serve(args), serve(args)]);
      procs.push(...replicas);
      const call = replicaClient<Record<string, unknown>>(
        () => replicas,
        () => ({ 'x-tenant-id': 'twins' }),
      );
      const added = await call(0, 'POST', '/webhooks', {
        url: receiver.url,
        events: ['dsfa.created'],
        allow_private: true,
      });
      expect(added.status).toBe(201);
      receiver.useSecret(added.body.secret as string);
      const n = 40;
      const created = await Promise.all(
        Array.from({ length: n }, (_, i) => call(i, 'POST', '/dsfa?tenant_id=twins', { title: `Verfahren ${i}` })),
      );
      expect(created.every((r) => r.status === 201)).toBe(true);
      await until(`${n} deliveries`, () => seqsOf(receiver).size === n);
      // a moment more: a double would arrive now
      await new Promise((r) => setTimeout(r, 2500));
      expect(receiver.received).toHaveLength(n);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(n);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('a kill -9 of the delivering process loses nothing: the next pass delivers the rest', async () => {
    const db = tmpDb();
    // a slow receiver, so the process dies with deliveries in flight
    const receiver = await startReceiver({ delayMs: 150 });
    try {
      const added = await cli([
        '--db',
        db,
        '--json',
        'webhooks',
        'add',
        receiver.url,
        '--events',
        'dsfa.created',
        '--allow-private',
      ]);
      receiver.useSecret((JSON.parse(added.stdout) as { secret: string }).secret);
      const n = 30;
      for (let i = 0; i < n; i++) expect((await cli(['--db', db, 'dsfa', 'create', '--title', `D${i}`])).code).toBe(0);
      const server = await serve(['--db', db]);
      procs.push(server);
      await until('the first deliveries', () => receiver.received.length >= 3);
      server.proc.kill('SIGKILL');
      await new Promise((r) => server.proc.on('exit', r));
      const before = seqsOf(receiver).size;
      expect(before).toBeLessThan(n);
      // the dead process's claims expire (60 s); a pass after that delivers everything left
      const later = new Date(Date.now() + 120_000);
      const run = await cli(['--db', db, '--json', 'events', 'run', '--once'], { clock: { now: () => later } });
      expect(run.code).toBe(0);
      expect(seqsOf(receiver).size).toBe(n);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
