// The whole DSFA report, block by block, in German and in English: every label and every word the reader sees.
import { describe, expect, it } from 'vitest';
import type { Block, ReportDoc, Span } from '../../src/domain/report.js';
import { dsfaLanguage, dsfaReport, type DsfaReportOptions } from '../../src/domain/dsfa/dsfa.report.js';
import { contentHash } from '../../src/domain/dsfa/dsfa.workflow.js';
import type { AiUseCaseModule, Dsfa, DsfaAuditEntry } from '../../src/domain/dsfa/dsfa.schema.js';

const AT = '2026-03-02T07:05:00.000';
const aiModule = (m: Partial<AiUseCaseModule> & Pick<AiUseCaseModule, 'id' | 'use_case_type'>): AiUseCaseModule => ({
  created_at: AT,
  updated_at: AT,
  ...m,
});

/** An approved assessment with every field set and an AI module of every use case. */
const full: Dsfa = {
  id: '01a2118a-482b-7003-b76a-ce8b03f1a213',
  tenant_id: 'kanzlei-intern',
  title: 'Bewerbermanagement',
  description: 'Bewerbungen **prüfen**',
  status: 'approved',
  risk_level: 'high',
  processing_activity: 'Personalgewinnung',
  data_categories: ['Lebenslauf', 'Zeugnisse'],
  recipients: ['Fachabteilung'],
  measures: ['Verschlüsselung', 'Löschkonzept', 'Schulung', 'Pseudonymisierung'],
  approved_by: 'Dr. Datenschutz',
  approved_at: '2026-07-01T08:05:00.000',
  created_by: 'beraterin',
  created_at: AT,
  updated_at: '2026-07-01T08:05:00.000',
  ai_use_case_modules: [
    aiModule({
      id: 'm-1',
      use_case_type: 'adm_scoring',
      name: 'Vorauswahl',
      model_type: 'Gradient Boosting',
      model_description: 'bewertet Lebensläufe',
      provider: 'HR-Soft GmbH',
      provider_country: 'USA',
      third_country_transfer: true,
      input_data_categories: ['Lebenslauf', 'Anschreiben'],
      output_data_categories: ['Punktzahl'],
      involves_special_categories: false,
      data_subjects: ['Bewerber'],
      processing_purpose: 'Vorauswahl',
      legal_basis: 'Art. 6 Abs. 1 lit. b DSGVO',
      art22_assessment: { applies: true, safeguards: ['Widerspruch', { by: 'Mensch' }, null, '', 3] },
      risk_criteria: [
        { id: 'K1', applies: true, severity: 'high' },
        { id: 'K2', applies: false },
      ],
      ai_act_risk_class: 'high',
      ai_act_justification: 'Anhang III Nr. 4',
      wp248_criteria_met: [
        'scoring',
        'automated_decision',
        'systematic_monitoring',
        'sensitive_data',
        'large_scale',
        'matching_datasets',
        'vulnerable_subjects',
        'innovative_technology',
        'blocks_rights',
        'own_criterion',
      ],
      risks: [
        { title: 'Diskriminierung', description: 'Verzerrung', likelihood: 'medium', severity: 'critical' },
        { title: 'Intransparenz' },
      ],
      mitigations: [
        { title: 'Bias-Audit', description: 'jährlich', implemented: true },
        { title: 'Erklärung', implemented: false },
        { description: 'Stichproben' },
      ],
      privacy_by_design_measures: [{ category: 'Minimierung', description: 'nur Pflichtfelder', implemented: true }],
      review_triggers: [
        { type: 'Modellwechsel', description: 'neues Modell', monitoring_interval: 'quartalsweise' },
        { type: 'Beschwerde', description: '', monitoring_interval: '' },
      ],
    }),
    aiModule({
      id: 'm-2',
      use_case_type: 'chatbot_nlp',
      name: '',
      third_country_transfer: false,
      involves_special_categories: true,
      art22_assessment: { applies: false, safeguards: [] },
      ai_act_risk_class: 'prohibited',
    }),
    aiModule({ id: 'm-3', use_case_type: 'recommendation', ai_act_risk_class: 'limited' }),
    aiModule({ id: 'm-4', use_case_type: 'video_image', ai_act_risk_class: 'minimal' }),
    aiModule({ id: 'm-5', use_case_type: 'biometrics' }),
    aiModule({ id: 'm-6', use_case_type: 'iot_sensors' }),
    aiModule({ id: 'm-7', use_case_type: 'generative_ai' }),
    aiModule({ id: 'm-8', use_case_type: 'custom' }),
  ],
  controller: 'Muster GmbH',
  purposes: ['Stellenbesetzung'],
  data_subjects: ['Bewerber', 'Referenzgeber'],
  necessity_assessment: 'Ohne Prüfung keine Auswahl.',
  risks: [
    { title: 'Diskriminierung', likelihood: 'medium', severity: 'critical', description: 'durch **Scoring**' },
    { title: 'Datenabfluss', likelihood: 'low', severity: 'high' },
    { title: 'Fehlversand', likelihood: 'low', severity: 'high' },
    { title: 'Überwachung', likelihood: 'critical', severity: 'low' },
  ],
  measure_details: [
    { measure: 'Verschlüsselung', implemented: true },
    { measure: 'Löschkonzept', implemented: false, description: 'bis Mai' },
    { measure: 'Pseudonymisierung', implemented: true, description: 'Kennziffern' },
  ],
  dpo_opinion: 'Keine Einwände.',
  dpo_name: 'Dr. Datenschutz',
  dpo_opinion_date: '2026-06-09',
  review_date: '2027-01-05',
};

