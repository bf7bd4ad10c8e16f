import type { StoredEntry } from '../journal/chain.js';
import { groupCounts, type BatchData } from '../journal/changes.js';

/** An event a journal entry stands for, before it becomes a delivery. */
export interface JournalEvent {
  type: string;
  data: Record<string, unknown>;
}

const parse = (text: string | null): Record<string, unknown> | undefined => {
  if (text === null) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** A column that holds JSON as text (audit values, details), as an object. */
const inner = (v: unknown): Record<string, unknown> => (typeof v === 'string' ? (parse(v) ?? {}) : {});

const TRAINING_ACTIONS: Record<string, string> = {
  assigned: 'training.assigned',
  completed: 'training.completed',
  escalated: 'training.escalated',
  certificate_issued: 'training.certificate_issued',
};

const CONSENT_ACTIONS: Record<string, string> = {
  granted: 'consent.granted',
  revoked: 'consent.revoked',
  renewed: 'consent.renewed',
  version_update: 'consent.renewed',
};

/**
 * The events of one journal entry. They are read from the audit trails the services write in the same transaction
 * as the change (dsfa_audit, consent_history, training_audit), which hold the values before and after, and from the
 * rows themselves where no trail exists (a published legal document version, an import run's batch). Genesis entries
 * (records stored before the journal) are history, not events.
 */
export function eventsOf(e: StoredEntry): JournalEvent[] {
  if (e.op === 'genesis' || e.op === 'delete') return [];
  if (e.op === 'batch') {
    if (e.entity !== 'consent_import_run') return [];
    const data = parse(e.data) as BatchData | undefined;
    return [
      {
        type: 'consents.imported',
        data: {
          import_run_id: e.entity_id,
          rows: Array.isArray(data?.groups) ? groupCounts(data!) : [],
        },
      },
    ];
  }
  const row = parse(e.data);
  if (!row) return [];
  switch (e.entity) {
    case 'dsfa_audit': {
      const before = inner(row.old_values);
      const after = inner(row.new_values);
      const base = { dsfa_id: row.dsfa_id, changed_by: row.changed_by };
      if (row.action === 'CREATE') return [{ type: 'dsfa.created', data: { ...base, status: after.status ?? null } }];
      if (row.action === 'DELETE') return [{ type: 'dsfa.deleted', data: base }];
      if ('status' in after && before.status !== after.status)
        return [{ type: 'dsfa.status_changed', data: { ...base, from: before.status ?? null, to: after.status } }];
      return [];
    }
    case 'consent_history': {
      const type = CONSENT_ACTIONS[String(row.action)];
      if (!type || e.op !== 'insert') return [];
      return [
        {
          type,
          data: {
            consent_id: row.consent_id,
            action: row.action,
            consent_version: row.consent_version,
            source: row.source ?? null,
          },
        },
      ];
    }
    case 'legal_document_version':
      if (row.status !== 'published') return [];
      return [
        {
          type: 'legal_document.published',
          data: {
            document_id: row.document_id,
            version_id: row.id,
            version_number: row.version_number,
            title: row.title,
          },
        },
      ];
    case 'training_audit': {
      const type = TRAINING_ACTIONS[String(row.action)];
      if (!type || e.op !== 'insert') return [];
      return [{ type, data: { [`${row.entity_type}_id`]: row.entity_id, actor: row.actor, ...inner(row.details) } }];
    }
    default:
      return [];
  }
}

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export const subscribed = (events: readonly string[], type: string): boolean =>
  events.includes('*') || events.includes(type);
