import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { fixedClock } from '../../src/domain/clock.js';
import { cli, useServer, freePort, startServer, tmp, tmpDb } from '../support/helpers.js';
import { requirePrograms } from '../support/programs.js';
import { ink, pixelsOf, renderPages } from '../support/pages.js';
import { readDocx } from '../support/docx.js';
import { TONE_COLOURS } from '../../src/services/report/tones.js';

const aiModules = [
  {
    use_case_type: 'adm_scoring',
    name: 'Bewerber-Scoring',
    ai_act_risk_class: 'high',
    risks: [{ title: 'Diskriminierung', severity: 'high' }],
  },
];

describe('dsfa commands on the embedded store', () => {
  const db = tmpDb();
  const run = (args: string[], stdin?: string) => cli(['--db', db, ...args], { stdin });

  it('creates from flags and prints the wire shape with --json', async () => {
    const r = await run([
      'dsfa',
      'create',
      '--json',
      '--title',
      'Mitarbeiterüberwachung',
      '--risk-level',
      'high',
      '--data-category',
      'Bewerbungsunterlagen (Lebenslauf, Zeugnisse)',
      '--data-category',
      'Arbeitszeiten',
      '--measure',
      'Pseudonymisierung',
    ]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({
      title: 'Mitarbeiterüberwachung',
      risk_level: 'high',
      data_categories: ['Bewerbungsunterlagen (Lebenslauf, Zeugnisse)', 'Arbeitszeiten'],
      measures: ['Pseudonymisierung'],
      created_by: 'tester',
    });
    expect(r.stderr).toBe('');
    // piped output shows a list as JSON, so a comma inside an item stays visible
    const piped = await run(['dsfa', 'get', d.id]);
    expect(piped.stdout).toContain('data_categories\t["Bewerbungsunterlagen (Lebenslauf, Zeugnisse)","Arbeitszeiten"]');
  });

  it('adds and removes single list items without retyping the others', async () => {
    const own = tmpDb();
    const run = (args: string[]) => cli(['--db', own, ...args]);
    const id = JSON.parse(
      (await run(['dsfa', 'create', '--json', '--title', 'Listen', '--recipient', 'Steuerberater, extern'])).stdout,
    ).id;
    const add = ['--add-recipient', 'Lohnbüro', '--add-measure', 'TLS, mindestens 1.2', '--add-recipient', 'Lohnbüro'];
    const r = await run(['dsfa', 'update', id, '--json', ...add]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      recipients: ['Steuerberater, extern', 'Lohnbüro'],
      measures: ['TLS, mindestens 1.2'],
    });
    const removed = await run(['dsfa', 'update', id, '--json', '--remove-recipient', 'Steuerberater, extern']);
    expect(JSON.parse(removed.stdout).recipients).toEqual(['Lohnbüro']);
    const typo = await run(['dsfa', 'update', id, '--remove-recipient', 'Lohnburo']);
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringContaining('"Lohnburo": not in the list')]);
    const both = await run(['dsfa', 'update', id, '--recipient', 'x', '--add-recipient', 'y']);
    expect(both.code).toBe(2);
  });

  it('creates from a JSON body on stdin, flags override it', async () => {
    const body = { title: 'aus Datei', description: 'von stdin', ai_use_case_modules: aiModules };
    const r = await run(['dsfa', 'create', '--json', '-f', '-', '--status', 'in-review'], JSON.stringify(body));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      title: 'aus Datei',
      status: 'in-review',
      ai_use_case_modules: [{ name: 'Bewerber-Scoring' }],
    });
  });

  it('prints tab-separated lines without a header when piped', async () => {
    const r = await run(['dsfa', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toHaveLength(6);
    expect(lines[1]).toContain('Mitarbeiterüberwachung');
  });

  it('refuses to prompt without a terminal: create without --title is a usage error', async () => {
    const r = await run(['dsfa', 'create']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--title/);
    expect(r.stdout).toBe('');
  });

  it.each([
    [
      ['dsfa', 'create', '--title', 'x', '--status', 'closed'],
      2,
      /allowed values: draft, in-review, approved, needs-update/,
    ],
    [['dsfa', 'create', '--title', 'x', '--risk-level', 'huge'], 2, /allowed values: low, medium, high, critical/],
    [['dsfa', 'create', '--title', ''], 2, /title: must not be empty/],
    [['dsfa', 'list', '--limit', '0'], 2, /limit: must be at least 1/],
    [['dsfa', 'list', '--limit', '501'], 2, /limit: must be at most 500/],
    [['dsfa', 'list', '--limit', 'ten'], 2, /limit: expected number/],
    [['dsfa', 'get', '0190f4c2-0000-7000-8000-000000000000'], 3, /not found/],
    [['dsfa', 'set-status', '0190f4c2-0000-7000-8000-000000000000', 'approved'], 3, /not found/],
    [['dsfa', 'delete', 'abc'], 2, /--yes/],
    [['dsfa', 'frobnicate'], 2, /unknown command/],
    [['dsfa', 'list', '--colour'], 2, /unknown option/],
  ])('%j exits %i with a clear message', async (args, code, message) => {
    const before = (await run(['dsfa', 'stats', '--json'])).stdout;
    const r = await run(args as string[]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await run(['dsfa', 'stats', '--json'])).stdout).toBe(before);
  });

  it('reports malformed JSON files and missing files with exit 2', async () => {
    const bad = join(tmp(), 'bad.json');
    writeFileSync(bad, '{"title": ');
    let r = await run(['dsfa', 'create', '-f', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/malformed JSON/);
    r = await run(['dsfa', 'create', '-f', join(tmp(), 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file/);
  });

  it('prints errors as JSON on stderr with --json', async () => {
    const r = await run(['dsfa', 'create', '--json', '--title', 'x', '--status', 'closed']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'validation', details: [{ path: '--status' }] });
  });

  it('walks the status workflow, updates, deletes with --yes, and keeps the audit trail', async () => {
    const id = JSON.parse((await run(['dsfa', 'create', '--json', '--title', 'Workflow'])).stdout).id as string;
    expect((await run(['dsfa', 'update', id, '--description', 'neu', '--json'])).code).toBe(0);
    const approved = JSON.parse(
      (await run(['dsfa', 'set-status', id, 'approved', '--approved-by', 'dpo@example.com', '--json'])).stdout,
    );
    expect(approved).toMatchObject({ status: 'approved', approved_by: 'dpo@example.com' });
    const del = await run(['dsfa', 'delete', id, '--yes']);
    expect(del.stdout).toContain(id);
    const log = JSON.parse((await run(['dsfa', 'audit-log', '--dsfa', id, '--json'])).stdout) as Array<{
      action: string;
    }>;
    expect(log.map((e) => e.action)).toEqual(['DELETE', 'STATUS_CHANGE', 'UPDATE', 'CREATE']);
  });

  it('chooses the strict review workflow per tenant and names the allowed transitions when refusing', async () => {
    const t = ['--tenant', 'strenge-gmbh', '--user', 'autorin'];
    expect((await run(['dsfa', 'workflow', '--json'])).stdout).toContain('"workflow":"open"');
    // a tenant the store has never seen has no workflow to show; choosing one starts it
    const unknown = await run([...t, 'dsfa', 'workflow']);
    expect([unknown.code, unknown.stderr]).toEqual([3, expect.stringContaining('unknown tenant strenge-gmbh')]);
    expect((await run([...t, 'dsfa', 'workflow', 'strict'])).code).toBe(0);
    const bad = await run([...t, 'dsfa', 'workflow', 'lenient']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('open, strict')]);
    const id = JSON.parse((await run([...t, 'dsfa', 'create', '--title', 'Streng', '--json'])).stdout).id;
    const skip = await run([...t, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'dsb']);
    expect(skip.code).toBe(5);
    expect(skip.stderr).toContain('from draft it allows in-review');
    expect((await run([...t, 'dsfa', 'set-status', id, 'in-review'])).code).toBe(0);
    const self = await run([...t, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'autorin']);
    expect([self.code, self.stderr]).toEqual([5, expect.stringContaining('four-eyes')]);
    expect((await run([...t, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'dsb'])).code).toBe(0);
    expect((await run(['dsfa', 'workflow', '--json'])).stdout).toContain('"workflow":"open"'); // other tenant
  });

  it('keeps tenants apart on the command line', async () => {
    const id = JSON.parse((await run(['dsfa', 'create', '--json', '--tenant', 't1', '--title', 'nur t1'])).stdout)
      .id as string;
    expect((await run(['dsfa', 'get', id, '--tenant', 't2'])).code).toBe(3);
    expect((await cli(['--db', db, 'dsfa', 'get', id], { env: { COMPLIANCE_TENANT: 't1' } })).code).toBe(0);
  });
});

