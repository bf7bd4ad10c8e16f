import { describe, expect, it } from 'vitest';
import { planEscalationMail, type EscalatedAssignment } from '../../src/domain/notifications/escalation-mail.js';
import type { NotificationLanguage, NotificationSettings } from '../../src/domain/notifications/notification.schema.js';
import { BUILT_IN, LEVEL_TEMPLATES, type Level, type TemplateText } from '../../src/domain/notifications/templates.js';

// Management and the compliance officer read who has already heard of the overdue trainings: a team lead is named
// only where the assignment has one, and the officer learns whether management was told.

const templates = (language: NotificationLanguage) =>
  Object.fromEntries(
    Object.entries(LEVEL_TEMPLATES).map(([level, name]) => [level, BUILT_IN[name][language]]),
  ) as Record<Level, TemplateText>;

const assignment = (id: string, user: string, manager: string | null): EscalatedAssignment => ({
  assignment_id: id,
  user_name: user,
  user_email: `${user}@firma.de`,
  manager_email: manager,
  module_title: 'DSGVO-Grundlagen',
  module_title_en: 'GDPR essentials',
  deadline: '2026-03-11T00:00:00.000Z',
  previous_level: 2,
  new_level: 4,
  days_overdue: 46,
});

const settings = (language: NotificationLanguage, management: string | null): NotificationSettings => ({
  language,
  management_email: management,
  compliance_officer_email: 'dpo@firma.de',
  base_url: null,
  updated_at: null,
});

/** The first paragraph after the greeting of the message to `to`. */
function said(items: EscalatedAssignment[], language: NotificationLanguage, to: string, management = 'board@firma.de') {
  const { messages } = planEscalationMail(items, settings(language, management), templates(language), 't', new Set());
  const m = messages.find((x) => x.to === to);
  expect(m, `a message to ${to}`).toBeDefined();
  return m!.body_text.split('\n\n')[1]!;
}

describe('escalation mail says who was told, as far as it is true', () => {
  it('management: every person has a team lead', () => {
    expect(said([assignment('a', 'anna', 'lead@firma.de')], 'de', 'board@firma.de')).toContain(
      'Die betroffene Person wurde bereits erinnert, ihre Teamleitung benachrichtigt. Übersicht nach Schulung:',
    );
    expect(
      said([assignment('a', 'anna', 'lead@firma.de'), assignment('b', 'ben', 'lead@firma.de')], 'en', 'board@firma.de'),
    ).toContain('The 2 people concerned have already been reminded and their team leads notified. Summary by course:');
  });

  it('management: no assignment names a team lead', () => {
    const de = said([assignment('a', 'anna', null), assignment('b', 'ben', null)], 'de', 'board@firma.de');
    expect(de).toContain(
      'Die 2 betroffenen Personen wurden bereits erinnert; eine Teamleitung ist nicht hinterlegt. Übersicht',
    );
    expect(de).not.toMatch(/Teamleitungen? (wurde|benachrichtigt)/);
    const en = said([assignment('a', 'anna', null)], 'en', 'board@firma.de');
    expect(en).toContain('The person concerned has already been reminded; no team lead is on record. Summary');
    expect(en).not.toContain('notified');
  });

  it('management: some assignments name a team lead', () => {
    const items = [assignment('a', 'anna', 'lead@firma.de'), assignment('b', 'ben', null)];
    expect(said(items, 'de', 'board@firma.de')).toContain(
      'Die 2 betroffenen Personen wurden bereits erinnert, ihre Teamleitungen benachrichtigt, soweit eine hinterlegt ist.',
    );
    expect(said(items, 'en', 'board@firma.de')).toContain(
      'The 2 people concerned have already been reminded and their team leads notified where one is on record.',
    );
  });

  it('the compliance officer learns whether management was told', () => {
    const items = [assignment('a', 'anna', 'lead@firma.de')];
    expect(said(items, 'de', 'dpo@firma.de')).toContain(
      'ihre Teamleitung benachrichtigt. Die Geschäftsleitung wurde informiert. Übersicht nach Schulung:',
    );
    expect(said(items, 'en', 'dpo@firma.de')).toContain(
      'their team lead notified. Management has been informed. Summary by course:',
    );
    expect(said(items, 'de', 'dpo@firma.de', null as never)).toContain(
      'Eine Adresse der Geschäftsleitung ist nicht hinterlegt. Übersicht nach Schulung:',
    );
    expect(said(items, 'en', 'dpo@firma.de', null as never)).toContain(
      'No management address is on record. Summary by course:',
    );
  });
});
