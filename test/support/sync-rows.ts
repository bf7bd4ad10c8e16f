import { createHash } from 'node:crypto';
import type { DoorReader } from '../../src/domain/sync/record-door.js';
import { refusedChanges } from '../../src/domain/sync/record-door.js';
import type { SyncRow } from '../../src/domain/sync/version.js';
import { readOnly } from '../../src/store/journal/journal-writer.js';
import { KyselyReplicaStore } from '../../src/store/kysely/replica.store.js';

/** The tenant, the clock and the ids the door's tests use: rows as the stores of this tenant hold them. */
export const TENANT = 'acme';
export const NOW = new Date('2026-06-01T12:00:00.000Z');
export const T0 = '2026-05-01T10:00:00.000Z';
export const T1 = '2026-05-10T10:00:00.000Z';
export const T2 = '2026-05-20T10:00:00.000Z';
/** DSFA records keep UTC times without a zone. */
export const local = (t: string) => t.slice(0, -1);

/** The journal id of a row, as the replica store names it (its table's key without the tenant). */
const replica = new KyselyReplicaStore(null as never, readOnly);
export const idOf = (entity: string, row: SyncRow): string => replica.idOf(TENANT, entity, row);

/** A DoorReader over rows in memory: what a store of the tenant holds. */
export function memoryReader(held: Record<string, SyncRow[]>): DoorReader {
  return {
    async readMany(_tenant, entity, wanted) {
      const out = new Map<string, SyncRow>();
      for (const w of wanted) {
        const row = (held[entity] ?? []).find((r) => idOf(entity, r) === w.id);
        if (row) out.set(w.id, row);
      }
      return out;
    },
    async rowsWhere(_tenant, entity, column, values) {
      return (held[entity] ?? []).filter((r) => values.includes(r[column]));
    },
    idOf: (_tenant, entity, row) => idOf(entity, row),
  };
}

/** One change for the door: a record's row before (null: new) and after (null: deleted). */
export interface Change {
  entity: string;
  before: SyncRow | null;
  after: SyncRow | null;
}

/** The door's answer for changes over held rows: the reason per record, by `entity id`. */
export async function refusals(
  held: Record<string, SyncRow[]>,
  changes: Change[],
  now = NOW,
): Promise<Record<string, string>> {
  const found = await refusedChanges(
    memoryReader(held),
    TENANT,
    now,
    changes.map((c) => ({
      entity: c.entity,
      id: idOf(c.entity, (c.after ?? c.before)!),
      before: c.before,
      after: c.after,
    })),
  );
  return Object.fromEntries([...found].map(([k, v]) => [k.replace('\u0000', ' '), v]));
}

/** The one reason the door gives for one change (undefined: accepted). */
export async function refusal(held: Record<string, SyncRow[]>, change: Change, now = NOW): Promise<string | undefined> {
  const all = await refusals(held, [change], now);
  return Object.values(all)[0];
}

const tenantFolder = createHash('sha256').update(TENANT).digest('hex').slice(0, 16);