describe('dsfa screen', () => {
  const db = tmpDb();
  it('explains a required verdict and creates a draft recording the answers', async () => {
    const r = await cli([
      '--db',
      db,
      'dsfa',
      'screen',
      '--criteria',
      'scoring,vulnerable_subjects',
      '--create',
      '--title',
      'Bewerberauswahl',
      '--lang',
      'en',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/DSFA required: yes/);
    expect(r.stdout).toMatch(/2 of the 9 WP248 criteria/);
    const list = JSON.parse((await cli(['--db', db, 'dsfa', 'list', '--json'])).stdout);
    expect(list[0]).toMatchObject({ title: 'Bewerberauswahl', status: 'draft', risk_level: 'high' });
    expect(list[0].description).toContain('[x] Evaluation or scoring');
  });

  it('writes German by default: the verdict printed, the description and the title it stores', async () => {
    const own = tmpDb();
    const clock = fixedClock('2026-11-25T10:00:00Z');
    const r = await cli(
      ['--db', own, 'dsfa', 'screen', '--trigger', 'high_risk_ai', '--criteria', 'scoring', '--create'],
      {
        clock,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('DSFA erforderlich: ja');
    expect(r.stdout).toMatch(/^- Pflichtfall: Hochrisiko-KI-System\. /m);
    expect(r.stdout).toMatch(/^Vor Beginn der Verarbeitung ist eine DSFA durchzuführen/m);
    expect(r.stdout).toMatch(/^DSFA-Entwurf angelegt: /m);
    const [d] = JSON.parse((await cli(['--db', own, 'dsfa', 'list', '--json'])).stdout);
    expect(d.title).toBe('DSFA: Screening vom 25.11.2026');
    expect(d.description.split('\n')[0]).toBe('Screening vom 25.11.2026: DSFA erforderlich.');
    expect(d.description).toContain('- [x] Bewertung oder Scoring');
    expect(d.description).not.toMatch(/Evaluation|Mandatory|required/);
    // the German report shows it under "Systematische Beschreibung" without a word of English
    const report = (await cli(['--db', own, 'dsfa', 'report', d.id])).stdout;
    const described = report.slice(report.indexOf('## 1.'), report.indexOf('## 2.'));
    expect(described).toContain('Screening vom 25.11.2026: DSFA erforderlich.');
    expect(described).not.toMatch(/\b(the|of|is|required|criteria)\b/);
  });

  it('takes the language from COMPLIANCE_LANG, and --lang over it, for the answer in --json too', async () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      cli(['--db', db, 'dsfa', 'screen', '--criteria', 'large_scale', '--json', ...args], { env });
    const en = JSON.parse((await run([], { COMPLIANCE_LANG: 'en' })).stdout);
    expect(en.reasons[0]).toMatch(/^One WP248 criterion is met \(Large scale\)/);
    const de = JSON.parse((await run(['--lang', 'de'], { COMPLIANCE_LANG: 'en' })).stdout);
    expect(de.reasons[0]).toMatch(/^Ein WP248-Kriterium ist erfüllt \(Umfangreiche Verarbeitung\)/);
    const title = await cli(
      [
        '--db',
        db,
        'dsfa',
        'screen',
        '--criteria',
        'large_scale',
        '--create',
        '--processing-activity',
        'Lager',
        '--json',
      ],
      { env: { COMPLIANCE_LANG: 'en' } },
    );
    expect(JSON.parse(title.stdout).dsfa).toMatchObject({ title: 'DSFA: Lager' });
    expect(JSON.parse(title.stdout).dsfa.description).toMatch(/^Screening of \d+ \w{3} \d{4}: DSFA not required\./);
    const bad = await run(['--lang', 'fr']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/Allowed choices are de, en/)]);
    const badEnv = await run([], { COMPLIANCE_LANG: 'fr' });
    expect([badEnv.code, badEnv.stderr]).toEqual([
      2,
      expect.stringMatching(/COMPLIANCE_LANG=fr: allowed values are de, en/),
    ]);
  });

  it.each([
    [['--criteria', 'large_scale'], false],
    [['--trigger', 'high_risk_ai'], true],
    [[], null],
  ])('answers %j', async (flags, required) => {
    const r = await cli(['--db', db, 'dsfa', 'screen', '--json', ...flags]);
    if (required === null) {
      expect(r.code).toBe(2);
      return;
    }
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).required).toBe(required);
  });

  it('refuses unknown criteria, listing the allowed ones', async () => {
    const r = await cli(['--db', db, 'dsfa', 'screen', '--criteria', 'cloud']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scoring, automated_decision/);
  });
});

