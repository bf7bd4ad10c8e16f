import { describe, expect, it } from 'vitest';
import { DSFA_TRIGGERS, screen, screeningMarkdown, WP248_CRITERIA } from '../../src/domain/dsfa/screening.js';
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
    for (const item of [...WP248_CRITERIA, ...DSFA_TRIGGERS]) {
      expect(item.label.length, item.id).toBeGreaterThan(5);
      expect(item.explanation.length, item.id).toBeGreaterThan(20);
    }
    expect(new Set(WP248_CRITERIA.map((c) => c.label)).size).toBe(9);
  });

  it.each(CRITERIA)('one criterion (%s) alone does not make a DSFA mandatory, and is reported', (id) => {
    const r = screen({ criteria: [id], triggers: [] });
    expect(r.required).toBe(false);
    expect(r.criteria_met).toEqual([id]);
    expect(r.triggers_met).toEqual([]);
    const label = WP248_CRITERIA.find((c) => c.id === id)!.label;
    expect(r.reasons).toEqual([`One WP248 criterion is met (${label}); on its own it does not make a DSFA mandatory.`]);
    expect(r.recommendation).toMatch(/^No DSFA required by the screening\. Record this reasoning/);
  });

  it.each(TRIGGERS)('a mandatory case (%s) alone requires a DSFA', (id) => {
    const r = screen({ criteria: [], triggers: [id] });
    const t = DSFA_TRIGGERS.find((x) => x.id === id)!;
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
    const r = screen({ criteria: ['vulnerable_subjects', 'scoring'], triggers: [] });
    expect(r.required).toBe(true);
    expect(r.criteria_met).toEqual(['scoring', 'vulnerable_subjects']);
    expect(r.reasons).toEqual([
      '2 of the 9 WP248 criteria are met (Evaluation or scoring; Vulnerable data subjects); from two criteria on a high risk is presumed.',
    ]);
    const all = screen({ criteria: [...CRITERIA].reverse(), triggers: [...TRIGGERS] });
    expect(all.criteria_met).toEqual(CRITERIA);
    expect(all.triggers_met).toEqual(TRIGGERS);
    expect(all.reasons).toHaveLength(5);
    expect(all.reasons[4]).toMatch(/^9 of the 9 WP248 criteria are met/);
  });

  it('requires nothing when no criterion and no case applies, and ignores unknown ids', () => {
    const r = screen({ criteria: ['unknown'], triggers: ['nope'] });
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
    const md = screeningMarkdown(a, screen(a), '2026-11-25');
    const lines = md.split('\n');
    expect(lines[0]).toBe('Screening of 2026-11-25: DSFA required.');
    expect(lines).toContain('- [x] High-risk AI system');
    expect(lines).toContain('- [ ] Automated decisions or profiling');
    expect(lines).toContain('- [x] Evaluation or scoring');
    expect(lines).toContain('- [x] Large scale');
    expect(lines).toContain('- [ ] Vulnerable data subjects');
    expect(lines.filter((l) => /^- \[[ x]\] /.test(l))).toHaveLength(13);
    expect(lines.at(-1)).toMatch(/^A DSFA is required/);
    const none = { criteria: [], triggers: [] };
    expect(screeningMarkdown(none, screen(none), '2026-01-01').split('\n')[0]).toBe(
      'Screening of 2026-01-01: DSFA not required.',
    );
  });

  it('writes the Markdown in the order a reader expects: verdict, cases, criteria, reasons, recommendation', () => {
    const a = { criteria: ['scoring'], triggers: [] };
    const r = screen(a);
    expect(screeningMarkdown(a, r, '2026-11-25')).toBe(
      [
        'Screening of 2026-11-25: DSFA not required.',
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

  it('accepts only known ids in the answers', () => {
    expect(ScreeningAnswersSchema.parse({})).toEqual({ criteria: [], triggers: [] });
    expect(ScreeningAnswersSchema.safeParse({ criteria: ['scoring', 'blocks_rights'] }).success).toBe(true);
    expect(ScreeningAnswersSchema.safeParse({ criteria: ['scorin'] }).success).toBe(false);
    expect(ScreeningAnswersSchema.safeParse({ triggers: ['high_risk_ai', 'x'] }).success).toBe(false);
  });
});
