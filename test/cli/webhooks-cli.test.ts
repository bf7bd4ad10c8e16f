import { describe, expect, it } from 'vitest';
import { cli, tmpDb } from '../support/helpers.js';
import { startReceiver } from '../support/webhook-receiver.js';

describe('compliance webhooks and events run --once', () => {
  it('refuses a private URL with exit 2, adds with --allow-private, delivers with events run --once', async () => {
    const db = tmpDb();
    const receiver = await startReceiver();
    try {
      const refused = await cli(['--db', db, 'webhooks', 'add', receiver.url, '--events', 'dsfa.created']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/127\.0\.0\.1.*--allow-private/);
      const badEvent = await cli(['--db', db, 'webhooks', 'add', 'https://example.com/', '--events', 'nope']);
      expect(badEvent.code).toBe(2);
      expect(badEvent.stderr).toMatch(/dsfa\.status_changed/);

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
      expect(added.code).toBe(0);
      const ep = JSON.parse(added.stdout) as { id: string; secret: string };
      expect(ep.secret).toMatch(/^whsec_/);
      receiver.useSecret(ep.secret);
      expect((await cli(['--db', db, 'dsfa', 'create', '--title', 'Kamera'])).code).toBe(0);
      const run = await cli(['--db', db, '--json', 'events', 'run', '--once']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ webhooks: { queued: 1, delivered: 1 } });
      expect(receiver.received.map((r) => [r.type, r.verified])).toEqual([['dsfa.created', true]]);
      const list = await cli(['--db', db, 'webhooks', 'list']);
      expect(list.stdout).toContain(ep.id);
      expect(list.stdout).not.toContain(ep.secret);
      const deliveries = await cli(['--db', db, 'webhooks', 'deliveries']);
      expect(deliveries.stdout).toMatch(/dsfa\.created\t\d+\tdelivered\t1\t204/);
      expect((await cli(['--db', db, 'webhooks', 'deliveries', '--failed'])).stdout).toBe('');
      const test = await cli(['--db', db, 'webhooks', 'test', ep.id]);
      expect(test.code).toBe(0);
      expect(test.stdout).toMatch(/status\tdelivered/);
      expect((await cli(['--db', db, 'webhooks', 'remove', 'nope'])).code).toBe(3);
    } finally {
      await receiver.close();
    }
  });
});
