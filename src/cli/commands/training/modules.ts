import { Command, Option } from 'commander';
import type { Module } from '../../../domain/training/training.schema.js';
import { FREQUENCY_TYPES, REGULATION_AREAS } from '../../../domain/training/training.values.js';
import type { CliContext } from '../../context.js';
import { defined, readJson } from '../../input.js';
import { printJson, printList, printRecord, writeOut, type Column } from '../../output.js';
import { moduleId, num, req } from './shared.js';
import { usesTenant, writes } from '../../store-access.js';
import { flagFields } from '../../flag-names.js';

const moduleColumns: Column<Module>[] = [
  { header: 'ID', value: (m) => m.id, id: true },
  { header: 'CODE', value: (m) => m.module_code },
  { header: 'TITLE', value: (m) => m.title },
  { header: 'AREA', value: (m) => m.regulation_area },
  { header: 'FREQUENCY', value: (m) => m.frequency_type },
  { header: 'MIN', value: (m) => m.duration_minutes },
  { header: 'QUESTIONS', value: (m) => m.question_count },
];

function moduleFlags(cmd: Command): Command {
  return flagFields(cmd, {
    module_code: '--code',
    regulation_area: '--area',
    frequency_type: '--frequency',
    duration_minutes: '--duration',
  })
    .option('--code <code>', 'module_code (unique)')
    .option('--title <title>')
    .option('--title-en <title>', 'the English title, for English e-mail ("" clears it)')
    .option('--description <text>')
    .addOption(new Option('--area <area>', `regulation_area: ${REGULATION_AREAS.join(', ')}`))
    .addOption(new Option('--frequency <type>', `frequency_type: ${FREQUENCY_TYPES.join(', ')}`))
    .option('--duration <minutes>', 'duration_minutes (default 30)')
    .option('--pass-threshold <percent>', '0 to 100 (default 70)')
    .option('--validity-days <days>', 'how long a completion counts (default 365)')
    .option('-f, --file <file>', 'JSON body (also questions[]); flags override it');
}
type ModuleFlags = {
  code?: string;
  title?: string;
  titleEn?: string;
  description?: string;
  area?: string;
  frequency?: string;
  duration?: string;
  passThreshold?: string;
  validityDays?: string;
  file?: string;
};
async function moduleBody(ctx: CliContext, o: ModuleFlags) {
  const base = o.file ? ((await readJson(ctx, o.file)) as Record<string, unknown>) : {};
  return {
    ...base,
    ...defined({
      module_code: o.code,
      title: o.title,
      title_en: o.titleEn,
      description: o.description,
      regulation_area: o.area,
      frequency_type: o.frequency,
      duration_minutes: num(o.duration),
      pass_threshold: num(o.passThreshold),
      validity_days: num(o.validityDays),
    }),
  };
}

/** `training modules`: list, show, create, update and delete modules. */
export function addModuleCommands(ctx: CliContext, training: Command): void {
  const b = () => ctx.backend();
  const modules = training.command('modules').description('training modules');
  flagFields(modules.command('list'), { regulation_area: '--area', frequency_type: '--frequency' })
    .description('list modules by area and code; filter by area, role or text')
    .addOption(new Option('--area <area>', REGULATION_AREAS.join(', ')))
    .addOption(new Option('--frequency <type>', FREQUENCY_TYPES.join(', ')))
    .option('--search <words>', 'full text over title and description')
    .action(async (o: { area?: string; frequency?: string; search?: string }) => {
      await printList(
        ctx,
        await (
          await b()
        ).training.listModules({
          ...req(ctx),
          query: { regulation_area: o.area, frequency_type: o.frequency, search: o.search },
        }),
        moduleColumns,
        { empty: 'no modules (try `compliance training catalog install`)' },
      );
    });
  modules
    .command('show')
    .description('show one module by id or code')
    .argument('<id-or-code>')
    .action(async (idc: string) => {
      const backend = await b();
      const m = await backend.training.getModule({ ...req(ctx), params: { id: await moduleId(ctx, backend, idc) } });
      await printRecord(ctx, m, [
        ...Object.entries(m).filter(([k]) => !['questions', 'content'].includes(k)),
        ['content', m.content ? `version ${m.content.version} (${m.content.language})` : 'none'],
        ['questions', m.questions.map((q, i) => `${i + 1}. ${q.question}`)],
      ]);
    });
  moduleFlags(usesTenant(writes(modules.command('create')), 'starts').description('create a module')).action(
    async (o: ModuleFlags) => {
      const m = await (await b()).training.createModule({ ...req(ctx), body: await moduleBody(ctx, o) });
      await printRecord(
        ctx,
        m,
        Object.entries(m).filter(([k]) => k !== 'questions'),
      );
    },
  );
  moduleFlags(
    writes(modules.command('update')).description('change fields of a module').argument('<id-or-code>'),
  ).action(async (idc: string, o: ModuleFlags) => {
    const backend = await b();
    const m = await backend.training.updateModule({
      ...req(ctx),
      params: { id: await moduleId(ctx, backend, idc) },
      body: await moduleBody(ctx, o),
    });
    await printRecord(
      ctx,
      m,
      Object.entries(m).filter(([k]) => k !== 'questions'),
    );
  });
  writes(modules.command('delete'))
    .argument('<id-or-code>')
    .description('delete a module without assignments')
    .action(async (idc: string) => {
      const backend = await b();
      const r = await backend.training.deleteModule({ ...req(ctx), params: { id: await moduleId(ctx, backend, idc) } });
      if (ctx.config().json) printJson(ctx, r);
      else writeOut(ctx, r.message);
    });
}
