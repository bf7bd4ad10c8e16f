import type { NotificationSettings, PlannedMessage } from './notification.schema.js';
import { ROLE_NAMES, render, type ItemText, type Level, type TemplateText } from './templates.js';

/** An assignment an escalation run raised, with the addresses its levels go to. */
export interface EscalatedAssignment {
  assignment_id: string;
  user_name: string;
  user_email: string;
  manager_email: string | null;
  module_title: string;
  /** The module's English title, where it has one: English e-mail names the module by it. */
  module_title_en: string | null;
  deadline: string;
  previous_level: number;
  new_level: number;
  days_overdue: number;
}

/** A level that reached nobody: its address is not known (no team lead on the assignment, none configured). */
export interface Unaddressed {
  assignment_id: string;
  level: number;
  reason: string;
}

export const sentKey = (assignmentId: string, level: number): string => `${assignmentId}:${level}`;

const isLevel = (n: number): n is Level => n >= 1 && n <= 4;

/**
 * The e-mail of one escalation run: every level an assignment reached in it (from the one after its previous level
 * up to the new one) goes to that level's person — 1 the employee, 2 the team lead, 3 management, 4 the compliance
 * officer — and each person gets one message per level, in that level's template, listing all their items. A level
 * already notified (`sent`) is left out, so a level is never mailed twice, whatever runs overlap.
 */
export function planEscalationMail(
  items: EscalatedAssignment[],
  settings: NotificationSettings,
  templates: Record<Level, TemplateText>,
  tenant: string,
  sent: ReadonlySet<string>,
): { messages: PlannedMessage[]; unaddressed: Unaddressed[] } {
  const language = settings.language;
  const byRecipient = new Map<
    string,
    { to: string; level: Level; name: string; items: ItemText[]; keys: PlannedMessage['assignments'] }
  >();
  const unaddressed: Unaddressed[] = [];
  for (const a of items) {
    for (let level = a.previous_level + 1; level <= a.new_level; level++) {
      if (!isLevel(level) || sent.has(sentKey(a.assignment_id, level))) continue;
      const to =
        level === 1
          ? a.user_email
          : level === 2
            ? a.manager_email
            : level === 3
              ? settings.management_email
              : settings.compliance_officer_email;
      if (!to) {
        unaddressed.push({
          assignment_id: a.assignment_id,
          level,
          reason:
            level === 2
              ? 'no manager_email on the assignment'
              : `no ${level === 3 ? 'management_email' : 'compliance_officer_email'} in the notification settings`,
        });
        continue;
      }
      const key = `${level}:${to.toLowerCase()}`;
      let m = byRecipient.get(key);
      if (!m)
        byRecipient.set(
          key,
          (m = { to, level, name: level === 1 ? a.user_name : ROLE_NAMES[language][level], items: [], keys: [] }),
        );
      m.items.push({
        module_title: (language === 'en' && a.module_title_en) || a.module_title,
        user_name: a.user_name,
        user_email: a.user_email,
        deadline: a.deadline,
        days_overdue: a.days_overdue,
        has_lead: Boolean(a.manager_email),
      });
      m.keys.push({ assignment_id: a.assignment_id, level });
    }
  }
  const messages = [...byRecipient.values()].map((m) => ({
    to: m.to,
    language,
    ...render(templates[m.level], language, m.level, {
      name: m.name,
      tenant,
      items: m.items,
      link: settings.base_url,
      management: Boolean(settings.management_email),
    }),
    assignments: m.keys,
  }));
  return { messages, unaddressed };
}
