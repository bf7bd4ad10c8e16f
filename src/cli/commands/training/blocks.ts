import { Command, Option } from 'commander';
import type { Block } from '../../../domain/training-blocks/block.schema.js';
import { FREQUENCY_TYPES, REGULATION_AREAS } from '../../../domain/training/training.values.js';
import type { CliContext } from '../../context.js';
import { defined, readJson } from '../../input.js';
import { printJson, printList, printRecord, writeOut } from '../../output.js';
import { req } from './shared.js';
import { usesTenant, writes } from '../../store-access.js';
import { flagFields } from '../../flag-names.js';

type Flags = {
  name?: string;
  description?: string;
  domain?: string;
  category?: string;
  severity?: string;
  audience?: string;
  area?: string;
  prefix?: string;
  frequency?: string;
  duration?: string;
  passThreshold?: string;
  maxControls?: string;
  file?: string;
};
const num = (v?: string) => (v === undefined ? undefined : /^-?\d+$/.test(v) ? Number(v) : v);
const flags = (c: Command) =>
  flagFields(c, {
    domain_filter: '--domain',
    category_filter: '--category',
    severity_filter: '--severity',
    target_audience_filter: '--audience',
    regulation_area: '--area',
    module_code_prefix: '--prefix',
    frequency_type: '--frequency',
    duration_minutes: '--duration',
    max_controls_per_module: '--max-controls',
  })
    .option('--name <name>')
    .option('--description <text>')
    .option('--domain <d>', 'domain filter, e.g. AUTH or AUTH,CRYP')
    .option('--category <c>', 'category filter')
    .option('--severity <s>', 'severity filter, e.g. high,critical')
    .option('--audience <a>', 'target audience filter: enterprise, authority, provider, all')
    .addOption(new Option('--area <area>', `regulation_area: ${REGULATION_AREAS.join(', ')}`))
    .option('--prefix <prefix>', 'module_code_prefix, e.g. SEC-AUTH')
    .addOption(new Option('--frequency <type>', FREQUENCY_TYPES.join(', ')))
    .option('--duration <minutes>')
    .option('--pass-threshold <percent>')
    .option('--max-controls <n>', 'max_controls_per_module (default 10)')
    .option('-f, --file <file>', 'JSON body; flags override it');
async function body(ctx: CliContext, o: Flags) {
  const base = o.file ? ((await readJson(ctx, o.file)) as Record<string, unknown>) : {};
  return {
    ...base,
    ...defined({
      name: o.name,
      description: o.description,
      domain_filter: o.domain,
      category_filter: o.category,
      severity_filter: o.severity,
      target_audience_filter: o.audience,
      regulation_area: o.area,
      module_code_prefix: o.prefix,
      frequency_type: o.frequency,
      duration_minutes: num(o.duration),
      pass_threshold: num(o.passThreshold),
      max_controls_per_module: num(o.maxControls),
    }),
  };
}
const pairs = (b: Block) => Object.entries(b);

export function createBlocksCommand(ctx: CliContext): Command {
  const blocks = new Command('blocks').description('training blocks: modules generated from canonical controls');
  const api = async () => (await ctx.backend()).trainingBlocks;
  blocks
    .command('list')
    .description('list training blocks')
    .action(async () => {
      await printList(
        ctx,
        await (await api()).list(req(ctx)),
        [
          { header: 'ID', value: (b) => b.id, id: true },
          { header: 'NAME', value: (b) => b.name },
          { header: 'AREA', value: (b) => b.regulation_area },
          { header: 'PREFIX', value: (b) => b.module_code_prefix },
          {
            header: 'FILTERS',
            value: (b) =>
              [b.domain_filter, b.category_filter, b.severity_filter, b.target_audience_filter]
                .filter(Boolean)
                .join(' '),
          },
          { header: 'GENERATED', value: (b) => b.last_generated_at },
        ],
        { empty: 'no blocks' },
      );
    });
  flags(
    usesTenant(writes(blocks.command('create')), 'starts').description(
      'create a block: which canonical controls make which modules',
    ),
  ).action(async (o: Flags) => {
    const b = await (await api()).create({ ...req(ctx), body: await body(ctx, o) });
    await printRecord(ctx, b, pairs(b));
  });
  blocks
    .command('show')
    .description('show one block')
    .argument('<id>')
    .action(async (id: string) => {
      const b = await (await api()).get({ ...req(ctx), params: { id } });
      await printRecord(ctx, b, pairs(b));
    });
  flags(writes(blocks.command('update')).description('change a block').argument('<id>')).action(
    async (id: string, o: Flags) => {
      const b = await (await api()).update({ ...req(ctx), params: { id }, body: await body(ctx, o) });
      await printRecord(ctx, b, pairs(b));
    },
  );
  writes(blocks.command('delete'))
    .description('delete a block (the modules it generated stay)')
    .argument('<id>')
    .action(async (id: string) => {
      const r = await (await api()).delete({ ...req(ctx), params: { id } });
      if (ctx.config().json) printJson(ctx, r);
      else writeOut(ctx, r.message);
    });
  blocks
    .command('preview')
    .argument('<id>')
    .description('which controls would go into which modules; writes nothing')
    .action(async (id: string) => {
      const p = await (await api()).preview({ ...req(ctx), params: { id }, body: {} });
      if (ctx.config().json) return printJson(ctx, p);
      for (const m of p.modules) writeOut(ctx, `${m.module_code}\t${m.title}\t${m.control_ids.join(', ')}`);
      ctx.io.stderr.write(`${p.message}; roles for the matrix: ${p.roles.join(', ')}\n`);
      if (!p.modules.length) ctx.exitCode = 6;
    });
  writes(blocks.command('generate'))
    .description("create or update the block's modules, control links and matrix entries")
    .argument('<id>')
    .addOption(new Option('--language <l>', 'de or en').choices(['de', 'en']).default('de'))
    .option('--no-auto-matrix', 'do not add matrix entries')
    .option('--skip-content', 'create modules and links without asking the language model')
    .action(async (id: string, o: { language: 'de' | 'en'; autoMatrix: boolean; skipContent?: boolean }) => {
      const r = await (
        await api()
      ).generate({
        ...req(ctx),
        params: { id },
        body: { language: o.language, auto_matrix: o.autoMatrix, skip_content: Boolean(o.skipContent) },
      });
      if (ctx.config().json) printJson(ctx, r);
      else {
        for (const e of r.errors) ctx.io.stderr.write(`${e.module_code ?? 'block'}: ${e.message}\n`);
        writeOut(
          ctx,
          `modules created ${r.modules_created}, updated ${r.modules_updated}; controls linked ${r.controls_linked}; matrix entries created ${r.matrix_entries_created}; content generated ${r.content_generated}`,
        );
      }
      if (r.errors.length) ctx.exitCode = 6;
    });
  blocks
    .command('controls')
    .description("the controls linked to the block's modules")
    .argument('<id>')
    .action(async (id: string) => {
      await printList(
        ctx,
        await (await api()).controls({ ...req(ctx), params: { id } }),
        [
          { header: 'MODULE', value: (c) => c.module_code },
          { header: 'CONTROL', value: (c) => c.id },
          { header: 'TITLE', value: (c) => c.title },
          { header: 'SEVERITY', value: (c) => c.severity },
        ],
        { empty: 'no linked controls (generate the block first)' },
      );
    });
  return blocks;
}
