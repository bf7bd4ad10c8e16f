import { describe, expect, it } from 'vitest';
import type { Block, ReportDoc } from '../../src/domain/report.js';
import { formatDate, formatDateTime, guessLanguage } from '../../src/domain/report-locale.js';
import { highest, riskLevel } from '../../src/domain/dsfa/risk-matrix.js';
import { dsfaLanguage, dsfaReport } from '../../src/domain/dsfa/dsfa.report.js';
import { contentHash } from '../../src/domain/dsfa/dsfa.workflow.js';
import type { Dsfa, DsfaAuditEntry } from '../../src/domain/dsfa/dsfa.schema.js';
import { markdownBlocks } from '../../src/services/report/markdown-blocks.js';
import { demoteHeadings, renderMarkdown } from '../../src/services/report/markdown.js';

const record: Dsfa = {
  id: '01a2118a-482b-7003-b76a-ce8b03f1a213',
  tenant_id: 'kanzlei-intern',
  title: 'Videoüberwachung Lager',
  description: 'Die Halle wird mit **sechs Kameras** überwacht.\n\n- [x] Schilder\n- [ ] Betriebsrat',
  status: 'draft',
  risk_level: 'high',
  processing_activity: '',
  data_categories: ['Videobilder'],
  recipients: [],
  measures: ['Schilder', 'Verschlüsselung', 'Schulung'],
  approved_by: null,
  approved_at: null,
  created_by: 'beraterin',
  created_at: '2026-11-25T13:30:00.000',
  updated_at: '2026-07-01T08:05:00.000',
  ai_use_case_modules: [
    {
      id: '01a2118a-0000-7000-8000-00000000aaaa',
      use_case_type: 'video_image',
      name: 'Kennzeichenerkennung',
      created_at: '2026-11-25T13:30:00.000',
      updated_at: '2026-11-25T13:30:00.000',
    },
  ],
  risks: [{ title: 'Leistungskontrolle', likelihood: 'medium', severity: 'high' }],
  measure_details: [
    { measure: 'Schilder', implemented: true },
    { measure: 'Verschlüsselung', implemented: false, description: 'AES-256' },
  ],
};
const options = { lang: 'de', timeZone: 'Europe/Berlin', generatedAt: new Date('2026-11-25T14:00:00Z') } as const;

const texts = (blocks: Block[]): string =>
  JSON.stringify(blocks)
    .replace(/\\n/g, ' ')
    .replace(/"(kind|level|muted|checked|widths|tones|ordered|bold|italic)":[^,}]*,?/g, '');
const headings = (doc: ReportDoc) => doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text);

describe('risk level from likelihood × severity', () => {
  it.each([
    ['low', 'low', 'low'],
    ['low', 'medium', 'low'],
    ['medium', 'medium', 'medium'],
    ['low', 'high', 'medium'],
    ['low', 'critical', 'medium'],
    ['medium', 'high', 'high'],
    ['high', 'high', 'high'],
    ['critical', 'medium', 'high'],
    ['high', 'critical', 'critical'],
    ['critical', 'critical', 'critical'],
  ] as const)('likelihood %s, severity %s: %s', (l, s, level) => {
    expect(riskLevel(l, s)).toBe(level);
    expect(riskLevel(s, l)).toBe(level);
  });
});

describe('the highest of some levels', () => {
  it.each([
    [[], undefined],
    [['low'], 'low'],
    [['low', 'medium'], 'medium'],
    [['critical', 'low'], 'critical'],
    [['medium', 'critical', 'high'], 'critical'],
    [['high', 'low', 'high'], 'high'],
  ] as const)('%j: %s', (levels, top) => {
    expect(highest([...levels])).toBe(top);
  });
});