const entry = (
  n: number,
  action: DsfaAuditEntry['action'],
  old_values: Record<string, unknown>,
  new_values: Record<string, unknown>,
  created_at: string,
): DsfaAuditEntry => ({
  id: `a${n}`,
  tenant_id: full.tenant_id,
  dsfa_id: full.id,
  action,
  changed_by: `user${n}`,
  old_values,
  new_values,
  created_at,
});
const EVERY_FIELD = [
  'title',
  'description',
  'status',
  'risk_level',
  'processing_activity',
  'data_categories',
  'recipients',
  'measures',
  'approved_by',
  'approved_at',
  'created_by',
  'ai_use_case_modules',
  'controller',
  'purposes',
  'data_subjects',
  'necessity_assessment',
  'risks',
  'measure_details',
  'dpo_opinion',
  'dpo_name',
  'dpo_opinion_date',
  'review_date',
];
/** The history of `full`, newest first, as the store returns it. */
const history: DsfaAuditEntry[] = [
  entry(1, 'CREATE', {}, { title: full.title }, AT),
  entry(
    2,
    'UPDATE',
    { title: 'alt', own_field: 1 },
    { ...Object.fromEntries(EVERY_FIELD.map((k) => [k, 'neu'])), content_hash: 'x' },
    '2026-04-01T10:00:00.000',
  ),
  entry(3, 'STATUS_CHANGE', { status: 'draft' }, { status: 'in-review' }, '2026-05-01T10:00:00.000'),
  entry(4, 'STATUS_CHANGE', { status: 'needs-update' }, { status: 'archived' }, '2026-05-02T10:00:00.000'),
  entry(
    5,
    'STATUS_CHANGE',
    { status: 'in-review' },
    { status: 'approved', approved_at: full.approved_at, content_hash: contentHash(full) },
    full.approved_at!,
  ),
  entry(6, 'DELETE', { title: full.title }, {}, '2026-07-02T10:00:00.000'),
].reverse();

const generatedAt = new Date('2026-11-25T14:00:00Z');
const de: DsfaReportOptions = { lang: 'de', timeZone: 'Europe/Berlin', generatedAt };
const en: DsfaReportOptions = { lang: 'en', timeZone: 'Europe/Berlin', generatedAt };

/**
 * A report as lines of text that keep everything a reader can tell apart: headings and their level, each field,
 * emphasis, muted notes, checkboxes, table columns with their widths and the shading of each cell.
 */
function lines(doc: ReportDoc): string[] {
  const one = (s: string) => s.replace(/\n/g, '⏎');
  const spans = (ss: Span[]) =>
    ss.map((s) => (s.bold ? `**${s.text}**` : s.italic ? `_${s.text}_` : s.code ? `\`${s.text}\`` : s.text)).join('');
  const block = (b: Block, indent: string): string[] => {
    switch (b.kind) {
      case 'heading':
        return [`${indent}${'#'.repeat(b.level)} ${b.text}`];
      case 'fields':
        return b.rows.map(([k, v]) => `${indent}${k} = ${one(v)}`);
      case 'paragraph':
        return [`${indent}${b.muted ? '(muted) ' : ''}${one(spans(b.spans))}`];
      case 'markdown':
        return [`${indent}md: ${one(b.text)}`];
      case 'list':
        return b.items.flatMap((i) => [
          `${indent}${b.ordered ? '1.' : '-'} ${i.checked === undefined ? '' : i.checked ? '[x] ' : '[ ] '}${spans(i.spans)}`,
          ...(i.children ?? []).flatMap((c) => block(c, `${indent}  `)),
        ]);
      case 'table':
        return [
          `${indent}table ${b.widths?.join(' ') ?? ''}`,
          `${indent}| ${b.head.map(one).join(' | ')} |`,
          ...b.rows.map(
            (r, i) => `${indent}| ${r.join(' | ')} |${b.tones ? ` ${b.tones[i]!.map((t) => t ?? '-').join(' ')}` : ''}`,
          ),
        ];
      default:
        throw new Error(`a block of unknown kind: ${JSON.stringify(b)}`);
    }
  };
  return [
    `title: ${doc.title}`,
    `subtitle: ${doc.subtitle}`,
    `footer: ${doc.footer}`,
    `lang: ${doc.lang}, pages: ${doc.pageWords.join(' … ')}`,
    ...doc.blocks.flatMap((b) => block(b, '')),
  ];
}