/** A record with every part of Art. 35(7) filled in, the way a consultant writes one. */
const consultantBody = {
  title: 'Videoüberwachung im Lager',
  controller: 'Muster GmbH',
  processing_activity: 'Videoüberwachung der Lagerhalle',
  description:
    'Die Halle wird mit **sechs Kameras** überwacht; ausgewertet wird *nur* im Anlassfall.\n\n' +
    '1. Meldung eines Vorfalls\n2. Sichtung durch zwei Berechtigte\n\n- [x] Hinweisschilder angebracht\n- [ ] Betriebsrat informiert',
  purposes: ['Aufklärung von Diebstählen'],
  data_subjects: ['Beschäftigte', 'Fahrer von Lieferanten'],
  data_categories: ['Videobilder', 'Zeitstempel'],
  necessity_assessment: 'Mildere Mittel reichten nicht aus: 2025 gab es **14 Diebstähle**.',
  risks: [
    { title: 'Leistungskontrolle der Beschäftigten', likelihood: 'medium', severity: 'high' },
    { title: 'Weitergabe an Dritte', likelihood: 'low', severity: 'critical' },
  ],
  measure_details: [
    { measure: 'Verschlüsselte Speicherung', implemented: true },
    { measure: 'Betriebsvereinbarung', implemented: false, description: 'Entwurf liegt vor' },
  ],
  dpo_opinion: 'Vertretbar, **sofern** die Betriebsvereinbarung vor dem Start geschlossen wird.',
  dpo_name: 'Dr. Erika Mustermann',
  dpo_opinion_date: '2026-11-20',
  review_date: '2027-11-20',
  ai_use_case_modules: aiModules,
};

