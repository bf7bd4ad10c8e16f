import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../../domain/training/training.values.js';
import { operationVerb } from '../../operation-verb.js';
import { printList, printRecord } from '../../output.js';

/** The verbs of `training` that call one operation and print its answer; `index.ts` places them among the others. */
export const auditLog = operationVerb({
  area: 'training',
  operation: 'auditLog',
  name: 'audit-log',
  description: 'training audit log, newest first',
  query: [
    { flags: '--action <a>', field: 'action', description: AUDIT_ACTIONS.join(', ') },
    { flags: '--entity-type <t>', field: 'entity_type', description: AUDIT_ENTITY_TYPES.join(', ') },
    { flags: '--limit <n>', field: 'limit' },
    { flags: '--offset <n>', field: 'offset' },
  ],
  print: (ctx, rows) =>
    printList(
      ctx,
      rows,
      [
        { header: 'WHEN', value: (e) => e.created_at },
        { header: 'ACTION', value: (e) => e.action },
        { header: 'ENTITY', value: (e) => `${e.entity_type} ${e.entity_id}`, id: true },
        { header: 'BY', value: (e) => e.actor },
        { header: 'DETAILS', value: (e) => e.details },
      ],
      { empty: 'no audit entries' },
    ),
});

export const stats = operationVerb({
  area: 'training',
  operation: 'stats',
  name: 'stats',
  description: 'assignments by status, overdue and completion rate',
  print: (ctx, s) => printRecord(ctx, s, Object.entries(s)),
});
