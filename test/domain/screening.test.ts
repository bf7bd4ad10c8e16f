import { describe, expect, it } from 'vitest';
import {
  DSFA_TRIGGERS,
  inLanguage,
  screen,
  screeningMarkdown,
  screeningTitle,
  WP248_CRITERIA,
} from '../../src/domain/dsfa/screening.js';

const EN_CRITERIA = inLanguage(WP248_CRITERIA, 'en');
const EN_TRIGGERS = inLanguage(DSFA_TRIGGERS, 'en');
import { ScreeningAnswersSchema } from '../../src/domain/dsfa/screening.schema.js';

const CRITERIA = [
  'scoring',
  'automated_decision',
  'systematic_monitoring',
  'sensitive_data',
  'large_scale',
  'matching_datasets',
  'vulnerable_subjects',
  'innovative_technology',
  'blocks_rights',
];
const TRIGGERS = ['automated_profiling', 'sensitive_large_scale', 'public_monitoring', 'high_risk_ai'];

describe('DSFA screening', () => {
  it('names the nine WP248 criteria and the four mandatory cases by their stable ids, each with a text', () => {
    expect(WP248_CRITERIA.map((c) => c.id)).toEqual(CRITERIA);
    expect(DSFA_TRIGGERS.map((t) => t.id)).toEqual(TRIGGERS);
    for (const lang of ['de', 'en'] as const) {
      for (const item of [...inLanguage(WP248_CRITERIA, lang), ...inLanguage(DSFA_TRIGGERS, lang)]) {
        expect(item.label.length, item.id).toBeGreaterThan(5);
        expect(item.explanation.length, item.id).toBeGreaterThan(20);
      }
      expect(new Set(inLanguage(WP248_CRITERIA, lang).map((c) => c.label)).size).toBe(9);
    }
    // each text is written in its language, not copied from the other
    for (const q of [...WP248_CRITERIA, ...DSFA_TRIGGERS]) {
      expect(q.de.label, q.id).not.toBe(q.en.label);
      expect(q.de.explanation, q.id).not.toBe(q.en.explanation);
    }
  });

  it.each(CRITERIA)('one criterion (%s) alone does not make a DSFA mandatory, and is reported', (id) => {
    const r = screen({ criteria: [id], triggers: [] }, 'en');
    expect(r.required).toBe(false);
    expect(r.criteria_met).toEqual([id]);
    expect(r.triggers_met).toEqual([]);
    const label = EN_CRITERIA.find((c) => c.id === id)!.label;
    expect(r.reasons).toEqual([`One WP248 criterion is met (${label}); on its own it does not make a DSFA mandatory.`]);
    expect(r.recommendation).toMatch(/^No DSFA required by the screening\. Record this reasoning/);
  });

  it.each(TRIGGERS)('a mandatory case (%s) alone requires a DSFA', (id) => {
    const r = screen({ criteria: [], triggers: [id] }, 'en');
    const t = EN_TRIGGERS.find((x) => x.id === id)!;
    expect(r).toEqual({
      required: true,
      criteria_met: [],
      triggers_met: [id],
      reasons: [`Mandatory case: ${t.label}. ${t.explanation}`],
      recommendation:
        'A DSFA is required before the processing starts (Art. 35 GDPR). Consult the data protection officer (Art. 35(2)).',
    });
  });

  it('requires a DSFA from two criteria on and lists them in guideline order', () => {
    const r = screen({ criteria: ['vulnerable_subjects', 'scoring'], triggers: [] }, 'en');
    expect(r.required).toBe(true);
    expect(r.criteria_met).toEqual(['scoring', 'vulnerable_subjects']);
    expect(r.reasons).toEqual([
      '2 of the 9 WP248 criteria are met (Evaluation or scoring; Vulnerable data subjects); from two criteria on a high risk is presumed.',
    ]);
    const all = screen({ criteria: [...CRITERIA].reverse(), triggers: [...TRIGGERS] }, 'en');
    expect(all.criteria_met).toEqual(CRITERIA);
    expect(all.triggers_met).toEqual(TRIGGERS);
    expect(all.reasons).toHaveLength(5);
    expect(all.reasons[4]).toMatch(/^9 of the 9 WP248 criteria are met/);
  });

  it('requires nothing when no criterion and no case applies, and ignores unknown ids', () => {
    const r = screen({ criteria: ['unknown'], triggers: ['nope'] }, 'en');
    expect(r).toEqual({
      required: false,
      criteria_met: [],
      triggers_met: [],
      reasons: ['No trigger applies and no WP248 criterion is met.'],
      recommendation:
        'No DSFA required. Keep the screening result with the record of processing activities and repeat it when the processing changes.',
    });
  });

  it('writes the screening as Markdown with every item ticked or not', () => {
    const a = { criteria: ['scoring', 'large_scale'], triggers: ['high_risk_ai'] };
    const md = screeningMarkdown(a, screen(a, 'en'), '2026-11-25', 'en');
    const lines = md.split('\n');
    expect(lines[0]).toBe('Screening of 25 Nov 2026: DSFA required.');
    expect(lines).toContain('- [x] High-risk AI system');
    expect(lines).toContain('- [ ] Automated decisions or profiling');
    expect(lines).toContain('- [x] Evaluation or scoring');
    expect(lines).toContain('- [x] Large scale');
    expect(lines).toContain('- [ ] Vulnerable data subjects');
    expect(lines.filter((l) => /^- \[[ x]\] /.test(l))).toHaveLength(13);
    expect(lines.at(-1)).toMatch(/^A DSFA is required/);
    const none = { criteria: [], triggers: [] };
    expect(screeningMarkdown(none, screen(none, 'en'), '2026-01-01', 'en').split('\n')[0]).toBe(
      'Screening of 1 Jan 2026: DSFA not required.',
    );
  });

  it('writes the Markdown in the order a reader expects: verdict, cases, criteria, reasons, recommendation', () => {
    const a = { criteria: ['scoring'], triggers: [] };
    const r = screen(a, 'en');
    expect(screeningMarkdown(a, r, '2026-11-25', 'en')).toBe(
      [
        'Screening of 25 Nov 2026: DSFA not required.',
        '',
        'Mandatory cases:',
        '- [ ] Automated decisions or profiling',
        '- [ ] Extensive processing of sensitive data',
        '- [ ] Systematic monitoring of public areas',
        '- [ ] High-risk AI system',
        '',
        'WP248 criteria:',
        '- [x] Evaluation or scoring',
        '- [ ] Automated decision with legal or similar effect',
        '- [ ] Systematic monitoring',
        '- [ ] Sensitive or highly personal data',
        '- [ ] Large scale',
        '- [ ] Matching or combining datasets',
        '- [ ] Vulnerable data subjects',
        '- [ ] Innovative use of technology',
        '- [ ] Prevents exercising a right or using a service',
        '',
        `- ${r.reasons[0]}`,
        '',
        r.recommendation,
      ].join('\n'),
    );
  });

  it('writes the whole screening in German: verdict, cases, criteria, reasons and recommendation', () => {
    const a = { criteria: ['scoring', 'vulnerable_subjects'], triggers: ['high_risk_ai'] };
    const r = screen(a, 'de');
    expect(r.reasons).toEqual([
      'Pflichtfall: Hochrisiko-KI-System. Ein KI-System einer Hochrisiko-Klasse nach der KI-Verordnung (Anhang III, z. B. Personalauswahl, Kreditwürdigkeitsprüfung, biometrische Identifizierung) verarbeitet personenbezogene Daten.',
      '2 der 9 WP248-Kriterien sind erfüllt (Bewertung oder Scoring; Schutzbedürftige betroffene Personen); ab zwei Kriterien ist von einem hohen Risiko auszugehen.',
    ]);
    expect(r.recommendation).toBe(
      'Vor Beginn der Verarbeitung ist eine DSFA durchzuführen (Art. 35 DSGVO). Der Rat des Datenschutzbeauftragten ist einzuholen (Art. 35 Abs. 2 DSGVO).',
    );
    const md = screeningMarkdown(a, r, '2026-11-25', 'de').split('\n');
    expect(md.slice(0, 8)).toEqual([
      'Screening vom 25.11.2026: DSFA erforderlich.',
      '',
      'Pflichtfälle:',
      '- [ ] Automatisierte Entscheidungen oder Profiling',
      '- [ ] Umfangreiche Verarbeitung sensibler Daten',
      '- [ ] Systematische Überwachung öffentlich zugänglicher Bereiche',
      '- [x] Hochrisiko-KI-System',
      '',
    ]);
    expect(md[8]).toBe('WP248-Kriterien:');
    expect(md).toContain('- [x] Bewertung oder Scoring');
    expect(md.join('\n')).not.toMatch(/\b(the|of|and|required|criteria|Mandatory)\b/);
    expect(screen({ criteria: ['large_scale'], triggers: [] }, 'de')).toMatchObject({
      reasons: [
        'Ein WP248-Kriterium ist erfüllt (Umfangreiche Verarbeitung); allein macht es eine DSFA nicht erforderlich.',
      ],
      recommendation: expect.stringMatching(/^Nach dem Screening ist keine DSFA erforderlich\./),
    });
    expect(screen({ criteria: [], triggers: [] }, 'de')).toMatchObject({
      reasons: ['Kein Pflichtfall liegt vor und kein WP248-Kriterium ist erfüllt.'],
      recommendation: expect.stringMatching(/^Keine DSFA erforderlich\./),
    });
  });

  it('derives the title from the processing activity, else from the day, in the language asked for', () => {
    expect(screeningTitle('Bewerbermanagement', '2026-11-25', 'de')).toBe('DSFA: Bewerbermanagement');
    expect(screeningTitle(undefined, '2026-11-25', 'de')).toBe('DSFA: Screening vom 25.11.2026');
    expect(screeningTitle('', '2026-11-25', 'en')).toBe('DSFA: screening of 25 Nov 2026');
  });

  it('accepts only known ids in the answers', () => {
    expect(ScreeningAnswersSchema.parse({})).toEqual({ criteria: [], triggers: [] });
    expect(ScreeningAnswersSchema.safeParse({ criteria: ['scoring', 'blocks_rights'] }).success).toBe(true);
    expect(ScreeningAnswersSchema.safeParse({ criteria: ['scorin'] }).success).toBe(false);
    expect(ScreeningAnswersSchema.safeParse({ triggers: ['high_risk_ai', 'x'] }).success).toBe(false);
  });
});