describe('the report of an assessment with every field set', () => {
  it('in German', () => {
    expect(dsfaLanguage(full)).toBe('de');
    expect(lines(dsfaReport(full, history, de))).toEqual([
      'title: Bewerbermanagement',
      'subtitle: Datenschutz-Folgenabschätzung nach Art. 35 DSGVO · Stand: 25.11.2026, 15:00 MEZ',
      'footer: Bewerbermanagement · Stand: 25.11.2026, 15:00 MEZ',
      'lang: de, pages: Seite … von',
      'Verantwortlicher = Muster GmbH',
      'Status = Freigegeben',
      'Risikoeinstufung (gesamt) = hoch',
      'Höchstes bewertetes Risiko = hoch',
      'Erstellt = 02.03.2026, 08:05 MEZ von beraterin',
      'Zuletzt geändert = 01.07.2026, 10:05 MESZ',
      'Nächste Überprüfung = 05.01.2027',
      '## 1. Systematische Beschreibung der Verarbeitung (Art. 35 Abs. 7 lit. a DSGVO)',
      'Verarbeitungstätigkeit = Personalgewinnung',
      'md: Bewerbungen **prüfen**',
      '### Zwecke der Verarbeitung',
      '- Stellenbesetzung',
      '### Betroffene Personen',
      '- Bewerber',
      '- Referenzgeber',
      '### Kategorien personenbezogener Daten',
      '- Lebenslauf',
      '- Zeugnisse',
      '### Empfänger',
      '- Fachabteilung',
      '## 2. Notwendigkeit und Verhältnismäßigkeit (Art. 35 Abs. 7 lit. b DSGVO)',
      'md: Ohne Prüfung keine Auswahl.',
      '## 3. Risiken für die Rechte und Freiheiten der betroffenen Personen (Art. 35 Abs. 7 lit. c DSGVO)',
      'table 0.07 0.33 0.24 0.16 0.2',
      '| Nr. | Risiko | Wahrscheinlichkeit | Schwere | Risikostufe |',
      '| R1 | Diskriminierung | mittel | kritisch | hoch | - - - - high',
      '| R2 | Datenabfluss | niedrig | hoch | mittel | - - - - medium',
      '| R3 | Fehlversand | niedrig | hoch | mittel | - - - - medium',
      '| R4 | Überwachung | kritisch | niedrig | mittel | - - - - medium',
      '**R1 Diskriminierung**',
      'md: durch **Scoring**',
      '### Risikomatrix',
      'table 0.34 0.165 0.165 0.165 0.165',
      '| Wahrscheinlichkeit (Zeilen)⏎Schwere (Spalten) | niedrig | mittel | hoch | kritisch |',
      '| kritisch | R4 |  |  |  | - medium high critical critical',
      '| hoch |  |  |  |  | - medium high high critical',
      '| mittel |  |  |  | R1 | - low medium high high',
      '| niedrig |  |  | R2, R3 |  | - low low medium medium',
      '(muted) Risikostufe = Eintrittswahrscheinlichkeit × Schwere, je von 1 (niedrig) bis 4 (kritisch): 1–2 niedrig, 3–4 mittel, 6–9 hoch, 12–16 kritisch.',
      '## 4. Abhilfemaßnahmen (Art. 35 Abs. 7 lit. d DSGVO)',
      '### Umgesetzte Maßnahmen',
      '- [x] Verschlüsselung',
      '- [x] Pseudonymisierung – Kennziffern',
      '### Geplante Maßnahmen',
      '- [ ] Löschkonzept – bis Mai',
      '### Ohne Angabe zum Umsetzungsstand',
      '- Schulung',
      '## 5. Stellungnahme des Datenschutzbeauftragten (Art. 35 Abs. 2 DSGVO)',
      'Datenschutzbeauftragte(r) = Dr. Datenschutz',
      'Datum der Stellungnahme = 09.06.2026',
      'md: Keine Einwände.',
      '## 6. Freigabe',
      'Status = Freigegeben',
      'Freigegeben von = Dr. Datenschutz',
      'Freigegeben am = 01.07.2026, 10:05 MESZ',
      'Freigegebener Inhalt = entspricht dem hier dargestellten Inhalt (Prüfsumme wie bei der Freigabe)',
      'Nächste Überprüfung = 05.01.2027',
      '## Anhang A: KI-Anwendungsfälle',
      '### A.1 Vorauswahl',
      'Anwendungsfall = Automatisierte Entscheidung / Scoring',
      'Modelltyp = Gradient Boosting',
      'Modellbeschreibung = bewertet Lebensläufe',
      'Anbieter = HR-Soft GmbH',
      'Sitzland des Anbieters = USA',
      'Übermittlung in Drittländer = ja',
      'Eingabedaten = Lebenslauf⏎Anschreiben',
      'Ausgabedaten = Punktzahl',
      'Besondere Kategorien (Art. 9 DSGVO) = nein',
      'Betroffene Personen = Bewerber',
      'Zweck = Vorauswahl',
      'Rechtsgrundlage = Art. 6 Abs. 1 lit. b DSGVO',
      'Automatisierte Einzelentscheidung (Art. 22 DSGVO) = trifft zu',
      'Schutzmaßnahmen nach Art. 22 = Widerspruch⏎{"by":"Mensch"}⏎3',
      'Risikoklasse nach KI-Verordnung = hohes Risiko',
      'Begründung der Einstufung = Anhang III Nr. 4',
      'Erfüllte Kriterien (WP248) = Bewertung oder Scoring⏎Automatisierte Entscheidung mit Rechtswirkung oder ähnlich erheblicher Wirkung⏎Systematische Überwachung⏎Sensible oder höchstpersönliche Daten⏎Umfangreiche Verarbeitung⏎Abgleichen oder Zusammenführen von Datensätzen⏎Schutzbedürftige betroffene Personen⏎Innovative Nutzung neuer Technologien⏎Hindert an der Ausübung eines Rechts oder der Nutzung einer Dienstleistung⏎own_criterion',
      '**Risikokriterien**',
      '- K1 – trifft zu – Schwere: hoch',
      '- K2 – trifft nicht zu',
      '**Risiken**',
      '- Diskriminierung – Verzerrung – Wahrscheinlichkeit: mittel – Schwere: kritisch',
      '- Intransparenz',
      '**Abhilfemaßnahmen**',
      '- [x] Bias-Audit – jährlich',
      '- [ ] Erklärung',
      '- Stichproben',
      '**Datenschutz durch Technikgestaltung**',
      '- [x] Minimierung – nur Pflichtfelder',
      '**Anlässe zur Überprüfung**',
      '- Modellwechsel – neues Modell – Intervall: quartalsweise',
      '- Beschwerde',
      '### A.2 Chatbot / Sprachverarbeitung',
      'Anwendungsfall = Chatbot / Sprachverarbeitung',
      'Übermittlung in Drittländer = nein',
      'Besondere Kategorien (Art. 9 DSGVO) = ja',
      'Automatisierte Einzelentscheidung (Art. 22 DSGVO) = trifft nicht zu',
      'Risikoklasse nach KI-Verordnung = verbotene Praxis (Art. 5 KI-VO)',
      '### A.3 Empfehlungssystem',
      'Anwendungsfall = Empfehlungssystem',
      'Risikoklasse nach KI-Verordnung = begrenztes Risiko (Transparenzpflichten)',
      '### A.4 Video- und Bildanalyse',
      'Anwendungsfall = Video- und Bildanalyse',
      'Risikoklasse nach KI-Verordnung = minimales Risiko',
      '### A.5 Biometrie',
      'Anwendungsfall = Biometrie',
      '### A.6 IoT / Sensorik',
      'Anwendungsfall = IoT / Sensorik',
      '### A.7 Generative KI',
      'Anwendungsfall = Generative KI',
      '### A.8 Sonstiger Anwendungsfall',
      'Anwendungsfall = Sonstiger Anwendungsfall',
      '## Anhang B: Änderungsverlauf',
      'table 0.24 0.18 0.22 0.36',
      '| Zeitpunkt | Vorgang | Von | Geänderte Angaben |',
      '| 02.03.2026, 08:05 MEZ | Angelegt | user1 |  |',
      '| 01.04.2026, 12:00 MESZ | Geändert | user2 | Titel, own_field, Beschreibung, Status, Risikoeinstufung, Verarbeitungstätigkeit, Datenkategorien, Empfänger, Maßnahmen, Freigegeben von, Freigabezeitpunkt, Erstellt von, KI-Anwendungsfälle, Verantwortlicher, Zwecke, Betroffene Personen, Notwendigkeit und Verhältnismäßigkeit, Risiken, Umsetzungsstand, Stellungnahme DSB, DSB, Datum der Stellungnahme, Nächste Überprüfung |',
      '| 01.05.2026, 12:00 MESZ | Statusänderung | user3 | Entwurf → In Prüfung |',
      '| 02.05.2026, 12:00 MESZ | Statusänderung | user4 | Zu überarbeiten → archived |',
      '| 01.07.2026, 10:05 MESZ | Statusänderung | user5 | In Prüfung → Freigegeben |',
      '| 02.07.2026, 12:00 MESZ | Gelöscht | user6 |  |',
    ]);
  });

  it('in English', () => {
    expect(lines(dsfaReport(full, history, en))).toEqual([
      'title: Bewerbermanagement',
      'subtitle: Data protection impact assessment (Art. 35 GDPR) · As of: 25 Nov 2026, 15:00 CET',
      'footer: Bewerbermanagement · As of: 25 Nov 2026, 15:00 CET',
      'lang: en, pages: Page … of',
      'Controller = Muster GmbH',
      'Status = Approved',
      'Overall risk level = high',
      'Highest assessed risk = high',
      'Created = 2 Mar 2026, 08:05 CET by beraterin',
      'Last changed = 1 Jul 2026, 10:05 CEST',
      'Next review = 5 Jan 2027',
      '## 1. Systematic description of the processing (Art. 35(7)(a) GDPR)',
      'Processing activity = Personalgewinnung',
      'md: Bewerbungen **prüfen**',
      '### Purposes of the processing',
      '- Stellenbesetzung',
      '### Data subjects',
      '- Bewerber',
      '- Referenzgeber',
      '### Categories of personal data',
      '- Lebenslauf',
      '- Zeugnisse',
      '### Recipients',
      '- Fachabteilung',
      '## 2. Necessity and proportionality (Art. 35(7)(b) GDPR)',
      'md: Ohne Prüfung keine Auswahl.',
      '## 3. Risks to the rights and freedoms of data subjects (Art. 35(7)(c) GDPR)',
      'table 0.07 0.33 0.24 0.16 0.2',
      '| No. | Risk | Likelihood | Severity | Risk level |',
      '| R1 | Diskriminierung | medium | critical | high | - - - - high',
      '| R2 | Datenabfluss | low | high | medium | - - - - medium',
      '| R3 | Fehlversand | low | high | medium | - - - - medium',
      '| R4 | Überwachung | critical | low | medium | - - - - medium',
      '**R1 Diskriminierung**',
      'md: durch **Scoring**',
      '### Risk matrix',
      'table 0.34 0.165 0.165 0.165 0.165',
      '| Likelihood (rows)⏎Severity (columns) | low | medium | high | critical |',
      '| critical | R4 |  |  |  | - medium high critical critical',
      '| high |  |  |  |  | - medium high high critical',
      '| medium |  |  |  | R1 | - low medium high high',
      '| low |  |  | R2, R3 |  | - low low medium medium',
      '(muted) Risk level = likelihood × severity, each from 1 (low) to 4 (critical): 1–2 low, 3–4 medium, 6–9 high, 12–16 critical.',
      '## 4. Measures to address the risks (Art. 35(7)(d) GDPR)',
      '### Implemented measures',
      '- [x] Verschlüsselung',
      '- [x] Pseudonymisierung – Kennziffern',
      '### Planned measures',
      '- [ ] Löschkonzept – bis Mai',
      '### Implementation not stated',
      '- Schulung',
      "## 5. The data protection officer's opinion (Art. 35(2) GDPR)",
      'Data protection officer = Dr. Datenschutz',
      'Date of the opinion = 9 Jun 2026',
      'md: Keine Einwände.',
      '## 6. Sign-off',
      'Status = Approved',
      'Approved by = Dr. Datenschutz',
      'Approved on = 1 Jul 2026, 10:05 CEST',
      'Approved content = is the content shown here (same checksum as at approval)',
      'Next review = 5 Jan 2027',
      '## Appendix A: AI use cases',
      '### A.1 Vorauswahl',
      'Use case = Automated decision / scoring',
      'Model type = Gradient Boosting',
      'Model description = bewertet Lebensläufe',
      'Provider = HR-Soft GmbH',
      "Provider's country = USA",
      'Transfer to third countries = yes',
      'Input data = Lebenslauf⏎Anschreiben',
      'Output data = Punktzahl',
      'Special categories (Art. 9 GDPR) = no',
      'Data subjects = Bewerber',
      'Purpose = Vorauswahl',
      'Legal basis = Art. 6 Abs. 1 lit. b DSGVO',
      'Automated individual decision (Art. 22 GDPR) = applies',
      'Safeguards under Art. 22 = Widerspruch⏎{"by":"Mensch"}⏎3',
      'AI Act risk class = high risk',
      'Reason for the classification = Anhang III Nr. 4',
      'Criteria met (WP248) = Evaluation or scoring⏎Automated decision with legal or similar effect⏎Systematic monitoring⏎Sensitive or highly personal data⏎Large scale⏎Matching or combining datasets⏎Vulnerable data subjects⏎Innovative use of technology⏎Prevents exercising a right or using a service⏎own_criterion',
      '**Risk criteria**',
      '- K1 – applies – Severity: high',
      '- K2 – does not apply',
      '**Risks**',
      '- Diskriminierung – Verzerrung – Likelihood: medium – Severity: critical',
      '- Intransparenz',
      '**Mitigations**',
      '- [x] Bias-Audit – jährlich',
      '- [ ] Erklärung',
      '- Stichproben',
      '**Privacy by design**',
      '- [x] Minimierung – nur Pflichtfelder',
      '**Review triggers**',
      '- Modellwechsel – neues Modell – interval: quartalsweise',
      '- Beschwerde',
      '### A.2 Chatbot / natural language processing',
      'Use case = Chatbot / natural language processing',
      'Transfer to third countries = no',
      'Special categories (Art. 9 GDPR) = yes',
      'Automated individual decision (Art. 22 GDPR) = does not apply',
      'AI Act risk class = prohibited practice (Art. 5 AI Act)',
      '### A.3 Recommendation system',
      'Use case = Recommendation system',
      'AI Act risk class = limited risk (transparency duties)',
      '### A.4 Video and image analysis',
      'Use case = Video and image analysis',
      'AI Act risk class = minimal risk',
      '### A.5 Biometrics',
      'Use case = Biometrics',
      '### A.6 IoT / sensors',
      'Use case = IoT / sensors',
      '### A.7 Generative AI',
      'Use case = Generative AI',
      '### A.8 Other use case',
      'Use case = Other use case',
      '## Appendix B: History of changes',
      'table 0.24 0.18 0.22 0.36',
      '| When | Action | By | Fields changed |',
      '| 2 Mar 2026, 08:05 CET | Created | user1 |  |',
      '| 1 Apr 2026, 12:00 CEST | Changed | user2 | Title, own_field, Description, Status, Risk level, Processing activity, Data categories, Recipients, Measures, Approved by, Approval time, Created by, AI use cases, Controller, Purposes, Data subjects, Necessity and proportionality, Risks, Implementation of measures, DPO opinion, DPO, Date of the opinion, Next review |',
      '| 1 May 2026, 12:00 CEST | Status change | user3 | Draft → In review |',
      '| 2 May 2026, 12:00 CEST | Status change | user4 | Needs update → archived |',
      '| 1 Jul 2026, 10:05 CEST | Status change | user5 | In review → Approved |',
      '| 2 Jul 2026, 12:00 CEST | Deleted | user6 |  |',
    ]);
  });
});

