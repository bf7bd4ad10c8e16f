import { operationVerb } from '../../../operation-verb.js';
import { printRecord } from '../../../output.js';
import { assignmentPairs } from './columns.js';

/** The verbs of `training assignments` that call one operation and print its answer. */
export const show = operationVerb({
  area: 'training',
  operation: 'getAssignment',
  name: 'show',
  description: 'show one assignment',
  args: [['<id>', 'id']],
  print: (ctx, a) => printRecord(ctx, a, assignmentPairs(a)),
});

export const start = operationVerb({
  area: 'training',
  operation: 'start',
  name: 'start',
  description: 'start an assignment',
  args: [['<id>', 'id']],
  writes: true,
  print: (ctx, a) => printRecord(ctx, a, assignmentPairs(a)),
});

export const complete = operationVerb({
  area: 'training',
  operation: 'complete',
  name: 'complete',
  description: 'complete an assignment (a certificate then needs a passed quiz)',
  args: [['<id>', 'id']],
  writes: true,
  print: (ctx, a) => printRecord(ctx, a, assignmentPairs(a)),
});
