/** One question of the screening: a stable id, a short label, and what it means in practice. */
export interface ScreeningItem {
  id: string;
  label: string;
  explanation: string;
}

/**
 * The nine criteria of the EDPB-endorsed WP248 guideline on DPIAs, in our own words. Rule of thumb from the
 * guideline: processing that meets two or more of them is likely to need an assessment.
 */
export const WP248_CRITERIA: readonly ScreeningItem[] = [
  {
    id: 'scoring',
    label: 'Evaluation or scoring',
    explanation:
      'People are rated, profiled or predicted, e.g. credit scores, performance or behaviour analysis, health risk prediction.',
  },
  {
    id: 'automated_decision',
    label: 'Automated decision with legal or similar effect',
    explanation:
      'A system decides about people without meaningful human review, and the decision affects their rights or circumstances (Art. 22 GDPR).',
  },
  {
    id: 'systematic_monitoring',
    label: 'Systematic monitoring',
    explanation:
      'People are observed or tracked in a planned way, including in publicly accessible places, often without being able to avoid it.',
  },
  {
    id: 'sensitive_data',
    label: 'Sensitive or highly personal data',
    explanation:
      'Special categories of Art. 9 (health, religion, biometrics ...), criminal records (Art. 10), or data such as location, financial or communication content.',
  },
  {
    id: 'large_scale',
    label: 'Large scale',
    explanation: 'Many people, much data, a long retention period or a wide geographic reach are involved.',
  },
  {
    id: 'matching_datasets',
    label: 'Matching or combining datasets',
    explanation: 'Data from different sources or purposes is linked in a way people would not expect.',
  },
  {
    id: 'vulnerable_subjects',
    label: 'Vulnerable data subjects',
    explanation:
      'Employees, children, patients, elderly people, asylum seekers or others in a weaker position towards the controller.',
  },
  {
    id: 'innovative_technology',
    label: 'Innovative use of technology',
    explanation:
      'New technical or organisational solutions whose consequences are not yet well understood, e.g. AI, biometrics, IoT.',
  },
  {
    id: 'blocks_rights',
    label: 'Prevents exercising a right or using a service',
    explanation:
      'The processing decides whether people get access to a service or contract, or keeps them from exercising their rights.',
  },
];

/** The four situations of spec section 1 in which an assessment is mandatory on its own (Art. 35(3) GDPR, AI Act). */
export const DSFA_TRIGGERS: readonly ScreeningItem[] = [
  {
    id: 'automated_profiling',
    label: 'Automated decisions or profiling',
    explanation:
      'Systematic and extensive evaluation of personal aspects based on automated processing, on which decisions with legal or similarly significant effect are based (Art. 35(3)(a)).',
  },
  {
    id: 'sensitive_large_scale',
    label: 'Extensive processing of sensitive data',
    explanation:
      'Large-scale processing of special categories of data (Art. 9) or of data on criminal convictions (Art. 10) (Art. 35(3)(b)).',
  },
  {
    id: 'public_monitoring',
    label: 'Systematic monitoring of public areas',
    explanation:
      'Large-scale systematic monitoring of a publicly accessible area, e.g. video surveillance (Art. 35(3)(c)).',
  },
  {
    id: 'high_risk_ai',
    label: 'High-risk AI system',
    explanation:
      'An AI system of a high-risk class under the AI Act (Annex III, e.g. HR selection, credit scoring, biometric identification) processes personal data.',
  },
];

/** The answers of a screening: ids of the criteria met and of the mandatory cases that apply. */
export interface ScreeningAnswers {
  title?: string;
  processing_activity?: string;
  criteria: string[];
  triggers: string[];
}

export interface ScreeningResult {
  required: boolean;
  criteria_met: string[];
  triggers_met: string[];
  reasons: string[];
  recommendation: string;
}

/** The verdict: required when any trigger applies or two or more criteria are met. */
export function screen(a: ScreeningAnswers): ScreeningResult {
  const criteria = WP248_CRITERIA.filter((c) => a.criteria.includes(c.id));
  const triggers = DSFA_TRIGGERS.filter((t) => a.triggers.includes(t.id));
  const reasons: string[] = [];
  for (const t of triggers) reasons.push(`Mandatory case: ${t.label}. ${t.explanation}`);
  if (criteria.length >= 2)
    reasons.push(
      `${criteria.length} of the 9 WP248 criteria are met (${criteria.map((c) => c.label).join('; ')}); from two criteria on a high risk is presumed.`,
    );
  const required = triggers.length > 0 || criteria.length >= 2;
  let recommendation: string;
  if (required)
    recommendation =
      'A DSFA is required before the processing starts (Art. 35 GDPR). Consult the data protection officer (Art. 35(2)).';
  else if (criteria.length === 1) {
    reasons.push(`One WP248 criterion is met (${criteria[0]!.label}); on its own it does not make a DSFA mandatory.`);
    recommendation =
      'No DSFA required by the screening. Record this reasoning; carry out a DSFA anyway if the specific risk is high.';
  } else {
    reasons.push('No trigger applies and no WP248 criterion is met.');
    recommendation =
      'No DSFA required. Keep the screening result with the record of processing activities and repeat it when the processing changes.';
  }
  return {
    required,
    criteria_met: criteria.map((c) => c.id),
    triggers_met: triggers.map((t) => t.id),
    reasons,
    recommendation,
  };
}

/** The screening written as Markdown, stored in the description of a DSFA created from it. */
export function screeningMarkdown(a: ScreeningAnswers, r: ScreeningResult, date: string): string {
  const mark = (on: boolean) => (on ? '[x]' : '[ ]');
  return [
    `Screening of ${date}: DSFA ${r.required ? 'required' : 'not required'}.`,
    '',
    'Mandatory cases:',
    ...DSFA_TRIGGERS.map((t) => `- ${mark(a.triggers.includes(t.id))} ${t.label}`),
    '',
    'WP248 criteria:',
    ...WP248_CRITERIA.map((c) => `- ${mark(a.criteria.includes(c.id))} ${c.label}`),
    '',
    ...r.reasons.map((x) => `- ${x}`),
    '',
    r.recommendation,
  ].join('\n');
}
