import { describe, expect, it } from 'vitest';
import { cli, tmpDb } from '../support/helpers.js';
import { addEndpoint, startReceiver } from '../support/webhook-receiver.js';

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
      // a terminal shows a delivery's short id, and redeliver takes it back
      const delivery = test.stdout.match(/^id\t(msg_[0-9a-f]{32})$/m)![1]!;
      const shown = (await cli(['--db', db, 'webhooks', 'deliveries'], { tty: true })).stdout;
      expect(shown).toContain(delivery.slice(-8));
      expect(shown).not.toContain(delivery);
      const again = await cli(['--db', db, 'webhooks', 'redeliver', delivery.slice(-8)]);
      expect([again.code, again.stdout]).toEqual([0, expect.stringContaining(`id\t${delivery}`)]);
      expect((await cli(['--db', db, 'webhooks', 'remove', 'nope'])).code).toBe(3);
    } finally {
      await receiver.close();
    }
  });
});

describe('events run --once with a receiver that hangs', () => {
  it('ends one attempt timeout later: the healthy endpoint gets everything, the hung one its first attempts', async () => {
    const db = tmpDb();
    const hung = await startReceiver({ delayMs: 30_000 });
    const healthy = await startReceiver();
    try {
      const hungEp = await addEndpoint(db, hung.url);
      healthy.useSecret((await addEndpoint(db, healthy.url)).secret);
      for (let i = 0; i < 20; i++) expect((await cli(['--db', db, 'dsfa', 'create', '--title', `D${i}`])).code).toBe(0);
      const started = Date.now();
      const run = await cli(['--db', db, '--json', 'events', 'run', '--once']);
      const seconds = (Date.now() - started) / 1000;
      expect(run.code).toBe(0);
      // one attempt timeout (10 s) for the hung receiver, not one per delivery or per batch of them
      expect(seconds).toBeLessThan(18);
      expect(healthy.delivered()).toHaveLength(20);
      expect(JSON.parse(run.stdout)).toMatchObject({ webhooks: { queued: 40, delivered: 20, retrying: 8 } });
      // the hung endpoint's other deliveries were not attempted: due as they were, for the next pass
      const listed = await cli(['--db', db, '--json', 'webhooks', 'deliveries', '--limit', '100']);
      const mine = (
        JSON.parse(listed.stdout) as Array<{ endpoint_id: string; attempts: number; last_error: string }>
      ).filter((d) => d.endpoint_id === hungEp.id);
      expect(mine.filter((d) => d.attempts === 1).map((d) => d.last_error)).toEqual(
        Array(8).fill('no answer within 10 s'),
      );
      expect(mine.filter((d) => d.attempts === 0)).toHaveLength(12);
    } finally {
      await Promise.all([hung.close(), healthy.close()]);
    }
  }, 60_000);
});

describe('compliance notifications and the SMTP flags', () => {
  it('refuses a malformed SMTP URL or sender and an invalid address with exit 2; stores valid settings', async () => {
    const db = tmpDb();
    const smtp = await cli(['--db', db, 'events', 'run', '--once', '--smtp', 'http://mail.example.com']);
    expect(smtp.code).toBe(2);
    expect(smtp.stderr).toMatch(/--smtp.*smtp:\/\//);
    const env = await cli(['--db', db, 'events', 'run', '--once'], { env: { COMPLIANCE_SMTP_URL: 'nonsense' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('COMPLIANCE_SMTP_URL');
    const from = await cli([
      '--db',
      db,
      'events',
      'run',
      '--once',
      '--smtp',
      'smtp://127.0.0.1:1',
      '--smtp-from',
      'x y',
    ]);
    expect(from.code).toBe(2);
    const bad = await cli(['--db', db, 'notifications', 'settings', '--management-email', 'not-an-address']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--management-email');
    const ok = await cli([
      '--db',
      db,
      'notifications',
      'settings',
      '--language',
      'en',
      '--management-email',
      'board@example.com',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('management_email\tboard@example.com');
    const shown = await cli(['--db', db, 'notifications', 'templates', 'show', 'escalation', 'en']);
    expect(shown.stdout).toContain('Overdue mandatory training');
    expect((await cli(['--db', db, 'notifications', 'templates', 'show', 'escalation', 'fr'])).code).toBe(2);
    const run = await cli(['--db', db, '--json', 'events', 'run', '--once']);
    expect(JSON.parse(run.stdout)).toMatchObject({ mail: { configured: false, waiting: 0 } });
    // the store's own SMTP server: used when neither flags nor environment name one; its password never shown
    const badUrl = await cli(['--db', db, 'notifications', 'smtp', '--url', 'ftp://mail.example.com']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url');
    const set = await cli([
      '--db',
      db,
      'notifications',
      'smtp',
      '--url',
      'smtp://u:geheim@127.0.0.1:2525',
      '--from',
      'c@example.com',
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('url\tsmtp://u:***@127.0.0.1:2525');
    expect(set.stdout).not.toContain('geheim');
    const stored = await cli(['--db', db, '--json', 'events', 'run', '--once']);
    expect(JSON.parse(stored.stdout)).toMatchObject({ mail: { configured: true } });
    expect((await cli(['--db', db, 'notifications', 'smtp', '--clear'])).stdout).toContain('url\t');
    const cleared = await cli(['--db', db, '--json', 'events', 'run', '--once']);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ mail: { configured: false } });
  });

  it('takes --base-url for links in the e-mail and --title-en on modules; the catalogue brings English titles', async () => {
    const db = tmpDb();
    const bad = await cli(['--db', db, 'notifications', 'settings', '--base-url', 'ftp://lms.example.com']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--base-url');
    const set = await cli(['--db', db, 'notifications', 'settings', '--base-url', 'https://lms.example.com/']);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('base_url\thttps://lms.example.com/');
    const cleared = await cli(['--db', db, '--json', 'notifications', 'settings', '--base-url', '']);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ base_url: null });
    const created = await cli([
      '--db',
      db,
      '--json',
      'training',
      'modules',
      'create',
      '--code',
      'PHISH-01',
      '--title',
      'Phishing erkennen',
      '--title-en',
      'Spotting phishing',
      '--area',
      'iso27001',
      '--frequency',
      'annual',
    ]);
    expect(JSON.parse(created.stdout)).toMatchObject({ title: 'Phishing erkennen', title_en: 'Spotting phishing' });
    const updated = await cli(['--db', db, '--json', 'training', 'modules', 'update', 'PHISH-01', '--title-en', '']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ title_en: null });
    expect((await cli(['--db', db, 'training', 'catalog', 'install'])).code).toBe(0);
    const gdpr = await cli(['--db', db, '--json', 'training', 'modules', 'show', 'DSGVO-BASIS']);
    expect(JSON.parse(gdpr.stdout)).toMatchObject({ title_en: 'GDPR essentials for all staff' });
  });
});
