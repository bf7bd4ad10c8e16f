import { formatDate, type ReportLanguage } from '../report-locale.js';

/** One question of the screening, in one language: a stable id, a short label, and what it means in practice. */
export interface ScreeningItem {
  id: string;
  label: string;
  explanation: string;
}

/** A question of the screening in every language it is asked in. */
export type ScreeningQuestion = { id: string } & Record<ReportLanguage, { label: string; explanation: string }>;

/**
 * The nine criteria of the EDPB-endorsed WP248 guideline on DPIAs, in our own words. Rule of thumb from the
 * guideline: processing that meets two or more of them is likely to need an assessment.
 */
export const WP248_CRITERIA: readonly ScreeningQuestion[] = [
  {
    id: 'scoring',
    de: {
      label: 'Bewertung oder Scoring',
      explanation:
        'Menschen werden bewertet, profiliert oder ihr Verhalten wird vorhergesagt, z. B. Bonitätswerte, Leistungs- oder Verhaltensanalysen, Vorhersage von Gesundheitsrisiken.',
    },
    en: {
      label: 'Evaluation or scoring',
      explanation:
        'People are rated, profiled or predicted, e.g. credit scores, performance or behaviour analysis, health risk prediction.',
    },
  },
  {
    id: 'automated_decision',
    de: {
      label: 'Automatisierte Entscheidung mit Rechtswirkung oder ähnlich erheblicher Wirkung',
      explanation:
        'Ein System entscheidet ohne echte menschliche Prüfung über Menschen, und die Entscheidung berührt ihre Rechte oder Lebensumstände (Art. 22 DSGVO).',
    },
    en: {
      label: 'Automated decision with legal or similar effect',
      explanation:
        'A system decides about people without meaningful human review, and the decision affects their rights or circumstances (Art. 22 GDPR).',
    },
  },
  {
    id: 'systematic_monitoring',
    de: {
      label: 'Systematische Überwachung',
      explanation:
        'Menschen werden planmäßig beobachtet oder verfolgt, auch in öffentlich zugänglichen Bereichen, oft ohne sich dem entziehen zu können.',
    },
    en: {
      label: 'Systematic monitoring',
      explanation:
        'People are observed or tracked in a planned way, including in publicly accessible places, often without being able to avoid it.',
    },
  },
  {
    id: 'sensitive_data',
    de: {
      label: 'Sensible oder höchstpersönliche Daten',
      explanation:
        'Besondere Kategorien nach Art. 9 (Gesundheit, Religion, Biometrie …), Daten über Straftaten (Art. 10) oder Daten wie Standort, Finanzen oder Kommunikationsinhalte.',
    },
    en: {
      label: 'Sensitive or highly personal data',
      explanation:
        'Special categories of Art. 9 (health, religion, biometrics ...), criminal records (Art. 10), or data such as location, financial or communication content.',
    },
  },
  {
    id: 'large_scale',
    de: {
      label: 'Umfangreiche Verarbeitung',
      explanation:
        'Viele Personen, viele Daten, eine lange Speicherdauer oder eine große geografische Reichweite sind betroffen.',
    },
    en: {
      label: 'Large scale',
      explanation: 'Many people, much data, a long retention period or a wide geographic reach are involved.',
    },
  },
  {
    id: 'matching_datasets',
    de: {
      label: 'Abgleichen oder Zusammenführen von Datensätzen',
      explanation:
        'Daten aus verschiedenen Quellen oder Zwecken werden so verknüpft, wie es die betroffenen Personen nicht erwarten.',
    },
    en: {
      label: 'Matching or combining datasets',
      explanation: 'Data from different sources or purposes is linked in a way people would not expect.',
    },
  },
  {
    id: 'vulnerable_subjects',
    de: {
      label: 'Schutzbedürftige betroffene Personen',
      explanation:
        'Beschäftigte, Kinder, Patientinnen und Patienten, ältere Menschen, Asylsuchende oder andere, die dem Verantwortlichen gegenüber in einer schwächeren Position sind.',
    },
    en: {
      label: 'Vulnerable data subjects',
      explanation:
        'Employees, children, patients, elderly people, asylum seekers or others in a weaker position towards the controller.',
    },
  },
  {
    id: 'innovative_technology',
    de: {
      label: 'Innovative Nutzung neuer Technologien',
      explanation:
        'Neue technische oder organisatorische Lösungen, deren Folgen noch nicht gut verstanden sind, z. B. KI, Biometrie, IoT.',
    },
    en: {
      label: 'Innovative use of technology',
      explanation:
        'New technical or organisational solutions whose consequences are not yet well understood, e.g. AI, biometrics, IoT.',
    },
  },
  {
    id: 'blocks_rights',
    de: {
      label: 'Hindert an der Ausübung eines Rechts oder der Nutzung einer Dienstleistung',
      explanation:
        'Die Verarbeitung entscheidet, ob Menschen Zugang zu einer Dienstleistung oder einem Vertrag erhalten, oder hindert sie an der Ausübung ihrer Rechte.',
    },
    en: {
      label: 'Prevents exercising a right or using a service',
      explanation:
        'The processing decides whether people get access to a service or contract, or keeps them from exercising their rights.',
    },
  },
];

