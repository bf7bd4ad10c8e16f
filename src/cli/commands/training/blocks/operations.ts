import { operationVerb } from '../../../operation-verb.js';
import { printJson, printList, printRecord, writeOut } from '../../../output.js';

/** The verbs of `training blocks` that call one operation and print its answer; `index.ts` places them. */
export const list = operationVerb({
  area: 'trainingBlocks',
  operation: 'list',
  name: 'list',
  description: 'list training blocks',
  print: (ctx, blocks) =>
    printList(
      ctx,
      blocks,
      [
        { header: 'ID', value: (b) => b.id, id: true },
        { header: 'NAME', value: (b) => b.name },
        { header: 'AREA', value: (b) => b.regulation_area },
        { header: 'PREFIX', value: (b) => b.module_code_prefix },
        {
          header: 'FILTERS',
          value: (b) =>
            [b.domain_filter, b.category_filter, b.severity_filter, b.target_audience_filter].filter(Boolean).join(' '),
        },
        { header: 'GENERATED', value: (b) => b.last_generated_at },
      ],
      { empty: 'no blocks' },
    ),
});

export const show = operationVerb({
  area: 'trainingBlocks',
  operation: 'get',
  name: 'show',
  description: 'show one block',
  args: [['<id>', 'id']],
  print: (ctx, b) => printRecord(ctx, b, Object.entries(b)),
});

export const remove = operationVerb({
  area: 'trainingBlocks',
  operation: 'delete',
  name: 'delete',
  description: 'delete a block (the modules it generated stay)',
  args: [['<id>', 'id']],
  writes: true,
  print: (ctx, r) => (ctx.config().json ? printJson(ctx, r) : writeOut(ctx, r.message)),
});

export const preview = operationVerb({
  area: 'trainingBlocks',
  operation: 'preview',
  name: 'preview',
  description: 'which controls would go into which modules; writes nothing',
  args: [['<id>', 'id']],
  print: (ctx, p) => {
    if (ctx.config().json) return printJson(ctx, p);
    for (const m of p.modules) writeOut(ctx, `${m.module_code}\t${m.title}\t${m.control_ids.join(', ')}`);
    ctx.io.stderr.write(`${p.message}; roles for the matrix: ${p.roles.join(', ')}\n`);
    if (!p.modules.length) ctx.exitCode = 6;
  },
});

export const controls = operationVerb({
  area: 'trainingBlocks',
  operation: 'controls',
  name: 'controls',
  description: "the controls linked to the block's modules",
  args: [['<id>', 'id']],
  print: (ctx, rows) =>
    printList(
      ctx,
      rows,
      [
        { header: 'MODULE', value: (c) => c.module_code },
        { header: 'CONTROL', value: (c) => c.id },
        { header: 'TITLE', value: (c) => c.title },
        { header: 'SEVERITY', value: (c) => c.severity },
      ],
      { empty: 'no linked controls (generate the block first)' },
    ),
});
