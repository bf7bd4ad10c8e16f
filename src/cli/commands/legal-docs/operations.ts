import { DOCUMENT_TYPES } from '../../../domain/legal-documents/legal-document.values.js';
import { operationVerb } from '../../operation-verb.js';
import { printList, printRecord } from '../../output.js';
import { docColumns, versionColumns, versionPairs } from './shared.js';

/** The verbs of `legal-docs` that call one operation and print its answer; `index.ts` places them among the others. */
export const list = operationVerb({
  area: 'legalDocuments',
  operation: 'list',
  name: 'list',
  description: 'list legal documents, newest first',
  query: [
    { flags: '--type <type>', field: 'document_type', description: `filter: ${DOCUMENT_TYPES.join(', ')}` },
    { flags: '--status <status>', field: 'status', description: 'draft or published' },
  ],
  print: (ctx, docs) => printList(ctx, docs, docColumns, { empty: 'no legal documents' }),
});

export const show = operationVerb({
  area: 'legalDocuments',
  operation: 'get',
  name: 'show',
  description: 'show one document with its current status',
  args: [['<document-id>', 'id']],
  print: (ctx, d) => printRecord(ctx, d, Object.entries(d)),
});

export const versions = operationVerb({
  area: 'legalDocuments',
  operation: 'versions',
  name: 'versions',
  description: 'versions, newest first',
  args: [['<document-id>', 'id']],
  print: (ctx, rows) => printList(ctx, rows, versionColumns, { empty: 'no versions yet' }),
});

export const submit = operationVerb({
  area: 'legalDocuments',
  operation: 'submit',
  name: 'submit',
  description: 'submit a draft for review',
  args: [['<version-id>', 'id']],
  writes: true,
  print: (ctx, v) => printRecord(ctx, v, versionPairs(v)),
});

export const publish = operationVerb({
  area: 'legalDocuments',
  operation: 'publish',
  name: 'publish',
  description: 'publish an approved version (archives the published one)',
  args: [['<version-id>', 'id']],
  writes: true,
  print: (ctx, v) => printRecord(ctx, v, versionPairs(v)),
});
