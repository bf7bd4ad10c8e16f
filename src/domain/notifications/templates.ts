import type { NotificationLanguage } from './notification.schema.js';

export interface TemplateText {
  subject: string;
  body_text: string;
  body_html: string;
}

/** The built-in escalation templates; a tenant overrides them with `compliance notifications templates set`. */
export const BUILT_IN: Record<'escalation', Record<NotificationLanguage, TemplateText>> = {
  escalation: {
    de: {
      subject: 'Überfällige Pflichtschulungen ({{count}})',
      body_text:
        'Guten Tag {{name}},\n\nfolgende Pflichtschulungen sind überfällig und wurden eskaliert:\n\n{{items}}\n\nBitte sorgen Sie dafür, dass sie zeitnah abgeschlossen werden.\n\nIhr Compliance-Team',
      body_html:
        '<p>Guten Tag {{name}},</p><p>folgende Pflichtschulungen sind überfällig und wurden eskaliert:</p>{{items}}<p>Bitte sorgen Sie dafür, dass sie zeitnah abgeschlossen werden.</p><p>Ihr Compliance-Team</p>',
    },
    en: {
      subject: 'Overdue mandatory training ({{count}})',
      body_text:
        'Hello {{name}},\n\nthe following mandatory trainings are overdue and have been escalated:\n\n{{items}}\n\nPlease make sure they are completed soon.\n\nYour compliance team',
      body_html:
        '<p>Hello {{name}},</p><p>the following mandatory trainings are overdue and have been escalated:</p>{{items}}<p>Please make sure they are completed soon.</p><p>Your compliance team</p>',
    },
  },
};

/** Who a level goes to, as the greeting names them when no name is known. */
export const ROLE_NAMES: Record<NotificationLanguage, Record<number, string>> = {
  de: { 2: 'Teamleitung', 3: 'Geschäftsleitung', 4: 'Compliance-Beauftragte/r' },
  en: { 2: 'team lead', 3: 'management', 4: 'compliance officer' },
};

const ITEM: Record<NotificationLanguage, (i: ItemText) => string> = {
  de: (i) => `${i.module_title} – ${i.user_name} – ${i.days_overdue} Tage überfällig – Stufe ${i.level}`,
  en: (i) => `${i.module_title} – ${i.user_name} – ${i.days_overdue} days overdue – level ${i.level}`,
};

export interface ItemText {
  module_title: string;
  user_name: string;
  days_overdue: number;
  level: number;
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => values[k] ?? m);

/** A template filled for one recipient: plain values in subject and text, escaped ones in HTML. */
export function render(
  t: TemplateText,
  language: NotificationLanguage,
  v: { name: string; tenant: string; items: ItemText[] },
): TemplateText {
  const lines = v.items.map(ITEM[language]);
  const plain = { name: v.name, tenant: v.tenant, count: String(v.items.length) };
  return {
    subject: fill(t.subject, { ...plain, items: lines.join('; ') }).replace(/[\r\n]+/g, ' '),
    body_text: fill(t.body_text, { ...plain, items: lines.map((l) => `- ${l}`).join('\n') }),
    body_html: fill(t.body_html, {
      name: escapeHtml(v.name),
      tenant: escapeHtml(v.tenant),
      count: plain.count,
      items: `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
    }),
  };
}