/** The four situations of spec section 1 in which an assessment is mandatory on its own (Art. 35(3) GDPR, AI Act). */
export const DSFA_TRIGGERS: readonly ScreeningQuestion[] = [
  {
    id: 'automated_profiling',
    de: {
      label: 'Automatisierte Entscheidungen oder Profiling',
      explanation:
        'Systematische und umfassende Bewertung persönlicher Aspekte auf der Grundlage automatisierter Verarbeitung, die als Grundlage für Entscheidungen mit Rechtswirkung oder ähnlich erheblicher Wirkung dient (Art. 35 Abs. 3 lit. a DSGVO).',
    },
    en: {
      label: 'Automated decisions or profiling',
      explanation:
        'Systematic and extensive evaluation of personal aspects based on automated processing, on which decisions with legal or similarly significant effect are based (Art. 35(3)(a)).',
    },
  },
  {
    id: 'sensitive_large_scale',
    de: {
      label: 'Umfangreiche Verarbeitung sensibler Daten',
      explanation:
        'Umfangreiche Verarbeitung besonderer Kategorien personenbezogener Daten (Art. 9) oder von Daten über strafrechtliche Verurteilungen und Straftaten (Art. 10) (Art. 35 Abs. 3 lit. b DSGVO).',
    },
    en: {
      label: 'Extensive processing of sensitive data',
      explanation:
        'Large-scale processing of special categories of data (Art. 9) or of data on criminal convictions (Art. 10) (Art. 35(3)(b)).',
    },
  },
  {
    id: 'public_monitoring',
    de: {
      label: 'Systematische Überwachung öffentlich zugänglicher Bereiche',
      explanation:
        'Systematische umfangreiche Überwachung öffentlich zugänglicher Bereiche, z. B. Videoüberwachung (Art. 35 Abs. 3 lit. c DSGVO).',
    },
    en: {
      label: 'Systematic monitoring of public areas',
      explanation:
        'Large-scale systematic monitoring of a publicly accessible area, e.g. video surveillance (Art. 35(3)(c)).',
    },
  },
  {
    id: 'high_risk_ai',
    de: {
      label: 'Hochrisiko-KI-System',
      explanation:
        'Ein KI-System einer Hochrisiko-Klasse nach der KI-Verordnung (Anhang III, z. B. Personalauswahl, Kreditwürdigkeitsprüfung, biometrische Identifizierung) verarbeitet personenbezogene Daten.',
    },
    en: {
      label: 'High-risk AI system',
      explanation:
        'An AI system of a high-risk class under the AI Act (Annex III, e.g. HR selection, credit scoring, biometric identification) processes personal data.',
    },
  },
];

/** The questions of a list in one language. */
export const inLanguage = (questions: readonly ScreeningQuestion[], lang: ReportLanguage): ScreeningItem[] =>
  questions.map((q) => ({ id: q.id, ...q[lang] }));

