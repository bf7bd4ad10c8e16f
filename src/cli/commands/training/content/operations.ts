import { operationVerb } from '../../../operation-verb.js';
import { printRecord } from '../../../output.js';

/** The verbs of `training content` that call one operation and print its answer. */
export const publish = operationVerb({
  area: 'trainingContent',
  operation: 'publish',
  name: 'publish',
  description: 'publish a content version',
  args: [['<content-id>', 'contentId']],
  writes: true,
  print: (ctx, c) =>
    printRecord(ctx, c, [
      ['id', c.id],
      ['module_id', c.module_id],
      ['version', c.version],
      ['status', c.status],
      ['published_at', c.published_at],
    ]),
});