describe('dsfa report', () => {
  const db = tmpDb();
  const run = (args: string[], env?: Record<string, string>) =>
    cli(['--db', db, '--tenant', 'kanzlei-intern', ...args], { env });
  let id = '';
  let consultant = '';
  beforeAll(async () => {
    id = JSON.parse(
      (
        await run([
          'dsfa',
          'create',
          '--json',
          '--title',
          'Gesundheitsdaten-Plattform für Ärzte',
          '--measure',
          'Verschlüsselung (AES-256)',
          '--ai-modules',
          writeJson(aiModules),
        ])
      ).stdout,
    ).id;
    await run(['dsfa', 'set-status', id, 'in-review']);
    consultant = JSON.parse((await run(['dsfa', 'create', '--json', '-f', writeJson(consultantBody)])).stdout).id;
    await run(['dsfa', 'set-status', consultant, 'in-review']);
    await run(['dsfa', 'set-status', consultant, 'approved', '--approved-by', 'Max Muster']);
  });
  function writeJson(v: unknown) {
    const f = join(tmp(), 'm.json');
    writeFileSync(f, JSON.stringify(v));
    return f;
  }

  it('writes German for German content by default, with German times in the zone named', async () => {
    const r = await run(['dsfa', 'report', id, '--time-zone', 'Europe/Berlin']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Gesundheitsdaten-Plattform für Ärzte');
    expect(r.stdout).toContain('_Datenschutz-Folgenabschätzung nach Art. 35 DSGVO · Stand: ');
    expect(r.stdout).toMatch(/Erstellt:\*\* \d\d\.\d\d\.20\d\d, \d\d:\d\d MES?Z von tester/);
    expect(r.stdout).toContain('## 3. Risiken für die Rechte und Freiheiten der betroffenen Personen');
    expect(r.stdout).toMatch(/\| Statusänderung \| tester \| Entwurf → In Prüfung \|/);
    expect(r.stdout).toContain('A.1 Bewerber-Scoring');
    expect(r.stdout).not.toMatch(/—|\| - \|/); // empty fields are left out, never dashes
  });

  it('writes English with --lang en, and takes the zone from TZ', async () => {
    const r = await run(['dsfa', 'report', id, '--lang', 'en'], { TZ: 'UTC' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('_Data protection impact assessment (Art. 35 GDPR) · As of: ');
    expect(r.stdout).toMatch(/Created:\*\* \d{1,2} \w{3} 20\d\d, \d\d:\d\d UTC by tester/);
    expect(r.stdout).toContain('## 2. Necessity and proportionality (Art. 35(7)(b) GDPR)');
    expect(r.stdout).toContain('_Not stated._');
    // a TZ that is no IANA name (a POSIX rule) falls back to the system's zone instead of refusing
    expect((await run(['dsfa', 'report', id], { TZ: 'CET-1CEST' })).code).toBe(0);
  });

  it('leaves out the internal id and the tenant unless --include-ids', async () => {
    const r = await run(['dsfa', 'report', consultant]);
    expect(r.stdout).not.toContain(consultant);
    expect(r.stdout).not.toContain('kanzlei-intern');
    const ids = await run(['dsfa', 'report', consultant, '--include-ids']);
    expect(ids.stdout).toContain(`**Kennung:** ${consultant}`);
    expect(ids.stdout).toContain('**Mandant:** kanzlei-intern');
  });

  it('shows the parts of Art. 35(7), planned and implemented measures, the DPO and the sign-off', async () => {
    const r = await run(['dsfa', 'report', consultant, '--time-zone', 'Europe/Berlin', '--no-audit-trail']);
    const md = r.stdout;
    expect(md).toContain('**Verantwortlicher:** Muster GmbH');
    expect(md).toContain(consultantBody.description); // Markdown passes through
    expect(md).toContain('| R1 | Leistungskontrolle der Beschäftigten | mittel | hoch | hoch |');
    expect(md).toContain('| R2 | Weitergabe an Dritte | niedrig | kritisch | mittel |');
    expect(md).toMatch(/### Umgesetzte Maßnahmen\n\n- \[x\] Verschlüsselte Speicherung\n/);
    expect(md).toMatch(/### Geplante Maßnahmen\n\n- \[ \] Betriebsvereinbarung – Entwurf liegt vor\n/);
    expect(md).toContain('**Datenschutzbeauftragte(r):** Dr. Erika Mustermann');
    expect(md).toContain('**Freigegeben von:** Max Muster');
    expect(md).toContain('**Freigegebener Inhalt:** entspricht dem hier dargestellten Inhalt');
    expect(md).toContain('**Nächste Überprüfung:** 20.11.2027');
    expect(md).not.toContain('Änderungsverlauf');
  });

  it('renders a PDF whose pages show the report: text, shaded risk matrix, footer on every page', async (ctx) => {
    const out = join(tmp(), 'sub', 'report.pdf');
    const r = await run(['dsfa', 'report', consultant, '--format', 'pdf', '-o', out, '--time-zone', 'Europe/Berlin']);
    expect([r.code, r.stderr]).toEqual([0, `wrote ${out}\n`]);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    requirePrograms(ctx, 'pdftotext', 'pdftoppm');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    const pages = renderPages(out);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain(`Seite 1 von ${pages.length}`);
    expect(text).toContain('Videoüberwachung im Lager');
    expect(text).toContain('Notwendigkeit und Verhältnismäßigkeit');
    expect(text).toContain('Weitergabe an Dritte'); // a risk, in its table
    expect(text).not.toMatch(/\*\*|\[x\]|\[ \]/); // Markdown is rendered, not printed
    pages.forEach((page, i) => {
      expect(ink(page), `page ${i + 1} has content`).toBeGreaterThan(0.01);
      expect(ink(page, 0.93, 0.97), `page ${i + 1} has a footer`).toBeGreaterThan(0.001);
    });
    // the matrix's cells are shaded by level: green for low, red for critical
    const shaded = (hex: string) => pages.reduce((n, p) => n + pixelsOf(p, hex), 0);
    expect(shaded(TONE_COLOURS.low)).toBeGreaterThan(100);
    expect(shaded(TONE_COLOURS.critical)).toBeGreaterThan(100);
  });

  it('writes a Word document with German labels, list paragraphs, checkboxes and page numbers', async () => {
    const out = join(tmp(), 'report.docx');
    const r = await run(['dsfa', 'report', consultant, '--format', 'docx', '-o', out]);
    expect([r.code, r.stderr]).toEqual([0, `wrote ${out}\n`]);
    const docx = readDocx(out);
    expect(docx.parts).toContain('word/numbering.xml');
    expect(docx.language).toBe('de-DE');
    const texts = docx.body.map((p) => p.text);
    expect(docx.body[0]).toMatchObject({ style: 'Title', text: 'Videoüberwachung im Lager' });
    expect(docx.body).toContainEqual({
      style: 'Heading2',
      list: false,
      text: '4. Abhilfemaßnahmen (Art. 35 Abs. 7 lit. d DSGVO)',
    });
    expect(texts).toContain('☒ Verschlüsselte Speicherung');
    expect(texts).toContain('☐ Betriebsvereinbarung – Entwurf liegt vor');
    expect(docx.body.find((p) => p.text === 'Meldung eines Vorfalls')?.list).toBe(true);
    expect(texts.join('\n')).not.toMatch(/\*\*|—/);
    expect(docx.shades).toContain(TONE_COLOURS.critical.slice(1).toUpperCase());
    expect(docx.footer[0]!.text).toMatch(/^Videoüberwachung im Lager · Stand: .*Seite {2}von $/);
    expect(docx.footerFields.filter(Boolean)).toEqual(['PAGE', 'NUMPAGES']);
  });

  it.each([
    [['--format', 'pdf'], /a PDF report needs -o FILE/],
    [['--format', 'docx'], /a DOCX report needs -o FILE/],
    [['--format', 'odt'], /Allowed choices are md, pdf, docx/],
    [['--lang', 'fr'], /Allowed choices are de, en/],
    [['--time-zone', 'Mars/Olympus'], /unknown time zone "Mars\/Olympus": use an IANA name such as Europe\/Berlin/],
  ])('refuses %j with exit 2 and one line', async (flags, message) => {
    const r = await run(['dsfa', 'report', id, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

describe('dsfa create and update with the optional fields', () => {
  const db = tmpDb();
  const run = (args: string[]) => cli(['--db', db, ...args]);

  it('takes them from flags, one item per list flag, and marks measures implemented or planned', async () => {
    const d = JSON.parse(
      (
        await run([
          'dsfa',
          'create',
          '--json',
          '--title',
          'Bewerberportal',
          '--controller',
          'Muster GmbH',
          '--purpose',
          'Auswahl, Einstellung',
          '--data-subject',
          'Bewerber',
          '--necessity-assessment',
          'Nur Pflichtangaben.',
          '--risks',
          join(tmp(), 'none.json'),
        ])
      ).stdout || '{}',
    );
    expect(d).toEqual({}); // a missing risks file: nothing created
    const created = await run([
      'dsfa',
      'create',
      '--json',
      '--title',
      'Bewerberportal',
      '--controller',
      'Muster GmbH',
      '--purpose',
      'Auswahl, Einstellung',
      '--data-subject',
      'Bewerber',
      '--measure',
      'TLS',
      '--implemented-measure',
      'TLS',
      '--planned-measure',
      'Löschkonzept',
      '--dpo-name',
      'Erika Mustermann',
      '--dpo-opinion-date',
      '2026-11-20',
      '--review-date',
      '2027-11-20',
    ]);
    expect(created.code).toBe(0);
    const rec = JSON.parse(created.stdout);
    expect(rec).toMatchObject({
      controller: 'Muster GmbH',
      purposes: ['Auswahl, Einstellung'],
      data_subjects: ['Bewerber'],
      measures: ['TLS', 'Löschkonzept'],
      measure_details: [
        { measure: 'TLS', implemented: true },
        { measure: 'Löschkonzept', implemented: false },
      ],
      dpo_opinion_date: '2026-11-20',
    });
    expect(rec).not.toHaveProperty('risks');
    const u = await run([
      'dsfa',
      'update',
      rec.id,
      '--json',
      '--implemented-measure',
      'Löschkonzept',
      '--add-purpose',
      'Statistik',
    ]);
    expect(JSON.parse(u.stdout)).toMatchObject({
      purposes: ['Auswahl, Einstellung', 'Statistik'],
      measure_details: [
        { measure: 'TLS', implemented: true },
        { measure: 'Löschkonzept', implemented: true },
      ],
    });
    const cleared = await run(['dsfa', 'update', rec.id, '--json', '--controller', '', '--remove-measure', 'TLS']);
    const after = JSON.parse(cleared.stdout);
    expect(after).not.toHaveProperty('controller');
    expect(after.measure_details).toEqual([{ measure: 'Löschkonzept', implemented: true }]);
    const piped = await run(['dsfa', 'get', rec.id]);
    expect(piped.stdout).toContain('measure_details\t["[x] Löschkonzept"]');
    const bad = await run(['dsfa', 'update', rec.id, '--review-date', '31.12.2027']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining('--review-date: expected a date such as 2026-12-31'),
    ]);
  });
});

describe('remote mode gives the same output and exit codes as the local store', () => {
  const srv = useServer();
  const localDb = tmpDb();
  const scrub = (s: string) =>
    s
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+/g, 'TS');

  it('runs the same session on both faces', async () => {
    const session: string[][] = [
      ['dsfa', 'create', '--title', 'Parität', '--risk-level', 'low'],
      ['dsfa', 'create', '--json', '--title', 'Zwei', '--status', 'approved'],
      ['dsfa', 'list'],
      ['dsfa', 'list', '--json', '--status', 'approved'],
      ['dsfa', 'stats', '--json'],
      ['dsfa', 'stats'],
      ['dsfa', 'audit-log'],
      ['dsfa', 'create', '--title', 'x', '--status', 'bad'],
      ['dsfa', 'list', '--limit', '0'],
      ['dsfa', 'list', '--limit', 'x'],
      ['dsfa', 'get', 'missing-id'],
    ];
    for (const args of session) {
      const l = await cli(['--db', localDb, ...args]);
      const r = await cli(['--remote', srv.url, ...args]);
      expect({ args, code: r.code, out: scrub(r.stdout), err: scrub(r.stderr) }).toEqual({
        args,
        code: l.code,
        out: scrub(l.stdout),
        err: scrub(l.stderr),
      });
    }
  });

  it('writes the same report through a server as from the embedded store', async () => {
    const body = join(tmp(), 'body.json');
    writeFileSync(body, JSON.stringify(consultantBody));
    const report = async (face: string[]) => {
      const id = JSON.parse((await cli([...face, 'dsfa', 'create', '--json', '-f', body])).stdout).id;
      await cli([...face, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'Max Muster']);
      const r = await cli([...face, 'dsfa', 'report', id.slice(0, 12), '--time-zone', 'UTC']);
      expect(r.code).toBe(0);
      return r.stdout.replace(/\d\d\.\d\d\.\d{4}, \d\d:\d\d UTC/g, 'TIME');
    };
    const remote = await report(['--remote', srv.url]);
    expect(remote).toContain('## 6. Freigabe');
    expect(remote).toContain('**Freigegebener Inhalt:** entspricht dem hier dargestellten Inhalt');
    expect(remote).toEqual(await report(['--db', localDb]));
  });

  it('takes the URL from COMPLIANCE_REMOTE, with or without /sdk/v1', async () => {
    expect((await cli(['dsfa', 'list'], { env: { COMPLIANCE_REMOTE: `${srv.url}/sdk/v1/` } })).code).toBe(0);
  });

  it('names the URL when the server cannot be reached', async () => {
    const port = await freePort();
    const r = await cli(['--remote', `http://127.0.0.1:${port}`, 'dsfa', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach remote server http://127.0.0.1:${port}/sdk/v1: connection refused`);
    const bad = await cli(['--remote', 'not a url', 'dsfa', 'list']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a URL/);
  });

  it('exits 4 on a wrong API key and works with the right one', async () => {
    const l = await createLocalBackend(tmpDb());
    const db = l.location;
    const key = JSON.parse((await cli(['--db', db, 'keys', 'create', '--name', 'ci', '--json'])).stdout).key as string;
    expect(key).toMatch(/^cmp_/);
    const s = await startServer(l);
    try {
      const wrong = await cli(['--remote', s.url, '--api-key', 'cmp_000000000000_nope', 'dsfa', 'list']);
      expect(wrong.code).toBe(4);
      expect(wrong.stderr).toMatch(/invalid API key/);
      expect((await cli(['--remote', s.url, 'dsfa', 'list'])).code).toBe(4);
      expect((await cli(['--remote', s.url, 'dsfa', 'list'], { env: { COMPLIANCE_API_KEY: key } })).code).toBe(0);
      const listed = await cli(['--db', db, 'keys', 'list']);
      expect(listed.stdout).toContain('ci');
      expect(listed.stdout).not.toContain(key);
    } finally {
      await s.close();
      await l.close();
    }
  });
});

describe('the store file', () => {
  it('says clearly when the file is not an SQLite database, and leaves it alone', async () => {
    const f = join(tmp(), 'notes.db');
    writeFileSync(f, 'these are my notes, not a database\n'.repeat(100));
    const before = readFileSync(f);
    const r = await cli(['--db', f, 'dsfa', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not an SQLite database/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(f).equals(before)).toBe(true);
  });

  it('says clearly when the store cannot be created', async () => {
    const f = join(tmp(), 'plain-file');
    writeFileSync(f, 'x');
    const r = await cli(['--db', join(f, 'sub', 'store.db'), 'dsfa', 'create', '--title', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot open database/);
  });

  it('uses $XDG_DATA_HOME/compliance/compliance.db by default', async () => {
    const xdg = tmp();
    expect((await cli(['dsfa', 'create', '--title', 'x'], { env: { XDG_DATA_HOME: xdg } })).code).toBe(0);
    expect(existsSync(join(xdg, 'compliance', 'compliance.db'))).toBe(true);
  });

  it('reports status and takes an online backup that opens as a store', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'dsfa', 'create', '--title', 'gesichert']);
    const status = JSON.parse((await cli(['--db', db, 'db', 'status', '--json'])).stdout);
    expect(status).toMatchObject({
      journal_mode: 'wal',
      schema_version: status.migrations_known,
      tables: { dsfa: 1, dsfa_audit: 1 },
    });
    const target = join(tmp(), 'backup.db');
    expect((await cli(['--db', db, 'db', 'backup', target])).code).toBe(0);
    const copy = new Database(target, { readonly: true });
    expect((copy.prepare('select title from dsfa').get() as { title: string }).title).toBe('gesichert');
    copy.close();
    expect((await cli(['--db', db, 'db', 'backup', target])).code).toBe(5);
    expect((await cli(['--db', db, 'db', 'backup', target, '--force'])).code).toBe(0);
  });

  it('keeps db commands local (keys work remotely with an admin key: keys-scopes.test.ts)', async () => {
    const r = await cli(['--remote', 'http://127.0.0.1:9', 'db', 'status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/embedded store only/);
  });
});
