import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';
import { BIN } from '../support/serve-process.js';
import { startSmtpSink } from '../support/smtp-sink.js';

// Escalation e-mail is queued in the store; every replica of `serve` (and any `events run`) sends from the same
// outbox. Two senders started together on one database must send each message once: each claims a message before
// it sends it, and a claim taken by the other is passed over. Real processes, a real SMTP server, both engines.
const run = promisify(execFile);
const DAY = 86_400_000;

describe.each(ENGINE_NAMES)('escalation e-mail from two senders on one %s store', (engine) => {
  it('sends every queued message once', async () => {
    const target = await freshStore(engine);
    const T = { tenant: 'twins', actor: 'trainer' };
    const n = 60;
    // assignments made in January, a week overdue: one level-1 reminder per person
    let now = new Date('2026-01-05T09:00:00Z');
    const b = await createLocalBackend(target, { clock: { now: () => new Date(now) } });
    try {
      const m = await b.training.createModule({
        ...T,
        body: { module_code: 'DSGVO-01', title: 'Datenschutz', regulation_area: 'dsgvo', frequency_type: 'annual' },
      });
      await b.training.setMatrix({ ...T, body: { role_code: 'R5', module_id: m.id } });
      const users = Array.from({ length: n }, (_, i) => ({
        user_id: `u${i}`,
        user_name: `Person ${i}`,
        user_email: `p${i}@example.com`,
        roles: ['R5'],
        deadline_days: 10,
      }));
      await b.training.computeMany({ ...T, body: { users } });
      now = new Date(now.getTime() + 18 * DAY);
      expect((await b.training.escalate({ ...T, body: {} })).escalated).toBe(n);
    } finally {
      await b.close();
    }

    const sink = await startSmtpSink();
    try {
      const sender = () =>
        run(process.execPath, [
          BIN,
          '--db',
          target,
          'events',
          'run',
          '--once',
          '--smtp',
          sink.url,
          '--smtp-from',
          'compliance@example.com',
          '--json',
        ]);
      const passes = await Promise.all([sender(), sender()]);
      const sent = passes.map((p) => (JSON.parse(p.stdout) as { mail: { sent: number } }).mail.sent);
      expect(sent[0]! + sent[1]!).toBe(n);
      const to = sink.arrived.map((a) => a.to.join());
      expect(to).toHaveLength(n);
      expect(new Set(to).size).toBe(n);

      const after = await createLocalBackend(target);
      try {
        const outbox = await after.notifications.outbox({ tenant: T.tenant, query: {} });
        expect(outbox).toHaveLength(n);
        expect(outbox.every((msg) => msg.status === 'sent' && msg.attempts === 1)).toBe(true);
      } finally {
        await after.close();
      }
    } finally {
      await sink.close();
    }
  }, 60_000);
});
