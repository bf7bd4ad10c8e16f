import { ESCALATION_STAGES } from '../training/training.values.js';
import type { NotificationLanguage, TemplateName } from './notification.schema.js';

export interface TemplateText {
  subject: string;
  body_text: string;
  body_html: string;
}

/** The escalation levels, by the name of their template (the level's label) and whom each one addresses. */
export const LEVEL_TEMPLATES = {
  1: 'reminder_employee',
  2: 'notify_team_lead',
  3: 'notify_management',
  4: 'notify_compliance_officer',
} as const;
export type Level = keyof typeof LEVEL_TEMPLATES;

/** Days overdue at which each level starts, as the texts name them. */
const [, LEAD, MANAGEMENT, OFFICER] = ESCALATION_STAGES.map((s) => s.days);

const GREETING_DE = 'Guten Tag{{#employee}} {{name}}{{/employee}},';
const GREETING_EN = 'Hello{{#employee}} {{name}}{{/employee}},';
const SIGNATURE_DE = 'Mit freundlichen Grüßen\nIhr Compliance-Team';
const SIGNATURE_EN = 'Kind regards\nThe compliance team';

/**
 * Who heard of the trainings before management did, as far as it is true: the people concerned were reminded, and
 * their team leads were told only where an assignment names one (`leads` all, `some_leads` some, `no_leads` none).
 */
const PEOPLE_TOLD_DE =
  '{{#one_person}}Die betroffene Person wurde{{/one_person}}' +
  '{{^one_person}}Die {{people}} betroffenen Personen wurden{{/one_person}} bereits erinnert' +
  '{{#leads}}, {{#one_person}}ihre Teamleitung{{/one_person}}{{^one_person}}ihre Teamleitungen{{/one_person}} ' +
  'benachrichtigt{{/leads}}' +
  '{{#some_leads}}, ihre Teamleitungen benachrichtigt, soweit eine hinterlegt ist{{/some_leads}}' +
  '{{#no_leads}}; eine Teamleitung ist nicht hinterlegt{{/no_leads}}';
const PEOPLE_TOLD_EN =
  '{{#one_person}}The person concerned has{{/one_person}}' +
  '{{^one_person}}The {{people}} people concerned have{{/one_person}} already been reminded' +
  '{{#leads}} and {{#one_person}}their team lead{{/one_person}}{{^one_person}}their team leads{{/one_person}} ' +
  'notified{{/leads}}' +
  '{{#some_leads}} and their team leads notified where one is on record{{/some_leads}}' +
  '{{#no_leads}}; no team lead is on record{{/no_leads}}';

/** A template from its paragraphs: blank lines between them in text, one <p> each in HTML (a list stands alone). */
function paragraphs(subject: string, ...parts: string[]): TemplateText {
  return {
    subject,
    body_text: parts.join('\n\n'),
    body_html: parts.map((p) => (p === '{{items}}' ? p : `<p>${p.replace(/\n/g, '<br>')}</p>`)).join(''),
  };
}

/**
 * The built-in templates: one per level and language, each written for its reader. `escalation` is one template a
 * tenant may set for every level that has no template of its own; its built-in text is used only when a tenant sets
 * it (`overridden`), as a starting point.
 */
