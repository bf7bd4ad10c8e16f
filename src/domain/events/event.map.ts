import type { StoredEntry } from '../journal/chain.js';
import { BATCH_OP, changesOf, groupCounts, type BatchData } from '../journal/changes.js';

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

/** Whom a consent event concerns: the consent's user and data point, and whether it records a grant or a refusal. */
export interface ConsentSubject {
  user_id: string;
  data_point_id: string;
  granted: boolean;
}

/** The subject of a consent row as a journal entry or a batch holds it (`granted` 1 or 0). */
const subjectOf = (row: Record<string, unknown>): ConsentSubject => ({
  user_id: String(row.user_id),
  data_point_id: String(row.data_point_id),
  granted: row.granted === 1 || row.granted === true,
});

/**
 * The consents whose history entries among `entries` make events, and the subjects the entries hold themselves (a
 * consent row written in the same page: created, revoked, renewed to a version); the others' subjects are read from
 * the store (DeliveryQueue.consentSubjects) before `eventsOf`.
 */
export function consentSubjectsIn(entries: readonly StoredEntry[]): {
  known: Map<string, ConsentSubject>;
  wanted: string[];
} {
  const known = new Map<string, ConsentSubject>();
  const wanted = new Set<string>();
  for (const e of entries) {
    if (e.op === 'genesis' || e.op === 'delete' || e.op === 'batch') continue;
    if (e.entity === 'consent') {
      const row = parse(e.data);
      if (row) known.set(e.entity_id, subjectOf(row));
    } else if (e.entity === 'consent_history' && e.op === 'insert') {
      const id = parse(e.data)?.consent_id;
      if (typeof id === 'string') wanted.add(id);
    }
  }
  return { known, wanted: [...wanted].filter((id) => !known.has(id)) };
}

/** The event of a consent-history entry, naming whom it concerns (null values when the consent is gone). */
function consentEvent(entry: Record<string, unknown>, subject: ConsentSubject | undefined): JournalEvent | null {
  let type = CONSENT_ACTIONS[String(entry.action)];
  if (!type) return null;
  // every consent is created with a `granted` entry; a refusal's is its refusal
  if (type === 'consent.granted' && subject && !subject.granted) type = 'consent.refused';
  return {
    type,
    data: {
      consent_id: entry.consent_id,
      user_id: subject?.user_id ?? null,
      data_point_id: subject?.data_point_id ?? null,
      action: entry.action,
      consent_version: entry.consent_version,
      source: entry.source ?? null,
    },
  };
}

/**
 * The per-consent events of an import's batch: the revocations and renewals of consents stored before it (entries of
 * the run with source `import` on a consent the batch updates). The consents it creates are its `consents.imported`.
 */
function importedChanges(data: BatchData | undefined, run: string): JournalEvent[] {
  if (!Array.isArray(data?.groups)) return [];
  // the batch's rows as every reader of the journal expands them (changesOf)
  const batch = { entity: 'consent_import_run', entity_id: run, op: BATCH_OP, data };
  const updated = new Map<string, ConsentSubject>();
  for (const c of changesOf(batch, 'consent'))
    if (c.op === 'update' && c.row) updated.set(String(c.row.id), subjectOf(c.row));
  if (!updated.size) return [];
  const out: JournalEvent[] = [];
  for (const c of changesOf(batch, 'consent_history')) {
    if (c.op !== 'insert' || !c.row) continue;
    const subject = updated.get(String(c.row.consent_id));
    if (!subject || c.row.source !== 'import') continue;
    const ev = consentEvent(c.row, subject);
    if (ev) out.push({ type: ev.type, data: { ...ev.data, import_run_id: run } });
  }
  return out;
}

/**
 * The events of one journal entry. They are read from the audit trails the services write in the same transaction
 * as the change (dsfa_audit, consent_history, training_audit), which hold the values before and after, and from the
 * rows themselves where no trail exists (a published legal document version, an import run's batch). Genesis entries
 * (records stored before the journal) are history, not events. A consent event names whom it concerns from
 * `subjects` (consentSubjectsIn).
 */
export function eventsOf(e: StoredEntry, subjects: ReadonlyMap<string, ConsentSubject> = new Map()): JournalEvent[] {
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
      ...importedChanges(data, e.entity_id),
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
      if (e.op !== 'insert') return [];
      const ev = consentEvent(row, subjects.get(String(row.consent_id)));
      return ev ? [ev] : [];
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