describe('the language of a report', () => {
  it.each([
    ['Videoüberwachung Lager', 'de'],
    ['Die Verarbeitung der Bewerberdaten durch die Personalabteilung', 'de'],
    ['Customer newsletter', 'en'],
    [
      'KI-Bewerberauswahl\nScreening of 2026-11-25: DSFA required. Mandatory cases: the use of a high-risk AI system',
      'en',
    ],
    ['Müller GmbH: processing of the applicant data for the recruiting of staff', 'en'],
    ['', 'en'],
    ['123 – 456', 'en'],
    // one function word decides when nothing else does: each word of either list counts
    ['Kameras der Halle', 'de'],
    ['Kameras im Lager', 'de'],
    ['Kameras vor Ort', 'de'],
    ['Cameras of site', 'en'],
    ['Kameras in Halle 3', 'en'],
    // a German function word against an English one is a tie, and a tie reads as English
    ['die cameras the Halle', 'en'],
    ['die cameras the Straße', 'de'],
  ] as const)('%j reads as %s', (text, lang) => {
    expect(guessLanguage(text)).toBe(lang);
  });

  it('looks at title, processing activity, description and necessity assessment', () => {
    expect(dsfaLanguage({ ...record, title: 'Newsletter', description: '' })).toBe('en');
    expect(
      dsfaLanguage({ ...record, title: 'Newsletter', description: '', necessity_assessment: 'Für den Versand nötig' }),
    ).toBe('de');
    // the texts are read as separate texts: a word at the end of one does not run into the next
    expect(dsfaLanguage({ ...record, title: 'Lager', processing_activity: 'und', description: 'Kameras' })).toBe('de');
  });
});

