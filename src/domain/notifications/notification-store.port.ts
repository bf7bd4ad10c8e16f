import type { NotificationLanguage, NotificationSettings, OutboxMessage, OutboxQuery } from './notification.schema.js';
import type { TemplateText } from './templates.js';

/** A template a tenant stored in place of a built-in one. */
export interface StoredTemplate extends TemplateText {
  name: string;
  language: NotificationLanguage;
}

/** A message to queue, with the (assignment, level) pairs it notifies. */
export interface QueuedMessage {
  id: string;
  tenant_id: string;
  run_id: string;
  recipient: string;
  language: NotificationLanguage;
  subject: string;
  body_text: string;
  body_html: string;
  created_at: string;
  assignments: Array<{ assignment_id: string; level: number }>;
}

/** A tenant's notification settings, templates and outbox, inside a unit of work or for reads outside one. */
export interface NotificationStore {
  /** The settings; undefined until the tenant set them. */
  settings(tenant: string): Promise<NotificationSettings | undefined>;
  putSettings(tenant: string, s: NotificationSettings & { updated_at: string }): Promise<void>;
  templates(tenant: string): Promise<StoredTemplate[]>;
  putTemplate(tenant: string, t: StoredTemplate, at: string): Promise<void>;
  deleteTemplate(tenant: string, name: string, language: string): Promise<boolean>;
  /** Which of the (assignment, level) keys (`id:level`) were already notified. */
  sentKeys(tenant: string, assignmentIds: string[]): Promise<Set<string>>;
  /**
   * Queues the messages and marks their (assignment, level) pairs notified, in the caller's transaction. A pair
   * another transaction marked first makes the insert fail, and the unit of work runs again (and leaves it out).
   */
  queue(messages: QueuedMessage[]): Promise<void>;
  outbox(tenant: string, q: OutboxQuery): Promise<OutboxMessage[]>;
}
