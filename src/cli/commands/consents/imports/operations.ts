import type { ImportRun } from '../../../../domain/consents/import-run.schema.js';
import { operationVerb } from '../../../operation-verb.js';
import { note, printJson, printList, printRecord } from '../../../output.js';

const runColumns = [
  { header: 'ID', value: (r: ImportRun) => r.id },
  { header: 'STARTED', value: (r: ImportRun) => r.started_at },
  { header: 'BY', value: (r: ImportRun) => r.created_by },
  { header: 'FILE', value: (r: ImportRun) => r.file_name ?? '-' },
  { header: 'STATUS', value: (r: ImportRun) => r.status },
  { header: 'READ', value: (r: ImportRun) => r.read },
  { header: 'CREATED', value: (r: ImportRun) => r.created },
  { header: 'UNCHANGED', value: (r: ImportRun) => r.unchanged },
  { header: 'REVOKED', value: (r: ImportRun) => r.revoked },
  { header: 'RENEWED', value: (r: ImportRun) => r.renewed },
  { header: 'REJECTED', value: (r: ImportRun) => r.rejected },
];

const runPairs = (r: ImportRun): Array<[string, unknown]> => [
  ['id', r.id],
  ['status', r.status],
  ['file_name', r.file_name],
  ['sha256', r.sha256],
  ['format', r.format],
  ['options', Object.keys(r.options).length ? r.options : null],
  ['read', r.read],
  ['created', r.created],
  ['unchanged', r.unchanged],
  ['revoked', r.revoked],
  ['renewed', r.renewed],
  ['rejected', r.rejected],
  ['created_by', r.created_by],
  ['started_at', r.started_at],
  ['finished_at', r.finished_at],
  ['reverted_at', r.reverted_at],
  ['reverted_by', r.reverted_by],
];

/** `consents imports list|show|revert`: each calls one operation and prints its answer. */
export const list = operationVerb({
  area: 'consents',
  operation: 'imports',
  name: 'list',
  isDefault: true,
  description: 'import runs, newest first (dry runs are not recorded)',
  query: [
    { flags: '--limit <n>', field: 'limit', description: '1 to 500 (default 50)' },
    { flags: '--offset <n>', field: 'offset', description: 'default 0' },
  ],
  print: async (ctx, r) => {
    if (ctx.config().json) return printJson(ctx, r);
    await printList(ctx, r.runs, runColumns, { empty: 'no import runs' });
    if (ctx.io.stderrIsTTY) note(ctx, `${r.runs.length} of ${r.total} (offset ${r.offset})`);
  },
});

export const show = operationVerb({
  area: 'consents',
  operation: 'importRun',
  name: 'show',
  description: 'one import run: file, SHA-256, options, counts, who and when',
  args: [['<run>', 'id']],
  print: (ctx, r) => printRecord(ctx, r, runPairs(r)),
});

export const revert = operationVerb({
  area: 'consents',
  operation: 'revertImport',
  name: 'revert',
  description:
    'remove the consents a run created and undo the revocations and renewals it applied, all or nothing; exits 5 listing the records changed since',
  args: [['<run>', 'id']],
  writes: true,
  print: (ctx, r) =>
    printRecord(ctx, r, [
      ['run', r.run.id],
      ['status', r.run.status],
      ['consents_removed', r.consents_removed],
      ['revocations_undone', r.revocations_undone],
      ['renewals_undone', r.renewals_undone],
    ]),
});