describe('dates and times', () => {
  it.each([
    ['2026-11-25T13:30:00.000', 'de', 'Europe/Berlin', '25.11.2026, 14:30 MEZ'],
    ['2026-07-01T08:05:00.000', 'de', 'Europe/Berlin', '01.07.2026, 10:05 MESZ'],
    ['2026-11-25T13:30:00.000', 'de', 'UTC', '25.11.2026, 13:30 UTC'],
    ['2026-11-25T13:30:00.000', 'en', 'Europe/Berlin', '25 Nov 2026, 14:30 CET'],
    ['2026-11-25T13:30:00Z', 'en', 'UTC', '25 Nov 2026, 13:30 UTC'],
    ['2026-11-25T13:30:00z', 'en', 'UTC', '25 Nov 2026, 13:30 UTC'],
    // a timestamp with an offset is that moment, not read as UTC
    ['2026-11-25T14:30:00+01:00', 'de', 'UTC', '25.11.2026, 13:30 UTC'],
    ['2026-11-25T08:30:00-05:00', 'en', 'Europe/Berlin', '25 Nov 2026, 14:30 CET'],
    ['2026-11-25T13:30:00', 'de', 'UTC', '25.11.2026, 13:30 UTC'],
    // days before the 10th: two digits in German, one in English
    ['2026-07-01T08:05:00.000', 'en', 'UTC', '1 Jul 2026, 08:05 UTC'],
    ['2026-07-01T08:05:00.000', 'de', 'UTC', '01.07.2026, 08:05 UTC'],
  ] as const)('%s in %s (%s): %s', (ts, lang, zone, text) => {
    expect(formatDateTime(ts, lang, zone)).toBe(text);
  });

  it('takes a Date as the moment it is', () => {
    expect(formatDateTime(new Date('2026-11-25T13:30:00Z'), 'de', 'Europe/Berlin')).toBe('25.11.2026, 14:30 MEZ');
  });

  // Node applies a change of TZ in the main thread of a process, so this runs with vitest's forks (npm test); in worker
  // threads (Stryker's vitest runner) the zone stays that of the machine and the test can tell nothing apart
  it('reads a timestamp without a zone as UTC, whatever zone the process runs in', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(formatDateTime('2026-11-25T13:30:00.000', 'en', 'UTC')).toBe('25 Nov 2026, 13:30 UTC');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('writes calendar days without a zone', () => {
    expect(formatDate('2027-01-05', 'de')).toBe('05.01.2027');
    expect(formatDate('2027-01-05', 'en')).toBe('5 Jan 2027');
  });
});

describe('the DSFA report', () => {
  it('follows Art. 35(7): description, necessity, risks, measures, DPO, sign-off, then the appendices', () => {
    const doc = dsfaReport(record, [], options);
    expect(headings(doc)).toEqual([
      '1. Systematische Beschreibung der Verarbeitung (Art. 35 Abs. 7 lit. a DSGVO)',
      'Kategorien personenbezogener Daten',
      '2. Notwendigkeit und Verhältnismäßigkeit (Art. 35 Abs. 7 lit. b DSGVO)',
      '3. Risiken für die Rechte und Freiheiten der betroffenen Personen (Art. 35 Abs. 7 lit. c DSGVO)',
      'Risikomatrix',
      '4. Abhilfemaßnahmen (Art. 35 Abs. 7 lit. d DSGVO)',
      'Umgesetzte Maßnahmen',
      'Geplante Maßnahmen',
      'Ohne Angabe zum Umsetzungsstand',
      '5. Stellungnahme des Datenschutzbeauftragten (Art. 35 Abs. 2 DSGVO)',
      '6. Freigabe',
      'Anhang A: KI-Anwendungsfälle',
      'A.1 Kennzeichenerkennung',
    ]);
    expect(doc.subtitle).toBe('Datenschutz-Folgenabschätzung nach Art. 35 DSGVO · Stand: 25.11.2026, 15:00 MEZ');
  });

  it('says "Keine Angaben." for a part without content, and prints no dashes for empty fields', () => {
    const doc = dsfaReport(record, [], options);
    const all = texts(doc.blocks);
    expect(all.match(/Keine Angaben\./g)).toHaveLength(2); // necessity and the DPO's opinion
    expect(all).not.toMatch(/—|"-"/);
    expect(all).not.toContain('Verarbeitungstätigkeit'); // empty processing activity: left out
    expect(all).not.toMatch(/Modelltyp|Anbieter|Rechtsgrundlage/); // AI module fields that are not set
    expect(all).toContain('Die Folgenabschätzung ist nicht freigegeben.');
  });

  it('leaves out internal ids and the tenant unless asked for', () => {
    const plain = texts(dsfaReport(record, [], options).blocks);
    expect(plain).not.toContain(record.id);
    expect(plain).not.toContain('kanzlei-intern');
    expect(plain).not.toContain(record.ai_use_case_modules[0]!.id);
    const withIds = texts(dsfaReport(record, [], { ...options, includeIds: true }).blocks);
    expect(withIds).toContain(record.id);
    expect(withIds).toContain('kanzlei-intern');
  });

  it('rates each risk and places it in the matrix, shaded by level', () => {
    const doc = dsfaReport(record, [], options);
    const [table, matrix] = doc.blocks.filter((b) => b.kind === 'table') as Array<Extract<Block, { kind: 'table' }>>;
    expect(table!.rows).toEqual([['R1', 'Leistungskontrolle', 'mittel', 'hoch', 'hoch']]);
    expect(table!.tones![0]![4]).toBe('high');
    expect(matrix!.rows.map((r) => r[0])).toEqual(['kritisch', 'hoch', 'mittel', 'niedrig']);
    expect(matrix!.rows[2]).toEqual(['mittel', '', '', 'R1', '']);
    expect(matrix!.tones![0]).toEqual([undefined, 'medium', 'high', 'critical', 'critical']);
  });

  it('sorts measures into implemented, planned and not stated, with checkboxes', () => {
    const lists = dsfaReport(record, [], options).blocks.filter((b) => b.kind === 'list') as Array<
      Extract<Block, { kind: 'list' }>
    >;
    const measureLists = lists
      .slice(-3)
      .map((l) => l.items.map((i) => [i.spans.map((s) => s.text).join(''), i.checked]));
    expect(measureLists).toEqual([
      [['Schilder', true]],
      [['Verschlüsselung – AES-256', false]],
      [['Schulung', undefined]],
    ]);
  });

  it('tells in English whether the approved content is the content shown', () => {
    const approved: Dsfa = {
      ...record,
      status: 'approved',
      approved_by: 'Max Muster',
      approved_at: '2026-11-25T13:30:00.000',
    };
    const entry = (hash: string): DsfaAuditEntry => ({
      id: 'a',
      tenant_id: 't',
      dsfa_id: record.id,
      action: 'STATUS_CHANGE',
      changed_by: 'dpo',
      old_values: { status: 'in-review' },
      new_values: { status: 'approved', approved_at: approved.approved_at, content_hash: hash },
      created_at: approved.approved_at!,
    });
    const en = { ...options, lang: 'en' } as const;
    const current = texts(dsfaReport(approved, [entry(contentHash(approved))], en).blocks);
    expect(current).toContain('is the content shown here');
    expect(current).toContain('25 Nov 2026, 14:30 CET');
    expect(current).toContain('Status change');
    expect(current).toContain('In review → Approved');
    const changed = texts(dsfaReport(approved, [entry('0'.repeat(64))], en).blocks);
    expect(changed).toContain('CHANGED since approval');
    expect(texts(dsfaReport(approved, [entry('x')], { ...en, auditTrail: false }).blocks)).not.toContain(
      'Status change',
    );
  });
});

describe('Markdown in descriptions', () => {
  it('reads paragraphs, emphasis, nested and numbered lists, checkboxes and quotes', () => {
    const blocks = markdownBlocks(
      'Mit **fett**, *kursiv* und `code` &amp; Co.\n\n1. eins\n2. zwei\n   - [x] erledigt\n   - [ ] offen\n\n> Zitat\n\n## Unterpunkt',
    );
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        spans: [
          { text: 'Mit ' },
          { text: 'fett', bold: true },
          { text: ', ' },
          { text: 'kursiv', italic: true },
          { text: ' und ' },
          { text: 'code', code: true },
          { text: ' & Co.' },
        ],
      },
      {
        kind: 'list',
        ordered: true,
        items: [
          { spans: [{ text: 'eins' }] },
          {
            spans: [{ text: 'zwei' }],
            children: [
              {
                kind: 'list',
                ordered: false,
                items: [
                  { spans: [{ text: 'erledigt' }], checked: true },
                  { spans: [{ text: 'offen' }], checked: false },
                ],
              },
            ],
          },
        ],
      },
      { kind: 'quote', blocks: [{ kind: 'paragraph', spans: [{ text: 'Zitat' }] }] },
      { kind: 'paragraph', spans: [{ text: 'Unterpunkt', bold: true }] },
    ]);
  });

  it('passes through unchanged in Markdown output, where our own texts are escaped', () => {
    const md = renderMarkdown(dsfaReport({ ...record, title: 'Scoring *neu*' }, [], options));
    expect(md).toContain('# Scoring \\*neu\\*');
    expect(md).toContain(record.description);
    expect(md).toContain('- [x] Schilder\n');
    expect(md).toContain('- [ ] Verschlüsselung – AES-256\n');
  });

  it("keeps a person's headings below the report's own sections in Markdown output", () => {
    const necessity = '## Zweck\n\nDie Auswahl ist nötig.\n\n### Details\n\nText';
    const md = renderMarkdown(dsfaReport({ ...record, necessity_assessment: necessity }, [], options));
    const headings = md.split('\n').filter((l) => l.startsWith('#'));
    const from = headings.indexOf('## 2. Notwendigkeit und Verhältnismäßigkeit (Art. 35 Abs. 7 lit. b DSGVO)');
    expect(headings.slice(from, from + 4)).toEqual([
      '## 2. Notwendigkeit und Verhältnismäßigkeit (Art. 35 Abs. 7 lit. b DSGVO)',
      '#### Zweck',
      '##### Details',
      '## 3. Risiken für die Rechte und Freiheiten der betroffenen Personen (Art. 35 Abs. 7 lit. c DSGVO)',
    ]);
  });

  it.each([
    ['# A', '#### A'],
    ['## A ##\ntext', '#### A\ntext'],
    ['# A\n\n## B\n\n### C\n\n#### D', '#### A\n\n##### B\n\n###### C\n\n###### D'],
    ['#### A\n\n###### C', '#### A\n\n###### C'],
    ['Zweck\n=====\n\n## Unterpunkt', '#### Zweck\n\n##### Unterpunkt'],
    ['Zweck\nzweite Zeile\n---', '#### Zweck zweite Zeile'],
    ['> ## Zitat\n> mehr\n\n# Titel', '> ##### Zitat\n> mehr\n\n#### Titel'],
    ['```\n## kein Titel\n```', '```\n## kein Titel\n```'],
    ['Text mit # Raute', 'Text mit # Raute'],
    ['- a\n\n---\n\n**fett**', '- a\n\n---\n\n**fett**'],
  ])('demotes %j to %j and keeps everything else as written', (input, output) => {
    expect(demoteHeadings(input)).toBe(output);
  });
});
