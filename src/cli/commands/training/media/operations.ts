import { operationVerb } from '../../../operation-verb.js';
import { printRecord } from '../../../output.js';

/** The verbs of `training media` that call one operation and print its answer. */
export const url = operationVerb({
  area: 'trainingMedia',
  operation: 'url',
  name: 'url',
  description: "bucket, object key and a signed URL (15 minutes; an object store's presign_minutes)",
  args: [['<media-id>', 'mediaId']],
  print: (ctx, u) => printRecord(ctx, u, Object.entries(u)),
});
