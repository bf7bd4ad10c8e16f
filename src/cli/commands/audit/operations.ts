import { operationVerb } from '../../operation-verb.js';
import { printRecord } from '../../output.js';

/** `audit anchor`: calls one operation and prints its answer. */
export const anchor = operationVerb({
  area: 'journal',
  operation: 'anchor',
  name: 'anchor',
  description: 'print the head of the tenant’s chain ({"tenant","seq","head"}) to keep outside the store',
  print: (ctx, a) =>
    printRecord(ctx, a, [
      ['tenant', a.tenant],
      ['seq', a.seq],
      ['head', a.head],
    ]),
});
