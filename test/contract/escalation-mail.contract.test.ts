import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, freePort, useBackend } from '../support/helpers.js';
import { startSmtpSink } from '../support/smtp-sink.js';
import { runEventsPass } from '../../src/backend/local/events/events-runner.js';

const DAY = 86_400_000;

describe.each(BACKEND_NAMES)('escalation e-mail on the %s backend', (name) => {
  let now = new Date('2026-03-01T09:00:00Z');
  const clock = { now: () => new Date(now) };
  const T = { tenant: 'mailco', actor: 'trainer' };
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let deadline = '';
  const ids: Record<string, string> = {};
  const b = useBackend(name, { clock });
  beforeAll(async () => {
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
    expect(anna.subject).toBe('Erinnerung: 2 Pflichtschulungen überfällig');
    expect(anna.text).toContain('Guten Tag Anna');
    expect(anna.text).toMatch(/^- Datenschutz <Grundlagen> – fällig am \d+\. \S+ 2026, seit 15 Tagen überfällig$/m);
    expect(anna.html).toMatch(/<li>Datenschutz &lt;Grundlagen&gt; – fällig am [^<]+, seit 15 Tagen überfällig<\/li>/);
    expect(anna.language).toBe('de');
    expect(anna.from).toBe('compliance@example.com');
    const lead = sink.arrived.find((m) => m.to[0] === 'lead@example.com')!;
    expect(lead.text.match(/seit 15 Tagen überfällig/g)).toHaveLength(4);
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
    expect(board.subject).toBe('Escalation: 4 mandatory training courses overdue for 30 days or more');
    expect(board.text).toMatch(/^Hello,$/m);
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

// Each level's message is written for its reader, in the tenant's language: the employee their own deadlines, the
// team lead the people concerned, management and the compliance officer a summary; English e-mail names a module by
// its English title where it has one, and every message links to the tenant's base URL where it set one.
describe.each(BACKEND_NAMES)('escalation e-mail for each reader on the %s backend', (name) => {
  let now = new Date('2026-03-01T09:00:00Z');
  const clock = { now: () => new Date(now) };
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let deadline = '';
  const de = { tenant: 'leser', actor: 'trainer' };
  const en = { tenant: 'readers', actor: 'trainer' };
  const at = (days: number) => new Date(Date.parse(deadline) + days * DAY + 1000);
  /** The one message of the last pass to an address. */
  const mail = (from: number, to: string) => {
    const found = sink.arrived.slice(from).filter((m) => m.to.join() === to);
    expect(found, `one message to ${to}`).toHaveLength(1);
    return found[0]!;
  };
  /** Escalates both tenants as of `days` overdue and sends; where the new messages start in the sink. */
  const escalate = async (days: number) => {
    now = at(days);
    const from = sink.arrived.length;
    for (const T of [de, en]) await b.backend.training.escalate({ ...T, body: {} });
    await runEventsPass(b.local.store, { clock, smtp: { url: sink.url, from: 'compliance@example.com' } });
    return from;
  };

  const b = useBackend(name, { clock });
  beforeAll(async () => {
    sink = await startSmtpSink();
    const t = b.backend.training;
    for (const [T, domain] of [
      [de, 'firma.de'],
      [en, 'example.com'],
    ] as const) {
      const gdpr = await t.createModule({
        ...T,
        body: {
          module_code: 'DSGVO-BASIS',
          title: 'DSGVO-Grundlagen',
          title_en: 'GDPR essentials',
          regulation_area: 'dsgvo',
          frequency_type: 'annual',
        },
      });
      expect(gdpr.title_en).toBe('GDPR essentials');
      const sec = await t.createModule({
        ...T,
        body: {
          module_code: 'SEC-01',
          title: 'Informationssicherheit',
          regulation_area: 'iso27001',
          frequency_type: 'annual',
        },
      });
      expect(sec.title_en).toBeNull();
      await t.setMatrix({ ...T, body: { role_code: 'R5', module_id: gdpr.id } });
      await t.setMatrix({ ...T, body: { role_code: 'R5', module_id: sec.id } });
      await t.setMatrix({ ...T, body: { role_code: 'R6', module_id: gdpr.id } });
      const person = (user_id: string, user_name: string, role: string) => ({
        user_id,
        user_name,
        user_email: `${user_id}@${domain}`,
        manager_email: `lead@${domain}`,
        roles: [role],
        deadline_days: 10,
      });
      await t.computeMany({
        ...T,
        body: { users: [person('anna', 'Anna Schmidt', 'R5'), person('ben', 'Ben Ng', 'R6')] },
      });
      await b.backend.notifications.updateSettings({
        ...T,
        body: {
          language: T === de ? 'de' : 'en',
          management_email: `board@${domain}`,
          compliance_officer_email: `dpo@${domain}`,
        },
      });
    }
    deadline = (await t.listAssignments({ ...de, query: {} }))[0]!.deadline;
    expect(deadline.slice(0, 10)).toBe('2026-03-11');
  });
  afterAll(async () => {
    await sink.close();
  });

  it('takes a base URL in the settings (http or https, no password), and an English title on a module', async () => {
    const api = b.backend.notifications;
    for (const bad of ['ftp://lms.example.com', 'lms.example.com', 'https://user:secret@lms.example.com/'])
      expect(
        (await failure(api.updateSettings({ ...en, body: { base_url: bad } }))).details.map((d) => d.path),
        bad,
      ).toEqual(['base_url']);
    const s = await api.updateSettings({ ...en, body: { base_url: 'https://lms.example.com/training' } });
    expect(s).toMatchObject({ language: 'en', base_url: 'https://lms.example.com/training' });
    expect((await api.settings(de)).base_url).toBeNull();
    // the title can be changed and cleared like any other field
    const t = b.backend.training;
    const sec = (await t.listModules({ ...de, query: {} })).find((m) => m.module_code === 'SEC-01')!;
    const renamed = await t.updateModule({ ...de, params: { id: sec.id }, body: { title_en: 'Information security' } });
    expect(renamed.title_en).toBe('Information security');
    expect((await t.updateModule({ ...de, params: { id: sec.id }, body: { title_en: null } })).title_en).toBeNull();
    expect((await api.templates(en)).map((x) => x.name)).toEqual(
      expect.arrayContaining([
        'reminder_employee',
        'notify_team_lead',
        'notify_management',
        'notify_compliance_officer',
      ]),
    );
  });

  it('level 1: the employee gets their own deadlines and days overdue, in their language', async () => {
    const from = await escalate(8);
    const anna = mail(from, 'anna@firma.de');
    expect(anna.subject).toBe('Erinnerung: 2 Pflichtschulungen überfällig');
    expect(anna.text).toBe(
      [
        'Guten Tag Anna Schmidt,',
        'die Fristen für Ihre folgenden Pflichtschulungen sind abgelaufen:',
        '- DSGVO-Grundlagen – fällig am 11. März 2026, seit 8 Tagen überfällig\n' +
          '- Informationssicherheit – fällig am 11. März 2026, seit 8 Tagen überfällig',
        'Bitte schließen Sie die Schulungen so bald wie möglich ab.',
        'Bei Fragen wenden Sie sich bitte an Ihre Teamleitung oder an das Compliance-Team.',
        'Mit freundlichen Grüßen\nIhr Compliance-Team',
      ].join('\n\n'),
    );
    expect(anna.html).toContain('<li>DSGVO-Grundlagen – fällig am 11. März 2026, seit 8 Tagen überfällig</li>');
    expect(anna.html).not.toContain('<a ');
    const ben = mail(from, 'ben@firma.de');
    expect(ben.subject).toBe('Erinnerung: Pflichtschulung überfällig');
    expect(ben.text).toContain('die Frist für Ihre folgende Pflichtschulung ist abgelaufen:');
    expect(ben.text).toContain('Bitte schließen Sie die Schulung so bald wie möglich ab.');

    const annaEn = mail(from, 'anna@example.com');
    expect(annaEn.subject).toBe('Reminder: 2 mandatory training courses overdue');
    expect(annaEn.text).toContain('Hello Anna Schmidt,\n\nThe deadlines for the following mandatory training courses');
    expect(annaEn.text).toContain('- GDPR essentials – due 11 March 2026, 8 days overdue');
    // a module without an English title keeps its own
    expect(annaEn.text).toContain('- Informationssicherheit – due 11 March 2026, 8 days overdue');
    expect(annaEn.text).toContain('Go to your training: https://lms.example.com/training');
    expect(annaEn.html).toContain(
      '<p>Go to your training: <a href="https://lms.example.com/training">https://lms.example.com/training</a></p>',
    );
    expect(mail(from, 'ben@example.com').subject).toBe('Reminder: mandatory training overdue');
    // nobody else, and no employee reads the manager's wording
    expect(sink.arrived.slice(from)).toHaveLength(4);
    for (const m of sink.arrived.slice(from)) expect(m.text).not.toMatch(/eskaliert|escalated|sorgen Sie/);
  });

  it('level 2: the team lead gets the people concerned', async () => {
    const from = await escalate(15);
    expect(sink.arrived.slice(from).map((m) => m.to.join())).toEqual(
      expect.arrayContaining(['lead@firma.de', 'lead@example.com']),
    );
    const lead = mail(from, 'lead@firma.de');
    expect(lead.subject).toBe('Ihr Team: 3 Pflichtschulungen überfällig');
    expect(lead.text).toContain(
      'Guten Tag,\n\nin Ihrem Team ist die Frist für 3 Pflichtschulungen seit mindestens 14 Tagen abgelaufen. ' +
        'Die 2 betroffenen Personen wurden bereits erinnert:\n\n' +
        '- Anna Schmidt (anna@firma.de)\n' +
        '    DSGVO-Grundlagen – fällig am 11. März 2026, seit 15 Tagen überfällig\n' +
        '    Informationssicherheit – fällig am 11. März 2026, seit 15 Tagen überfällig\n' +
        '- Ben Ng (ben@firma.de)\n' +
        '    DSGVO-Grundlagen – fällig am 11. März 2026, seit 15 Tagen überfällig\n\n' +
        'Bitte sprechen Sie die Personen an',
    );
    expect(lead.html).toContain(
      '<li>Ben Ng (ben@firma.de)<ul><li>DSGVO-Grundlagen – fällig am 11. März 2026, seit 15 Tagen überfällig</li></ul></li>',
    );
    const leadEn = mail(from, 'lead@example.com');
    expect(leadEn.subject).toBe('Your team: 3 mandatory training courses overdue');
    expect(leadEn.text).toContain('Hello,\n\nIn your team, the deadline for 3 mandatory training courses passed');
    expect(leadEn.text).toContain(
      '- Ben Ng (ben@example.com)\n    GDPR essentials – due 11 March 2026, 15 days overdue',
    );
    expect(leadEn.text).toContain('Overview: https://lms.example.com/training');
  });

  it('levels 3 and 4: management and the compliance officer get a summary', async () => {
    let from = await escalate(31);
    const board = mail(from, 'board@firma.de');
    expect(board.subject).toBe('Eskalation: 3 Pflichtschulungen seit mindestens 30 Tagen überfällig');
    expect(board.text).toContain(
      'Übersicht nach Schulung:\n\n' +
        '- DSGVO-Grundlagen: 2 Personen, bis zu 31 Tage überfällig\n' +
        '- Informationssicherheit: eine Person, bis zu 31 Tage überfällig\n\n',
    );
    expect(board.text).not.toContain('anna@');
    expect(board.html).toContain('<li>Informationssicherheit: eine Person, bis zu 31 Tage überfällig</li>');
    const boardEn = mail(from, 'board@example.com');
    expect(boardEn.subject).toBe('Escalation: 3 mandatory training courses overdue for 30 days or more');
    expect(boardEn.text).toMatch(/^3 mandatory training courses have been overdue for at least 30 days/m);
    expect(boardEn.text).toContain('- GDPR essentials: 2 people, up to 31 days overdue');
    expect(boardEn.text).toContain('Details: https://lms.example.com/training');

    from = await escalate(46);
    const dpo = mail(from, 'dpo@firma.de');
    expect(dpo.subject).toBe('Eskalation: 3 Pflichtschulungen seit mindestens 45 Tagen überfällig');
    expect(dpo.text).toContain('an Sie als Compliance-Beauftragte oder Compliance-Beauftragten eskaliert');
    expect(dpo.text).toContain('- DSGVO-Grundlagen: 2 Personen, bis zu 46 Tage überfällig');
    const dpoEn = mail(from, 'dpo@example.com');
    expect(dpoEn.subject).toBe('Escalation: 3 mandatory training courses overdue for 45 days or more');
    expect(dpoEn.text).toContain('escalated to you as the compliance officer');
    expect(dpoEn.html).toContain('<li>GDPR essentials: 2 people, up to 46 days overdue</li>');
    expect(sink.arrived.slice(from)).toHaveLength(2);
  });
});
