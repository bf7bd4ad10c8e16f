import type { ListedControl } from '../../../../domain/training-blocks/canonical.schema.js';
import { operationVerb } from '../../../operation-verb.js';
import { printList, printRecord, type Column } from '../../../output.js';

const columns: Column<ListedControl>[] = [
  { header: 'ID', value: (c) => c.id },
  { header: 'TITLE', value: (c) => c.title },
  { header: 'DOMAIN', value: (c) => c.domain },
  { header: 'CATEGORY', value: (c) => c.category },
  { header: 'SEVERITY', value: (c) => c.severity },
  { header: 'AUDIENCE', value: (c) => c.target_audience },
];

/** The verbs of `training canonical` that call one operation and print its answer. */
export const list = operationVerb({
  area: 'canonical',
  operation: 'controls',
  name: 'list',
  description: 'list controls; filters take one value or a comma-separated list',
  query: [
    { flags: '--domain <d>', field: 'domain', description: 'e.g. AUTH, CRYP, NET' },
    { flags: '--category <c>', field: 'category', description: 'category within a domain' },
    { flags: '--severity <s>', field: 'severity', description: 'low, medium, high, critical' },
    {
      flags: '--target-audience <a>',
      field: 'target_audience',
      description: 'enterprise, authority, provider, all (controls for all always match)',
    },
  ],
  print: (ctx, rows) => printList(ctx, rows, columns, { empty: 'no control matches these filters' }),
});

export const meta = operationVerb({
  area: 'canonical',
  operation: 'meta',
  name: 'meta',
  description: 'domains, categories and audiences with counts',
  print: (ctx, m) =>
    printRecord(ctx, m, [
      ['total', m.total],
      ['domains', m.domains.map((d) => `${d.domain} ${d.count}`)],
      ['audiences', m.audiences.map((a) => `${a.audience} ${a.count}`)],
      ['categories', m.categories.map((c) => `${c.category} ${c.count}`)],
    ]),
});
