import { DSFA_STATUSES, RISK_LEVELS } from '../../../domain/dsfa/dsfa.values.js';
import { operationVerb } from '../../operation-verb.js';
import { printList, printRecord } from '../../output.js';
import { auditColumns, listColumns, printDsfa } from './shared.js';

/** The verbs of `dsfa` that call one operation and print its answer; `index.ts` places them among the others. */
export const list = operationVerb({
  area: 'dsfa',
  operation: 'list',
  name: 'list',
  description: 'list assessments, newest first',
  query: [
    { flags: '--status <status>', field: 'status', description: `filter: ${DSFA_STATUSES.join(', ')}` },
    { flags: '--risk-level <level>', field: 'risk_level', description: `filter: ${RISK_LEVELS.join(', ')}` },
    {
      flags: '--search <text>',
      field: 'search',
      description: 'only those whose title, description or processing activity contains the text',
    },
    { flags: '--skip <n>', field: 'skip', description: 'records to skip (default 0)' },
    { flags: '--limit <n>', field: 'limit', description: 'records to return, 1 to 500 (default 100)' },
  ],
  print: (ctx, rows) => printList(ctx, rows, listColumns, { empty: 'no assessments' }),
});

export const get = operationVerb({
  area: 'dsfa',
  operation: 'get',
  name: 'get',
  description: 'show one assessment',
  args: [['<id>', 'id']],
  print: printDsfa,
});

export const stats = operationVerb({
  area: 'dsfa',
  operation: 'stats',
  name: 'stats',
  description: 'counts by status and risk level',
  print: (ctx, s) =>
    printRecord(ctx, s, [
      ['total', s.total],
      ...DSFA_STATUSES.map((k) => [`status ${k}`, s.by_status[k] ?? 0] as [string, unknown]),
      ...RISK_LEVELS.map((k) => [`risk ${k}`, s.by_risk_level[k] ?? 0] as [string, unknown]),
    ]),
});

export const auditLog = operationVerb({
  area: 'dsfa',
  operation: 'auditLog',
  name: 'audit-log',
  description: 'audit trail of all assessments, newest first',
  query: [
    { flags: '--dsfa <id>', field: 'dsfa_id', description: 'only entries of this assessment' },
    { flags: '--limit <n>', field: 'limit', description: 'entries to return, 1 to 500 (default 50)' },
    { flags: '--offset <n>', field: 'offset', description: 'entries to skip (default 0)' },
  ],
  print: (ctx, rows) => printList(ctx, rows, auditColumns, { empty: 'no audit entries' }),
});
