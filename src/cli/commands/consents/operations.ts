import type { ConsentHistoryEntry, ConsentWithHistory } from '../../../domain/consents/consent.schema.js';
import { operationVerb } from '../../operation-verb.js';
import { note, printJson, printList, printRecord, type Column } from '../../output.js';

const columns: Column<ConsentWithHistory>[] = [
  { header: 'ID', value: (c) => c.id, id: true },
  { header: 'USER', value: (c) => c.user_id },
  { header: 'DATA POINT', value: (c) => c.data_point_id },
  { header: 'GRANTED', value: (c) => (c.granted ? 'yes' : 'no') },
  { header: 'VERSION', value: (c) => c.consent_version },
  { header: 'GRANTED AT', value: (c) => c.granted_at },
  { header: 'REVOKED AT', value: (c) => c.revoked_at },
];
const historyColumns: Column<ConsentHistoryEntry>[] = [
  { header: 'WHEN', value: (h) => h.created_at },
  { header: 'ACTION', value: (h) => h.action },
  { header: 'VERSION', value: (h) => h.consent_version },
  { header: 'SOURCE', value: (h) => h.source },
  { header: 'IP', value: (h) => h.ip_address },
];

/** The verbs of `consents` that call one operation and print its answer; `index.ts` places them among the others. */
export const list = operationVerb({
  area: 'consents',
  operation: 'list',
  name: 'list',
  description: 'list consents, newest first',
  query: [
    { flags: '--user-id <id>', field: 'user_id', description: 'only this user' },
    { flags: '--data-point <id>', field: 'data_point_id', description: 'only this data point' },
    { flags: '--granted <bool>', field: 'granted', description: 'true or false' },
    { flags: '--limit <n>', field: 'limit', description: '1 to 500 (default 50)' },
    { flags: '--offset <n>', field: 'offset', description: 'default 0' },
  ],
  print: async (ctx, r) => {
    if (ctx.config().json) return printJson(ctx, r);
    await printList(ctx, r.consents, columns, { empty: 'no consents' });
    if (ctx.io.stderrIsTTY) note(ctx, `${r.consents.length} of ${r.total} (offset ${r.offset})`);
  },
});

export const revoke = operationVerb({
  area: 'consents',
  operation: 'revoke',
  name: 'revoke',
  description: 'revoke an active consent (irreversible)',
  args: [['<id>', 'id']],
  writes: true,
  print: (ctx, r) =>
    printRecord(ctx, r, [
      ['id', r.id],
      ['revoked_at', r.revoked_at],
    ]),
});

export const get = operationVerb({
  area: 'consents',
  operation: 'get',
  name: 'get',
  description: 'one consent with its history (its id or a short id)',
  args: [['<id>', 'id']],
  print: (ctx, c) =>
    printRecord(ctx, c, [
      ['id', c.id],
      ['user_id', c.user_id],
      ['data_point_id', c.data_point_id],
      ['granted', c.granted],
      ['consent_version', c.consent_version],
      ['granted_at', c.granted_at],
      ['revoked_at', c.revoked_at],
      ['source', c.source],
      ['ip_address', c.ip_address],
      ['user_agent', c.user_agent],
      ...c.history.map((h): [string, unknown] => [
        'history',
        `${h.created_at} ${h.action} ${h.consent_version}${h.source ? ` (${h.source})` : ''}`,
      ]),
    ]),
});

export const history = operationVerb({
  area: 'consents',
  operation: 'history',
  name: 'history',
  description: 'history of a consent, oldest first',
  args: [['<id>', 'id']],
  print: (ctx, rows) => printList(ctx, rows, historyColumns),
});

export const stats = operationVerb({
  area: 'consents',
  operation: 'stats',
  name: 'stats',
  description: 'totals, active, revoked, unique users, conversion rate, per data point',
  print: (ctx, s) =>
    printRecord(ctx, s, [
      ['total_consents', s.total_consents],
      ['active_consents', s.active_consents],
      ['revoked_consents', s.revoked_consents],
      ['unique_users', s.unique_users],
      ['conversion_rate', `${s.conversion_rate} %`],
      ...Object.entries(s.by_data_point).map(
        ([k, v]) =>
          [`data point ${k}`, `${v.total} total, ${v.active} active, ${v.revoked} revoked`] as [string, unknown],
      ),
    ]),
});