export const BUILT_IN: Record<TemplateName, Record<NotificationLanguage, TemplateText>> = {
  reminder_employee: {
    de: paragraphs(
      'Erinnerung: {{#one}}Pflichtschulung{{/one}}{{^one}}{{count}} Pflichtschulungen{{/one}} überfällig',
      GREETING_DE,
      '{{#one}}die Frist für Ihre folgende Pflichtschulung ist abgelaufen:{{/one}}' +
        '{{^one}}die Fristen für Ihre folgenden Pflichtschulungen sind abgelaufen:{{/one}}',
      '{{items}}',
      'Bitte schließen Sie {{#one}}die Schulung{{/one}}{{^one}}die Schulungen{{/one}} so bald wie möglich ab.',
      '{{#link}}Zu Ihren Schulungen: {{link}}{{/link}}',
      'Bei Fragen wenden Sie sich bitte an Ihre Teamleitung oder an das Compliance-Team.',
      SIGNATURE_DE,
    ),
    en: paragraphs(
      'Reminder: {{#one}}mandatory training{{/one}}{{^one}}{{count}} mandatory training courses{{/one}} overdue',
      GREETING_EN,
      '{{#one}}The deadline for the following mandatory training has passed:{{/one}}' +
        '{{^one}}The deadlines for the following mandatory training courses have passed:{{/one}}',
      '{{items}}',
      'Please complete {{#one}}it{{/one}}{{^one}}them{{/one}} as soon as possible.',
      '{{#link}}Go to your training: {{link}}{{/link}}',
      'If you have any questions, please contact your team lead or the compliance team.',
      SIGNATURE_EN,
    ),
  },
  notify_team_lead: {
    de: paragraphs(
      'Ihr Team: {{#one}}eine Pflichtschulung{{/one}}{{^one}}{{count}} Pflichtschulungen{{/one}} überfällig',
      GREETING_DE,
      'in Ihrem Team ist die Frist für {{#one}}eine Pflichtschulung{{/one}}{{^one}}{{count}} Pflichtschulungen{{/one}} ' +
        `seit mindestens ${LEAD} Tagen abgelaufen. ` +
        '{{#one_person}}Die betroffene Person wurde{{/one_person}}' +
        '{{^one_person}}Die {{people}} betroffenen Personen wurden{{/one_person}} bereits erinnert:',
      '{{items}}',
      'Bitte sprechen Sie {{#one_person}}die Person{{/one_person}}{{^one_person}}die Personen{{/one_person}} an und ' +
        'sorgen Sie dafür, dass {{#one}}die Schulung zeitnah abgeschlossen wird{{/one}}' +
        '{{^one}}die Schulungen zeitnah abgeschlossen werden{{/one}}. ' +
        `Nach ${MANAGEMENT} Tagen wird die Geschäftsleitung informiert.`,
      '{{#link}}Zur Übersicht: {{link}}{{/link}}',
      SIGNATURE_DE,
    ),
    en: paragraphs(
      'Your team: {{#one}}mandatory training{{/one}}{{^one}}{{count}} mandatory training courses{{/one}} overdue',
      GREETING_EN,
      'In your team, the deadline for {{#one}}one mandatory training course{{/one}}' +
        `{{^one}}{{count}} mandatory training courses{{/one}} passed at least ${LEAD} days ago. ` +
        '{{#one_person}}The person concerned has{{/one_person}}' +
        '{{^one_person}}The {{people}} people concerned have{{/one_person}} already been reminded:',
      '{{items}}',
      'Please talk to {{#one_person}}them{{/one_person}}{{^one_person}}each of them{{/one_person}} and make sure the ' +
        `training is completed soon. After ${MANAGEMENT} days, management will be informed.`,
      '{{#link}}Overview: {{link}}{{/link}}',
      SIGNATURE_EN,
    ),
  },
  notify_management: {
    de: paragraphs(
      'Eskalation: {{#one}}eine Pflichtschulung{{/one}}{{^one}}{{count}} Pflichtschulungen{{/one}} ' +
        `seit mindestens ${MANAGEMENT} Tagen überfällig`,
      GREETING_DE,
      '{{#one}}eine Pflichtschulung ist{{/one}}{{^one}}{{count}} Pflichtschulungen sind{{/one}} ' +
        `seit mindestens ${MANAGEMENT} Tagen überfällig und {{#one}}wurde{{/one}}{{^one}}wurden{{/one}} daher an die ` +
        'Geschäftsleitung eskaliert. ' +
        PEOPLE_TOLD_DE +
        '. Übersicht nach Schulung:',
      '{{items}}',
      'Bitte wirken Sie darauf hin, dass {{#one}}die Schulung abgeschlossen wird{{/one}}' +
        '{{^one}}die Schulungen abgeschlossen werden{{/one}}. ' +
        `Nach ${OFFICER} Tagen wird die oder der Compliance-Beauftragte eingeschaltet.`,
      '{{#link}}Einzelheiten: {{link}}{{/link}}',
      SIGNATURE_DE,
    ),
    en: paragraphs(
      'Escalation: {{#one}}mandatory training{{/one}}{{^one}}{{count}} mandatory training courses{{/one}} ' +
        `overdue for ${MANAGEMENT} days or more`,
      GREETING_EN,
      '{{#one}}One mandatory training course has{{/one}}{{^one}}{{count}} mandatory training courses have{{/one}} ' +
        `been overdue for at least ${MANAGEMENT} days and {{#one}}has{{/one}}{{^one}}have{{/one}} therefore been ` +
        'escalated to management. ' +
        PEOPLE_TOLD_EN +
        '. Summary by course:',
      '{{items}}',
      `Please see to it that the training is completed. After ${OFFICER} days, the compliance officer will be involved.`,
      '{{#link}}Details: {{link}}{{/link}}',
      SIGNATURE_EN,
    ),
  },
  notify_compliance_officer: {
    de: paragraphs(
      'Eskalation: {{#one}}eine Pflichtschulung{{/one}}{{^one}}{{count}} Pflichtschulungen{{/one}} ' +
        `seit mindestens ${OFFICER} Tagen überfällig`,
      GREETING_DE,
      '{{#one}}eine Pflichtschulung ist{{/one}}{{^one}}{{count}} Pflichtschulungen sind{{/one}} ' +
        `seit mindestens ${OFFICER} Tagen überfällig und {{#one}}wurde{{/one}}{{^one}}wurden{{/one}} daher an Sie ` +
        'als Compliance-Beauftragte oder Compliance-Beauftragten eskaliert. ' +
        PEOPLE_TOLD_DE +
        '.{{#management}} Die Geschäftsleitung wurde informiert.{{/management}}' +
        '{{^management}} Eine Adresse der Geschäftsleitung ist nicht hinterlegt.{{/management}} Übersicht nach Schulung:',
      '{{items}}',
      'Bitte prüfen Sie, welche Maßnahmen erforderlich sind, und dokumentieren Sie das weitere Vorgehen.',
      '{{#link}}Einzelheiten: {{link}}{{/link}}',
      SIGNATURE_DE,
    ),
    en: paragraphs(
      'Escalation: {{#one}}mandatory training{{/one}}{{^one}}{{count}} mandatory training courses{{/one}} ' +
        `overdue for ${OFFICER} days or more`,
      GREETING_EN,
      '{{#one}}One mandatory training course has{{/one}}{{^one}}{{count}} mandatory training courses have{{/one}} ' +
        `been overdue for at least ${OFFICER} days and {{#one}}has{{/one}}{{^one}}have{{/one}} therefore been ` +
        'escalated to you as the compliance officer. ' +
        PEOPLE_TOLD_EN +
        '.{{#management}} Management has been informed.{{/management}}' +
        '{{^management}} No management address is on record.{{/management}} Summary by course:',
      '{{items}}',
      'Please decide which measures are needed and document how you proceed.',
      '{{#link}}Details: {{link}}{{/link}}',
      SIGNATURE_EN,
    ),
  },
  escalation: {
    de: paragraphs(
      'Überfällige Pflichtschulungen ({{count}})',
      'Guten Tag {{name}},',
      'folgende Pflichtschulungen sind überfällig:',
      '{{items}}',
      '{{#link}}Einzelheiten: {{link}}{{/link}}',
      SIGNATURE_DE,
    ),
    en: paragraphs(
      'Overdue mandatory training ({{count}})',
      'Hello {{name}},',
      'The following mandatory training is overdue:',
      '{{items}}',
      '{{#link}}Details: {{link}}{{/link}}',
      SIGNATURE_EN,
    ),
  },
};

