import type { Kysely } from 'kysely';
import type {
  NotificationLanguage,
  NotificationSettings,
  OutboxMessage,
  OutboxQuery,
} from '../../domain/notifications/notification.schema.js';
import type {
  NotificationStore,
  QueuedMessage,
  StoredTemplate,
} from '../../domain/notifications/notification-store.port.js';
import type { DB } from '../db-types.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

const templateId = (name: string, language: string) => JSON.stringify([name, language]);

/**
 * NotificationStore on either engine. Settings and templates are the tenant's data and journaled; the outbox and the
 * notified (assignment, level) pairs are delivery state beside the change that caused them, in its transaction but
 * not in the journal (the messages hold personal data the journal need not keep a second time).
 */
export class KyselyNotificationStore implements NotificationStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  async settings(tenant: string): Promise<NotificationSettings | undefined> {
    const r = await this.db
      .selectFrom('notification_setting')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .executeTakeFirst();
    return (
      r && {
        language: r.language as NotificationLanguage,
        management_email: r.management_email,
        compliance_officer_email: r.compliance_officer_email,
        base_url: r.base_url ?? null,
        updated_at: r.updated_at,
      }
    );
  }

  async putSettings(tenant: string, s: NotificationSettings & { updated_at: string }): Promise<void> {
    const row = {
      tenant_id: tenant,
      language: s.language,
      management_email: s.management_email,
      compliance_officer_email: s.compliance_officer_email,
      base_url: s.base_url,
      updated_at: s.updated_at,
    };
    await this.db
      .insertInto('notification_setting')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(row))
      .execute();
    this.journal.put('notification_setting', tenant, row);
  }

  async templates(tenant: string): Promise<StoredTemplate[]> {
    const rows = await this.db
      .selectFrom('notification_template')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .orderBy('name')
      .orderBy('language')
      .execute();
    return rows.map((r) => ({
      name: r.name,
      language: r.language as NotificationLanguage,
      subject: r.subject,
      body_text: r.body_text,
      body_html: r.body_html,
    }));
  }

  async putTemplate(tenant: string, t: StoredTemplate, at: string): Promise<void> {
    const row = { tenant_id: tenant, ...t, updated_at: at };
    await this.db
      .insertInto('notification_template')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'name', 'language']).doUpdateSet(row))
      .execute();
    this.journal.put('notification_template', templateId(t.name, t.language), row);
  }

  async deleteTemplate(tenant: string, name: string, language: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('notification_template')
      .where('tenant_id', '=', tenant)
      .where('name', '=', name)
      .where('language', '=', language)
      .executeTakeFirst();
    const removed = Number(r.numDeletedRows) > 0;
    if (removed) this.journal.remove('notification_template', templateId(name, language));
    return removed;
  }

  async sentKeys(tenant: string, assignmentIds: string[]): Promise<Set<string>> {
    const keys = new Set<string>();
    for (let i = 0; i < assignmentIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('notification_escalation_sent')
        .select(['assignment_id', 'level'])
        .where('tenant_id', '=', tenant)
        .where('assignment_id', 'in', assignmentIds.slice(i, i + 500))
        .execute();
      for (const r of rows) keys.add(`${r.assignment_id}:${r.level}`);
    }
    return keys;
  }

  async queue(messages: QueuedMessage[]): Promise<void> {
    for (const m of messages) {
      const { assignments, ...message } = m;
      await this.db
        .insertInto('notification_outbox')
        .values({
          ...message,
          status: 'queued',
          attempts: 0,
          next_attempt_at: m.created_at,
          sent_at: null,
          last_error: null,
          claimed_by: null,
          claimed_until: null,
        })
        .execute();
      for (let i = 0; i < assignments.length; i += 200)
        await this.db
          .insertInto('notification_escalation_sent')
          .values(
            assignments.slice(i, i + 200).map((a) => ({
              tenant_id: m.tenant_id,
              assignment_id: a.assignment_id,
              level: a.level,
              outbox_id: m.id,
              created_at: m.created_at,
            })),
          )
          .execute();
    }
  }

  async outbox(tenant: string, q: OutboxQuery): Promise<OutboxMessage[]> {
    let s = this.db
      .selectFrom('notification_outbox')
      .select([
        'id',
        'run_id',
        'recipient',
        'language',
        'subject',
        'status',
        'attempts',
        'created_at',
        'next_attempt_at',
        'sent_at',
        'last_error',
      ])
      .where('tenant_id', '=', tenant);
    if (q.failed)
      s = s.where((eb) =>
        eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'queued'), eb('attempts', '>', 0)])]),
      );
    const rows = await s.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map((r) => ({
      ...r,
      language: r.language as NotificationLanguage,
      status: r.status as OutboxMessage['status'],
      attempts: Number(r.attempts),
    }));
  }
}