const bare: Dsfa = {
  id: 'd-bare',
  tenant_id: 't',
  title: 'Customer newsletter',
  description: '',
  status: 'draft',
  risk_level: 'low',
  processing_activity: '',
  data_categories: [],
  recipients: [],
  measures: [],
  approved_by: null,
  approved_at: null,
  created_by: 'system',
  created_at: AT,
  updated_at: AT,
  ai_use_case_modules: [],
};

/** The lines of a numbered section (`3.`) or an appendix, from its heading to the next one of its level. */
const section = (doc: ReportDoc, start: string): string[] => {
  const all = lines(doc);
  const from = all.findIndex((l) => l.startsWith(`## ${start}`));
  const to = all.findIndex((l, i) => i > from && l.startsWith('## '));
  return all.slice(from + 1, to < 0 ? undefined : to);
};

describe('the report of an assessment with nothing but its title', () => {
  it('says "not stated" in each part of Art. 35(7), and that it is not approved', () => {
    expect(lines(dsfaReport(bare, [], en))).toEqual([
      'title: Customer newsletter',
      'subtitle: Data protection impact assessment (Art. 35 GDPR) · As of: 25 Nov 2026, 15:00 CET',
      'footer: Customer newsletter · As of: 25 Nov 2026, 15:00 CET',
      'lang: en, pages: Page … of',
      'Status = Draft',
      'Overall risk level = low',
      'Created = 2 Mar 2026, 08:05 CET by system',
      'Last changed = 2 Mar 2026, 08:05 CET',
      '## 1. Systematic description of the processing (Art. 35(7)(a) GDPR)',
      '(muted) Not stated.',
      '## 2. Necessity and proportionality (Art. 35(7)(b) GDPR)',
      '(muted) Not stated.',
      '## 3. Risks to the rights and freedoms of data subjects (Art. 35(7)(c) GDPR)',
      '(muted) Not stated.',
      '## 4. Measures to address the risks (Art. 35(7)(d) GDPR)',
      '(muted) Not stated.',
      "## 5. The data protection officer's opinion (Art. 35(2) GDPR)",
      '(muted) Not stated.',
      '## 6. Sign-off',
      'Status = Draft',
      '(muted) The assessment has not been approved.',
    ]);
  });

  it('takes a text of blanks for no text', () => {
    const doc = dsfaReport(
      {
        ...bare,
        description: ' \n ',
        processing_activity: '  ',
        dpo_name: ' ',
        risks: [{ title: 'r', likelihood: 'low', severity: 'low', description: '  ' }],
      },
      [],
      de,
    );
    expect(section(doc, '1.')).toEqual(['(muted) Keine Angaben.']);
    expect(section(doc, '3.').slice(0, 4)).toEqual([
      'table 0.07 0.33 0.24 0.16 0.2',
      '| Nr. | Risiko | Wahrscheinlichkeit | Schwere | Risikostufe |',
      '| R1 | r | niedrig | niedrig | niedrig | - - - - low',
      '### Risikomatrix',
    ]);
    expect(section(doc, '5.')).toEqual(['(muted) Keine Angaben.']);
  });

  it.each([
    [de, 'Zum Umsetzungsstand der Maßnahmen liegen keine Angaben vor.'],
    [en, 'Whether the measures are implemented is not stated.'],
  ])('lists measures without any state under a note that their states are not stated (%#)', (o, note) => {
    const doc = dsfaReport({ ...bare, measures: ['A', 'B'] }, [], o);
    expect(section(doc, '4.')).toEqual([`(muted) ${note}`, '- A', '- B']);
  });

  it('leaves out a group of measures that has none', () => {
    const done = [
      { measure: 'A', implemented: true },
      { measure: 'B', implemented: true },
    ];
    const doc = dsfaReport({ ...bare, measures: ['A', 'B'], measure_details: done }, [], de);
    expect(section(doc, '4.')).toEqual(['### Umgesetzte Maßnahmen', '- [x] A', '- [x] B']);
  });

  it('shows no approval data for an assessment that is not approved, even where the record still holds some', () => {
    const doc = dsfaReport({ ...bare, status: 'needs-update', approved_by: 'dpo', approved_at: AT }, [], de);
    expect(section(doc, '6.')).toEqual([
      'Status = Zu überarbeiten',
      '(muted) Die Folgenabschätzung ist nicht freigegeben.',
    ]);
  });

  it('signs off an approval without approver, date and recorded checksum as not verifiable', () => {
    expect(section(dsfaReport({ ...bare, status: 'approved' }, [], de), '6.')).toEqual([
      'Status = Freigegeben',
      'Freigegebener Inhalt = nicht prüfbar (Freigabe vor Einführung der Prüfsummen)',
    ]);
  });
});