/** Who a level goes to, as `{{name}}` names them (the employee by their own name). */
export const ROLE_NAMES: Record<NotificationLanguage, Record<Exclude<Level, 1>, string>> = {
  de: { 2: 'Teamleitung', 3: 'Geschäftsleitung', 4: 'Compliance-Beauftragte/r' },
  en: { 2: 'team lead', 3: 'management', 4: 'compliance officer' },
};

/** One escalated assignment as a message lists it. */
export interface ItemText {
  module_title: string;
  user_name: string;
  user_email: string;
  deadline: string;
  days_overdue: number;
  /** Whether the assignment names a team lead (who was then told at level 2). */
  has_lead: boolean;
}

const LOCALE: Record<NotificationLanguage, string> = { de: 'de-DE', en: 'en-GB' };

/** The calendar day of a deadline (UTC), as the mail's language writes it: `11. März 2026`, `11 March 2026`. */
export const formatDeadline = (deadline: string, language: NotificationLanguage): string =>
  new Intl.DateTimeFormat(LOCALE[language], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(deadline));

const WORDS = {
  de: {
    due: (i: ItemText) => `fällig am ${formatDeadline(i.deadline, 'de')}`,
    overdue: (days: number) => (days === 1 ? 'seit einem Tag überfällig' : `seit ${days} Tagen überfällig`),
    summary: (people: number, longest: number) =>
      `${people === 1 ? 'eine Person' : `${people} Personen`}, bis zu ${longest} ${longest === 1 ? 'Tag' : 'Tage'} überfällig`,
  },
  en: {
    due: (i: ItemText) => `due ${formatDeadline(i.deadline, 'en')}`,
    overdue: (days: number) => (days === 1 ? '1 day overdue' : `${days} days overdue`),
    summary: (people: number, longest: number) =>
      `${people === 1 ? 'one person' : `${people} people`}, up to ${longest} ${longest === 1 ? 'day' : 'days'} overdue`,
  },
} satisfies Record<NotificationLanguage, unknown>;

