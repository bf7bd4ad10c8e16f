import { operationVerb } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { pairs } from './shared.js';

/** `cookie-banner get`: calls one operation and prints its answer. */
export const get = operationVerb({
  area: 'cookieBanner',
  operation: 'get',
  name: 'get',
  description: 'show the configuration (the default until one is set)',
  print: (ctx, c) => printRecord(ctx, c, pairs(c)),
});
