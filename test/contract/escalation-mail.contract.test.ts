import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, freePort, openBackend, type BackendUnderTest } from '../support/helpers.js';
import { startSmtpSink } from '../support/smtp-sink.js';
import { runEventsPass } from '../../src/backend/local/events/events-runner.js';

const DAY = 86_400_000;

describe.each(BACKEND_NAMES)('escalation e-mail on the %s backend', (name) => {
  let b: BackendUnderTest;
  let now = new Date('2026-03-01T09:00:00Z');
  const clock = { now: () => new Date(now) };
  const T = { tenant: 'mailco', actor: 'trainer' };
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let deadline = '';
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    b = await openBackend(name, { clock });
    sink = await startSmtpSink();
    const t = b.backend.training;
    const mod = async (code: string, title: string) =>
      (
        await t.createModule({
          ...T,
          body: { module_code: code, title, regulation_area: 'dsgvo', frequency_type: 'annual' },
        })
      ).id;
    const m1 = await mod('DSGVO-01', 'Datenschutz <Grundlagen>');
    const m2 = await mod('SEC-01', 'Informationssicherheit');
    await t.setMatrix({ ...T, body: { role_code: 'R5', module_id: m1 } });
    await t.setMatrix({ ...T, body: { role_code: 'R5', module_id: m2 } });
    await t.computeMany({
      ...T,
      body: {
        users: [
          {
            user_id: 'u1',
            user_name: 'Anna',
            user_email: 'anna@example.com',
            manager_email: 'lead@example.com',
            roles: ['R5'],
            deadline_days: 10,
          },
          {
            user_id: 'u2',
            user_name: 'Ben',
            user_email: 'ben@example.com',
            manager_email: 'lead@example.com',
            roles: ['R5'],
            deadline_days: 10,
          },
        ],
      },
    });
    const list = await t.listAssignments({ ...T, query: {} });
    for (const a of list) ids[`${a.user_id}/${a.module_code}`] = a.id;
    deadline = list[0]!.deadline;
  });
  afterAll(async () => {
    await b.close();
    await sink.close();
  });
  const api = () => b.backend.notifications;
  const at = (days: number) => new Date(Date.parse(deadline) + days * DAY + 1000);
  const pass = (smtp = sink.url) =>
    runEventsPass(b.local.store, { clock, smtp: { url: smtp, from: 'compliance@example.com' } });

  it('refuses invalid addresses and languages in the settings', async () => {
    expect(await api().settings(T)).toMatchObject({ language: 'de', management_email: null });
    const e = await failure(api().updateSettings({ ...T, body: { management_email: 'not an address' } }));
    expect([e.code, e.details[0]?.path]).toEqual(['validation', 'management_email']);
    expect((await failure(api().updateSettings({ ...T, body: { language: 'fr' as 'de' } }))).code).toBe('validation');
  });

  it('dry run shows one message per person and queues nothing', async () => {
    now = at(15);
    const dry = await b.backend.training.escalate({ ...T, body: { dry_run: true } });
    expect(dry.escalated).toBe(4);
    const msgs = dry.notifications!.messages;
    expect(msgs.map((m) => m.to).sort()).toEqual(['anna@example.com', 'ben@example.com', 'lead@example.com']);
    expect(msgs.find((m) => m.to === 'lead@example.com')!.assignments).toHaveLength(4);
    expect(await api().outbox({ ...T, query: {} })).toEqual([]);
  });

  it('queues in the escalation and a real SMTP server receives one message per person, text and HTML, German', async () => {
    const r = await b.backend.training.escalate({ ...T, body: {} });
    expect(r.escalated).toBe(4);
    expect(r.notifications).toMatchObject({ queued: 3, unaddressed: [] });
    const p = await pass();
    expect(p.mail).toMatchObject({ sent: 3, retrying: 0 });
    expect(sink.arrived.map((m) => m.to.join()).sort()).toEqual([
      'anna@example.com',
      'ben@example.com',
      'lead@example.com',
    ]);
    const anna = sink.arrived.find((m) => m.to[0] === 'anna@example.com')!;
    expect(anna.subject).toBe('Überfällige Pflichtschulungen (2)');
    expect(anna.text).toContain('Guten Tag Anna');
    expect(anna.text).toContain('- Datenschutz <Grundlagen> – Anna – 15 Tage überfällig – Stufe 1');
    expect(anna.html).toContain('<li>Datenschutz &lt;Grundlagen&gt; – Anna – 15 Tage überfällig – Stufe 1</li>');
    expect(anna.language).toBe('de');
    expect(anna.from).toBe('compliance@example.com');
    const lead = sink.arrived.find((m) => m.to[0] === 'lead@example.com')!;
    expect(lead.text.match(/Stufe 2/g)).toHaveLength(4);
    // never twice: the same run again, and a pass again, send nothing more
    expect((await b.backend.training.escalate({ ...T, body: {} })).escalated).toBe(0);
    expect((await pass()).mail.sent).toBe(0);
    expect(sink.arrived).toHaveLength(3);
    expect((await api().outbox({ ...T, query: {} })).map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('a failing SMTP server leaves the messages queued, the escalation still happens; a later pass sends them', async () => {
    await api().updateSettings({ ...T, body: { language: 'en', management_email: 'board@example.com' } });
    now = at(30);
    const r = await b.backend.training.escalate({ ...T, body: {} });
    expect(r.escalated).toBe(4);
    expect(r.notifications).toMatchObject({ queued: 1, unaddressed: [] });
    expect(
      (await b.backend.training.getAssignment({ ...T, params: { id: ids['u1/DSGVO-01']! } })).escalation_level,
    ).toBe(3);
    // nothing listens: the attempt fails, the message stays queued with its error
    const down = await pass(`smtp://127.0.0.1:${await freePort()}`);
    expect(down.mail).toMatchObject({ sent: 0, retrying: 1 });
    const [queued] = await api().outbox({ ...T, query: { failed: 'true' } });
    expect(queued).toMatchObject({ recipient: 'board@example.com', status: 'queued', attempts: 1 });
    // a server that answers 451 is a failed attempt too
    sink.state.refuse = true;
    now = new Date(now.getTime() + 5000);
    expect((await pass()).mail).toMatchObject({ retrying: 1 });
    sink.state.refuse = false;
    expect((await pass()).mail.sent).toBe(0); // not due yet: back-off
    now = new Date(now.getTime() + 300_000);
    expect((await pass()).mail.sent).toBe(1);
    const board = sink.arrived.at(-1)!;
    expect(board.to).toEqual(['board@example.com']);
    expect(board.subject).toBe('Overdue mandatory training (4)');
    expect(board.text).toContain('Hello management');
    expect(board.language).toBe('en');
  });

  it('uses a tenant’s own template, and reset brings back the built-in one; level 4 without an address is reported', async () => {
    await api().setTemplate({
      ...T,
      params: { name: 'escalation', language: 'en' },
      body: {
        subject: 'ACME: {{count}} overdue',
        body_text: 'Dear {{name}}:\n{{items}}',
        body_html: '<p>{{name}}</p>{{items}}',
      },
    });
    expect((await api().templates(T)).filter((t) => t.overridden).map((t) => `${t.name}/${t.language}`)).toEqual([
      'escalation/en',
    ]);
    now = at(46);
    const r = await b.backend.training.escalate({ ...T, body: { dry_run: true } });
    expect(r.notifications!.messages).toEqual([]);
    expect(r.notifications!.unaddressed.map((u) => [u.level, u.reason])).toEqual(
      Array(4).fill([4, 'no compliance_officer_email in the notification settings']),
    );
    await api().updateSettings({ ...T, body: { compliance_officer_email: 'dpo@example.com' } });
    expect((await b.backend.training.escalate({ ...T, body: {} })).notifications!.queued).toBe(1);
    await pass();
    expect(sink.arrived.at(-1)).toMatchObject({ to: ['dpo@example.com'], subject: 'ACME: 4 overdue' });
    expect(sink.arrived.at(-1)!.text).toContain('Dear compliance officer:');
    const reset = await api().resetTemplate({ ...T, params: { name: 'escalation', language: 'en' } });
    expect(reset).toMatchObject({ overridden: false, subject: 'Overdue mandatory training ({{count}})' });
    expect((await failure(api().resetTemplate({ ...T, params: { name: 'escalation', language: 'en' } }))).code).toBe(
      'not_found',
    );
    // another tenant has its own settings and outbox
    expect(await api().outbox({ tenant: 'other', query: {} })).toEqual([]);
  });
});