/** A list as text lines and as HTML: each entry a line, with lines beneath it indented (a nested list in HTML). */
interface Entry {
  line: string;
  sub?: string[];
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const listText = (entries: Entry[]): string =>
  entries.map((e) => [`- ${e.line}`, ...(e.sub ?? []).map((s) => `    ${s}`)].join('\n')).join('\n');

const listHtml = (entries: Entry[]): string =>
  `<ul>${entries
    .map(
      (e) =>
        `<li>${escapeHtml(e.line)}${e.sub ? `<ul>${e.sub.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` : ''}</li>`,
    )
    .join('')}</ul>`;

const byLongest = (a: ItemText, b: ItemText) =>
  b.days_overdue - a.days_overdue || a.module_title.localeCompare(b.module_title);

/**
 * What `{{items}}` lists for a level: the employee their own trainings with deadline and days overdue; the team lead
 * each person concerned with their trainings; management and the compliance officer a summary per training (how many
 * people, the longest overdue).
 */
function entries(level: Level, language: NotificationLanguage, items: ItemText[]): Entry[] {
  const w = WORDS[language];
  const training = (i: ItemText) => `${i.module_title} – ${w.due(i)}, ${w.overdue(i.days_overdue)}`;
  if (level === 1) return [...items].sort(byLongest).map((i) => ({ line: training(i) }));
  if (level === 2) {
    const people = new Map<string, ItemText[]>();
    for (const i of items)
      people.set(i.user_email.toLowerCase(), [...(people.get(i.user_email.toLowerCase()) ?? []), i]);
    return [...people.values()]
      .sort((a, b) => a[0]!.user_name.localeCompare(b[0]!.user_name, language))
      .map((own) => ({ line: `${own[0]!.user_name} (${own[0]!.user_email})`, sub: own.sort(byLongest).map(training) }));
  }
  const modules = new Map<string, ItemText[]>();
  for (const i of items) modules.set(i.module_title, [...(modules.get(i.module_title) ?? []), i]);
  return [...modules.entries()]
    .sort(([a], [b]) => a.localeCompare(b, language))
    .map(([title, of]) => ({
      line: `${title}: ${w.summary(new Set(of.map((i) => i.user_email.toLowerCase())).size, Math.max(...of.map((i) => i.days_overdue)))}`,
    }));
}

/**
 * Fills a template: `{{key}}` takes a value (unknown keys stay as written); `{{#key}}…{{/key}}` shows its text only
 * when the value is not empty, `{{^key}}…{{/key}}` only when it is (the sections of Mustache).
 */
export function fill(template: string, values: Record<string, string>): string {
  let out = template;
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(
      /\{\{([#^])\s*(\w+)\s*\}\}([\s\S]*?)\{\{\/\s*\2\s*\}\}/g,
      (_, kind: string, k: string, inner: string) => ((kind === '#') === Boolean(values[k]) ? inner : ''),
    );
  }
  return out.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => values[k] ?? m);
}

/** Blank lines a section left empty, gone: at most one blank line between paragraphs, none at the ends. */
const tidyText = (s: string): string => s.replace(/\n[ \t]*(\n[ \t]*)+\n/g, '\n\n').trim();
const tidyHtml = (s: string): string => s.replace(/<p>\s*<\/p>/g, '');

/** A template filled for one recipient of one level: plain values in subject and text, escaped ones in HTML. */
export function render(
  t: TemplateText,
  language: NotificationLanguage,
  level: Level,
  v: { name: string; tenant: string; items: ItemText[]; link: string | null; management: boolean },
): TemplateText {
  const list = entries(level, language, v.items);
  const people = new Set(v.items.map((i) => i.user_email.toLowerCase())).size;
  const withLead = v.items.filter((i) => i.has_lead).length;
  const flags = {
    count: String(v.items.length),
    people: String(people),
    one: v.items.length === 1 ? 'yes' : '',
    one_person: people === 1 ? 'yes' : '',
    employee: level === 1 ? 'yes' : '',
    leads: withLead === v.items.length ? 'yes' : '',
    some_leads: withLead > 0 && withLead < v.items.length ? 'yes' : '',
    no_leads: withLead === 0 ? 'yes' : '',
    management: v.management ? 'yes' : '',
  };
  const plain = { ...flags, name: v.name, tenant: v.tenant, link: v.link ?? '' };
  return {
    subject: fill(t.subject, { ...plain, items: list.map((e) => e.line).join('; ') })
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    body_text: tidyText(fill(t.body_text, { ...plain, items: listText(list) })),
    body_html: tidyHtml(
      fill(t.body_html, {
        ...flags,
        name: escapeHtml(v.name),
        tenant: escapeHtml(v.tenant),
        link: v.link ? `<a href="${escapeHtml(v.link)}">${escapeHtml(v.link)}</a>` : '',
        items: listHtml(list),
      }),
    ),
  };
}