/** Every sentence the screening writes, in each language it is written in. */
const TEXT = {
  de: {
    mandatory: (item: ScreeningItem) => `Pflichtfall: ${item.label}. ${item.explanation}`,
    criteria: (n: number, labels: string) =>
      `${n} der 9 WP248-Kriterien sind erfüllt (${labels}); ab zwei Kriterien ist von einem hohen Risiko auszugehen.`,
    oneCriterion: (label: string) =>
      `Ein WP248-Kriterium ist erfüllt (${label}); allein macht es eine DSFA nicht erforderlich.`,
    nothing: 'Kein Pflichtfall liegt vor und kein WP248-Kriterium ist erfüllt.',
    required:
      'Vor Beginn der Verarbeitung ist eine DSFA durchzuführen (Art. 35 DSGVO). Der Rat des Datenschutzbeauftragten ist einzuholen (Art. 35 Abs. 2 DSGVO).',
    notRequiredOne:
      'Nach dem Screening ist keine DSFA erforderlich. Diese Begründung dokumentieren; bei im Einzelfall hohem Risiko dennoch eine DSFA durchführen.',
    notRequired:
      'Keine DSFA erforderlich. Das Ergebnis des Screenings beim Verzeichnis von Verarbeitungstätigkeiten aufbewahren und bei Änderungen der Verarbeitung wiederholen.',
    heading: (day: string, required: boolean) =>
      `Screening vom ${day}: DSFA ${required ? 'erforderlich' : 'nicht erforderlich'}.`,
    triggers: 'Pflichtfälle:',
    wp248: 'WP248-Kriterien:',
    verdict: (required: boolean) => `DSFA erforderlich: ${required ? 'ja' : 'nein'}`,
    title: (day: string) => `DSFA: Screening vom ${day}`,
    created: (id: string) => `DSFA-Entwurf angelegt: ${id}`,
    askTriggers: 'Welche dieser Pflichtfälle liegen vor?',
    askCriteria: 'Welche WP248-Kriterien erfüllt die Verarbeitung?',
    askTitle: 'Titel der neuen DSFA',
  },
  en: {
    mandatory: (item: ScreeningItem) => `Mandatory case: ${item.label}. ${item.explanation}`,
    criteria: (n: number, labels: string) =>
      `${n} of the 9 WP248 criteria are met (${labels}); from two criteria on a high risk is presumed.`,
    oneCriterion: (label: string) =>
      `One WP248 criterion is met (${label}); on its own it does not make a DSFA mandatory.`,
    nothing: 'No trigger applies and no WP248 criterion is met.',
    required:
      'A DSFA is required before the processing starts (Art. 35 GDPR). Consult the data protection officer (Art. 35(2)).',
    notRequiredOne:
      'No DSFA required by the screening. Record this reasoning; carry out a DSFA anyway if the specific risk is high.',
    notRequired:
      'No DSFA required. Keep the screening result with the record of processing activities and repeat it when the processing changes.',
    heading: (day: string, required: boolean) => `Screening of ${day}: DSFA ${required ? 'required' : 'not required'}.`,
    triggers: 'Mandatory cases:',
    wp248: 'WP248 criteria:',
    verdict: (required: boolean) => `DSFA required: ${required ? 'yes' : 'no'}`,
    title: (day: string) => `DSFA: screening of ${day}`,
    created: (id: string) => `created draft DSFA ${id}`,
    askTriggers: 'Which of these mandatory cases apply?',
    askCriteria: 'Which WP248 criteria does the processing meet?',
    askTitle: 'Title of the new DSFA',
  },
};

/** The words of the screening in one language: what it writes into a DSFA, prints and asks. */
export const screeningText = (lang: ReportLanguage) => TEXT[lang];

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

/** The verdict: required when any trigger applies or two or more criteria are met; its reasons in `lang`. */
export function screen(a: ScreeningAnswers, lang: ReportLanguage): ScreeningResult {
  const t = TEXT[lang];
  const criteria = inLanguage(WP248_CRITERIA, lang).filter((c) => a.criteria.includes(c.id));
  const triggers = inLanguage(DSFA_TRIGGERS, lang).filter((x) => a.triggers.includes(x.id));
  const reasons: string[] = triggers.map(t.mandatory);
  if (criteria.length >= 2) reasons.push(t.criteria(criteria.length, criteria.map((c) => c.label).join('; ')));
  const required = triggers.length > 0 || criteria.length >= 2;
  let recommendation: string;
  if (required) recommendation = t.required;
  else if (criteria.length === 1) {
    reasons.push(t.oneCriterion(criteria[0]!.label));
    recommendation = t.notRequiredOne;
  } else {
    reasons.push(t.nothing);
    recommendation = t.notRequired;
  }
  return {
    required,
    criteria_met: criteria.map((c) => c.id),
    triggers_met: triggers.map((x) => x.id),
    reasons,
    recommendation,
  };
}

/** The title of a DSFA created from a screening when none is given: from the processing activity, else the day. */
export const screeningTitle = (processingActivity: string | undefined, day: string, lang: ReportLanguage): string =>
  processingActivity ? `DSFA: ${processingActivity}` : TEXT[lang].title(formatDate(day, lang));

/** The screening of `day` (YYYY-MM-DD) written as Markdown in `lang`, stored in the description of a DSFA created from it. */
export function screeningMarkdown(a: ScreeningAnswers, r: ScreeningResult, day: string, lang: ReportLanguage): string {
  const t = TEXT[lang];
  const mark = (on: boolean) => (on ? '[x]' : '[ ]');
  return [
    t.heading(formatDate(day, lang), r.required),
    '',
    t.triggers,
    ...inLanguage(DSFA_TRIGGERS, lang).map((x) => `- ${mark(a.triggers.includes(x.id))} ${x.label}`),
    '',
    t.wp248,
    ...inLanguage(WP248_CRITERIA, lang).map((c) => `- ${mark(a.criteria.includes(c.id))} ${c.label}`),
    '',
    ...r.reasons.map((x) => `- ${x}`),
    '',
    r.recommendation,
  ].join('\n');
}