describe('whether the approved content is the content shown', () => {
  const approved: Dsfa = { ...bare, status: 'approved', approved_by: 'dpo', approved_at: AT };
  const approval = (n: number, hash: string | undefined) =>
    entry(n, 'STATUS_CHANGE', { status: 'in-review' }, { status: 'approved', approved_at: AT, content_hash: hash }, AT);
  const created = entry(0, 'CREATE', {}, { title: bare.title }, AT);
  const current = approval(1, contentHash(approved));
  const older = approval(2, '0'.repeat(64));
  it.each([
    [
      'the checksum of the approval is that of the content',
      [current, created],
      'de',
      'entspricht dem hier dargestellten Inhalt (Prüfsumme wie bei der Freigabe)',
    ],
    [
      'the checksum differs',
      [older, created],
      'de',
      'GEÄNDERT seit der Freigabe: der dargestellte Inhalt weicht vom freigegebenen ab',
    ],
    [
      'the approval recorded no checksum',
      [approval(3, undefined)],
      'de',
      'nicht prüfbar (Freigabe vor Einführung der Prüfsummen)',
    ],
    ['no approval is recorded', [created], 'de', 'nicht prüfbar (Freigabe vor Einführung der Prüfsummen)'],
    [
      'the newest approval counts (the store lists newest first)',
      [current, older],
      'en',
      'is the content shown here (same checksum as at approval)',
    ],
    [
      'the newest approval counts, also when it is of other content',
      [older, current],
      'en',
      'CHANGED since approval: the content shown differs from the content approved',
    ],
    ['no approval is recorded', [], 'en', 'not verifiable (approved before checksums were recorded)'],
  ] as const)('%s (%s)', (_case, audit, lang, says) => {
    const rows = section(dsfaReport(approved, [...audit], { ...de, lang }), '6.');
    expect(rows[3]).toBe(`${lang === 'de' ? 'Freigegebener Inhalt' : 'Approved content'} = ${says}`);
  });
});

