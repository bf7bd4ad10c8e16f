import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

/**
 * Every table of the store, decided: a change to a journaled table is appended to the tenant's hash-chained journal
 * in the transaction of the change (and sync, bundles, events and `audit verify` read it there); an operational
 * table is not, for the reason given. A new table fails this test until it is listed here.
 */
const JOURNALED = [
  'api_key',
  'consent',
  'consent_history',
  'consent_import_run',
  'cookie_banner',
  'dsfa',
  'dsfa_audit',
  'dsfa_setting',
  'legal_document',
  'legal_document_version',
  'notification_setting',
  'notification_template',
  'training_assignment',
  'training_audit',
  'training_block',
  'training_block_control',
  'training_canonical_control',
  'training_certificate',
  'training_content',
  'training_matrix',
  'training_media',
  'training_module',
  'training_question',
  'training_quiz_attempt',
];
const OPERATIONAL: Record<string, string> = {
  journal: 'the journal itself',
  tenant: 'the register of tenant names, written with their first journal entry (journal-writer.ts)',
  setting: "the store's own keys and SMTP settings (signing keys, mail server), not a tenant's records",
  media_object_chunk: 'the bytes of media files on PostgreSQL; the training_media row that names them is journaled',
  notification_outbox: 'mails waiting to be sent, derived from journaled changes and pruned after sending',
  notification_escalation_sent: 'which escalation mails went out, so a mail is sent once; derived, not a record',
  webhook_endpoint: 'where deliveries go: an operator setting of the event runner, written outside the unit of work',
  webhook_delivery: 'attempts to deliver events read from the journal; derived and pruned',
  sync_state: "this replica's position in another store's journal",
  sync_base: 'the versions sync last agreed on with the other store, for three-way merges',
  sync_conflict: 'conflicts a sync found, kept until `sync resolve` writes the journaled change',
  consent_tally: 'counts of consents kept by triggers for fast statistics; derived from journaled consents',
  consent_user: 'the users with consents, kept by triggers for fast statistics; derived from journaled consents',
  consent_user_tally: 'counts of users with consents kept by triggers; derived from journaled consents',
};
/** Tables only one engine has (PostgreSQL counts consents with triggers; SQLite reads its covering index). */
const ONLY_ON: Record<string, 'sqlite' | 'postgres'> = {
  consent_tally: 'postgres',
  consent_user: 'postgres',
  consent_user_tally: 'postgres',
};
/** Tables of the engines and of kysely's migrator, not of compliance. */
const ENGINE_TABLE = /^(sqlite_|kysely_migration)/;

async function tablesOf(engine: 'sqlite' | 'postgres'): Promise<string[]> {
  const store = await openStore(await freshStore(engine));
  try {
    const { rows } =
      engine === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(store.admin)
        : await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(store.admin);
    return rows.map((r) => r.name).filter((n) => !ENGINE_TABLE.test(n));
  } finally {
    await store.close();
  }
}

describe.each(ENGINE_NAMES)('every table on %s', (engine) => {
  it('is journaled or operational, with a reason', async () => {
    const tables = await tablesOf(engine);
    const decided = [...JOURNALED, ...Object.keys(OPERATIONAL)].filter((t) => (ONLY_ON[t] ?? engine) === engine);
    expect(JOURNALED.filter((t) => t in OPERATIONAL)).toEqual([]);
    expect(tables.filter((t) => !decided.includes(t)).sort()).toEqual([]);
    expect(decided.filter((t) => !tables.includes(t)).sort()).toEqual([]);
    for (const reason of Object.values(OPERATIONAL)) expect(reason.length).toBeGreaterThan(10);
  });
});

/** The tables the stores' write methods tell the journal of (`journal.put('dsfa', …)`, `.remove`, `.batch`). */
function recordedInSource(): Set<string> {
  const root = new URL('../../src/store/', import.meta.url).pathname;
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const names = new Set<string>();
  for (const f of files)
    for (const m of readFileSync(join(root, f), 'utf8').matchAll(/\.(?:put|remove|batch)\(\s*'([a-z_]+)'/g))
      names.add(m[1]!);
  return names;
}

describe('the stores', () => {
  it('tell the journal of every journaled table, and of no operational one', () => {
    const recorded = recordedInSource();
    expect(JOURNALED.filter((t) => !recorded.has(t))).toEqual([]);
    expect(Object.keys(OPERATIONAL).filter((t) => recorded.has(t))).toEqual([]);
  });
});