/** Valid rows of every table that travels, as the API writes them; each takes overrides. */
export const rows = {
  dsfa_setting: (o: SyncRow = {}): SyncRow => ({
    tenant_id: TENANT,
    workflow: 'open',
    updated_by: 'sam',
    updated_at: local(T0),
    ...o,
  }),
  dsfa: (o: SyncRow = {}): SyncRow => ({
    id: 'd1',
    tenant_id: TENANT,
    title: 'Kamera',
    description: '',
    status: 'draft',
    risk_level: 'medium',
    processing_activity: '',
    data_categories: '["Bilddaten"]',
    recipients: '[]',
    measures: '[]',
    approved_by: null,
    approved_at: null,
    created_by: 'lea',
    created_at: local(T0),
    updated_at: local(T0),
    ai_use_case_modules: '[]',
    controller: null,
    purposes: null,
    data_subjects: null,
    necessity_assessment: null,
    risks: null,
    measure_details: null,
    dpo_opinion: null,
    dpo_name: null,
    dpo_opinion_date: null,
    review_date: null,
    ...o,
  }),
  dsfa_audit: (o: SyncRow = {}): SyncRow => ({
    id: 'a1',
    tenant_id: TENANT,
    dsfa_id: 'd1',
    action: 'UPDATE',
    changed_by: 'lea',
    old_values: '{}',
    new_values: '{}',
    created_at: local(T1),
    ...o,
  }),
  consent: (o: SyncRow = {}): SyncRow => ({
    id: 'c1',
    tenant_id: TENANT,
    user_id: 'u1',
    data_point_id: 'news',
    granted: 1,
    granted_at: T0,
    revoked_at: null,
    consent_version: '1.0',
    source: null,
    ip_address: null,
    user_agent: null,
    created_at: T0,
    import_run_id: null,
    banner_revision: null,
    policy_version_id: null,
    policy_content_hash: null,
    ...o,
  }),
  consent_history: (o: SyncRow = {}): SyncRow => ({
    id: 'h1',
    tenant_id: TENANT,
    consent_id: 'c1',
    action: 'granted',
    consent_version: '1.0',
    ip_address: null,
    user_agent: null,
    source: null,
    created_at: T0,
    import_run_id: null,
    ...o,
  }),
  consent_import_run: (o: SyncRow = {}): SyncRow => ({
    id: 'r1',
    tenant_id: TENANT,
    file_name: 'consents.csv',
    sha256: 'a'.repeat(64),
    format: 'csv',
    options: '{}',
    status: 'completed',
    read: 2,
    created: 1,
    unchanged: 0,
    revoked: 1,
    renewed: 0,
    rejected: 0,
    created_by: 'sam',
    started_at: T0,
    finished_at: T0,
    reverted_at: null,
    reverted_by: null,
    ...o,
  }),
  legal_document: (o: SyncRow = {}): SyncRow => ({
    id: 'doc1',
    tenant_id: TENANT,
    title: 'Datenschutzerklärung',
    document_type: 'privacy_policy',
    language: 'de',
    status: 'draft',
    created_at: T0,
    updated_at: T0,
    ...o,
  }),
  legal_document_version: (o: SyncRow = {}): SyncRow => ({
    id: 'v1',
    tenant_id: TENANT,
    document_id: 'doc1',
    version_number: 1,
    title: 'DSE',
    content: 'Text',
    change_summary: null,
    status: 'draft',
    created_by: 'lea',
    approved_by: null,
    approved_at: null,
    comment: null,
    created_at: T0,
    updated_at: T0,
    published_at: null,
    ...o,
  }),
  cookie_banner: (o: SyncRow = {}): SyncRow => ({
    tenant_id: TENANT,
    categories: JSON.stringify([{ id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: true }]),
    config: JSON.stringify({
      position: 'bottom',
      style: 'bar',
      primaryColor: '#1a56db',
      showDeclineAll: true,
      showSettings: true,
      banner_texts: { title: 'Cookies', description: 'Wir fragen.', privacyLink: '/datenschutz' },
    }),
    updated_at: T0,
    ...o,
  }),
  training_canonical_control: (o: SyncRow = {}): SyncRow => ({
    tenant_id: TENANT,
    id: 'AUTH-001',
    title: 'Passwörter',
    objective: 'Sichere Passwörter',
    domain: 'AUTH',
    category: 'Zugang',
    severity: 'high',
    target_audience: 'all',
    references: JSON.stringify({ iso27001: [], nis2: [], bsi: [], nist: [] }),
    updated_at: T0,
    ...o,
  }),
  training_module: (o: SyncRow = {}): SyncRow => ({
    id: 'm1',
    tenant_id: TENANT,
    module_code: 'DSGVO-01',
    title: 'Datenschutz',
    title_en: null,
    description: '',
    regulation_area: 'dsgvo',
    frequency_type: 'annual',
    duration_minutes: 30,
    pass_threshold: 70,
    validity_days: 365,
    created_at: T0,
    updated_at: T0,
    ...o,
  }),
  training_question: (o: SyncRow = {}): SyncRow => ({
    id: 'q1',
    tenant_id: TENANT,
    module_id: 'm1',
    position: 0,
    question: 'Was ist personenbezogen?',
    options: '["Name","Wetter"]',
    correct_index: 0,
    explanation: '',
    ...o,
  }),
  training_content: (o: SyncRow = {}): SyncRow => ({
    id: 'ct1',
    tenant_id: TENANT,
    module_id: 'm1',
    version: 1,
    language: 'de',
    markdown: '# Datenschutz',
    status: 'draft',
    created_at: T0,
    published_at: null,
    ...o,
  }),
  training_matrix: (o: SyncRow = {}): SyncRow => ({
    tenant_id: TENANT,
    role_code: 'R9',
    module_id: 'm1',
    is_mandatory: 0,
    priority: 5,
    created_at: T0,
    ...o,
  }),
  training_assignment: (o: SyncRow = {}): SyncRow => ({
    id: 'as1',
    tenant_id: TENANT,
    module_id: 'm1',
    user_id: 'u-1',
    user_name: 'Erika Mustermann',
    user_email: 'erika@example.com',
    role_code: 'R9',
    status: 'pending',
    progress_percent: 0,
    deadline: '2026-05-31T10:00:00.000Z',
    escalation_level: 0,
    manager_email: null,
    quiz_passed: 0,
    certificate_id: null,
    started_at: null,
    completed_at: null,
    valid_until: null,
    created_at: T0,
    updated_at: T0,
    ...o,
  }),
  training_quiz_attempt: (o: SyncRow = {}): SyncRow => ({
    id: 'qa1',
    tenant_id: TENANT,
    assignment_id: 'as1',
    module_id: 'm1',
    score: 100,
    passed: 1,
    correct_count: 1,
    total_count: 1,
    threshold: 70,
    answers: '[{"question_id":"q1","selected_index":0}]',
    duration_seconds: null,
    created_at: T1,
    ...o,
  }),
  training_certificate: (o: SyncRow = {}): SyncRow => ({
    id: 'cert1',
    tenant_id: TENANT,
    assignment_id: 'as1',
    user_id: 'u-1',
    user_name: 'Erika Mustermann',
    module_id: 'm1',
    module_code: 'DSGVO-01',
    module_title: 'Datenschutz',
    score: 100,
    issued_at: T2,
    valid_until: '2027-05-20T10:00:00.000Z',
    signature: 'b'.repeat(64),
    ...o,
  }),
  training_audit: (o: SyncRow = {}): SyncRow => ({
    id: 'ta1',
    tenant_id: TENANT,
    action: 'started',
    entity_type: 'assignment',
    entity_id: 'as1',
    actor: 'lea',
    details: '{}',
    created_at: T1,
    ...o,
  }),
  training_media: (o: SyncRow = {}): SyncRow => ({
    id: 'md1',
    tenant_id: TENANT,
    module_id: 'm1',
    content_id: null,
    kind: 'audio',
    bucket: 'training-media',
    object_key: `${tenantFolder}/m1/md1.m4a`,
    content_type: 'audio/mp4',
    size_bytes: 10,
    duration_seconds: 1.5,
    status: 'draft',
    created_at: T0,
    published_at: null,
    ...o,
  }),
  training_block: (o: SyncRow = {}): SyncRow => ({
    id: 'b1',
    tenant_id: TENANT,
    name: 'Zugang',
    description: '',
    domain_filter: null,
    category_filter: null,
    severity_filter: null,
    target_audience_filter: null,
    regulation_area: 'iso27001',
    module_code_prefix: 'SEC-AUTH',
    frequency_type: 'annual',
    duration_minutes: 30,
    pass_threshold: 70,
    max_controls_per_module: 10,
    created_at: T0,
    updated_at: T0,
    last_generated_at: null,
    ...o,
  }),
  training_block_control: (o: SyncRow = {}): SyncRow => ({
    block_id: 'b1',
    control_id: 'AUTH-001',
    module_id: 'm1',
    position: 0,
    ...o,
  }),
};