describe('the sign-off of an assessment that left approved', () => {
  // approved by the DPO, then a description edited: the service moves it to needs-update and clears approved_by
  const approvedAt = '2026-07-01T08:05:00.000';
  const approvedRecord: Dsfa = { ...bare, status: 'approved', approved_by: 'Dr. Datenschutz', approved_at: approvedAt };
  const edited: Dsfa = {
    ...approvedRecord,
    status: 'needs-update',
    approved_by: null,
    approved_at: null,
    description: 'neu',
  };
  const trail = [
    entry(1, 'CREATE', {}, { title: bare.title }, AT),
    entry(
      2,
      'STATUS_CHANGE',
      { status: 'in-review', approved_by: null, approved_at: null },
      {
        status: 'approved',
        approved_by: 'Dr. Datenschutz',
        approved_at: approvedAt,
        content_hash: contentHash(approvedRecord),
      },
      approvedAt,
    ),
    entry(
      3,
      'UPDATE',
      { description: '', status: 'approved', approved_by: 'Dr. Datenschutz', approved_at: approvedAt },
      { description: 'neu', status: 'needs-update', approved_by: null, approved_at: null },
      '2026-08-03T09:00:00.000',
    ),
  ].reverse();

  it('names the last approver and time from the audit trail, and that the content changed since', () => {
    expect(section(dsfaReport(edited, trail, de), '6.')).toEqual([
      'Status = Zu überarbeiten',
      'Zuletzt freigegeben von = Dr. Datenschutz',
      'Zuletzt freigegeben am = 01.07.2026, 10:05 MESZ',
      'Freigegebener Inhalt = GEÄNDERT seit der Freigabe: der dargestellte Inhalt weicht vom freigegebenen ab',
      '(muted) Die Folgenabschätzung ist derzeit nicht freigegeben; die letzte Freigabe gilt nicht mehr.',
    ]);
    expect(section(dsfaReport(edited, trail, en), '6.')).toEqual([
      'Status = Needs update',
      'Last approved by = Dr. Datenschutz',
      'Last approved on = 1 Jul 2026, 10:05 CEST',
      'Approved content = CHANGED since approval: the content shown differs from the content approved',
      '(muted) The assessment is not approved at present; its last approval no longer applies.',
    ]);
  });

  it('says the content is the approved one when only the status moved on', () => {
    const reviewed = { ...approvedRecord, status: 'in-review' as const, approved_by: null, approved_at: null };
    const rows = section(dsfaReport(reviewed, trail.slice(1), de), '6.');
    expect(rows[3]).toBe(
      'Freigegebener Inhalt = entspricht dem hier dargestellten Inhalt (Prüfsumme wie bei der Freigabe)',
    );
  });

  it('takes the approver on record when the newest approval named none', () => {
    const again = entry(4, 'STATUS_CHANGE', { status: 'approved' }, { status: 'approved', approved_at: AT }, AT);
    const rows = section(dsfaReport(edited, [again, ...trail.slice(1)], de), '6.');
    expect(rows.slice(1, 3)).toEqual([
      'Zuletzt freigegeben von = Dr. Datenschutz',
      'Zuletzt freigegeben am = 02.03.2026, 08:05 MEZ',
    ]);
  });
});

describe('internal ids', () => {
  it.each([
    [en, 'ID', 'Tenant', 'Next review = 5 Jan 2027', '**Risk criteria**'],
    [de, 'Kennung', 'Mandant', 'Nächste Überprüfung = 05.01.2027', '**Risikokriterien**'],
  ])(
    'are shown for the assessment, its tenant and each AI module only when asked for (%#)',
    (o, id, tenant, before, after) => {
      const withIds = lines(dsfaReport(full, history, { ...o, includeIds: true }));
      const ids = new RegExp(`^(${id}|${tenant}) = `);
      expect(withIds.filter((l) => ids.test(l))).toEqual([
        `${id} = ${full.id}`,
        `${tenant} = ${full.tenant_id}`,
        ...full.ai_use_case_modules.map((m) => `${id} = ${m.id}`),
      ]);
      expect(withIds.indexOf(`${tenant} = ${full.tenant_id}`)).toBe(withIds.indexOf(before) + 2);
      expect(withIds.indexOf(`${id} = m-1`)).toBe(withIds.indexOf(after) - 1);
      expect(withIds.filter((l) => !ids.test(l))).toEqual(lines(dsfaReport(full, history, o)));
    },
  );
});

describe('the appendices', () => {
  it('are left out without AI modules and without history, and the history on request', () => {
    const headings = (doc: ReportDoc) => lines(doc).filter((l) => l.startsWith('## ') && !/^## \d\./.test(l));
    expect(headings(dsfaReport({ ...full, ai_use_case_modules: [] }, [], de))).toEqual([]);
    expect(headings(dsfaReport({ ...full, ai_use_case_modules: [] }, history, de))).toEqual([
      '## Anhang A: Änderungsverlauf',
    ]);
    expect(headings(dsfaReport({ ...full, ai_use_case_modules: [] }, history, en))).toEqual([
      '## Appendix A: History of changes',
    ]);
    expect(headings(dsfaReport(full, history, { ...de, auditTrail: false }))).toEqual([
      '## Anhang A: KI-Anwendungsfälle',
    ]);
    expect(headings(dsfaReport(full, history, { ...de, auditTrail: true }))).toEqual([
      '## Anhang A: KI-Anwendungsfälle',
      '## Anhang B: Änderungsverlauf',
    ]);
  });
});
