import { Option, type Command } from 'commander';
import type { Module } from '../../../../domain/training/training.schema.js';
import { FREQUENCY_TYPES, REGULATION_AREAS } from '../../../../domain/training/training.values.js';
import type { CliContext } from '../../../context.js';
import { flagFields } from '../../../flag-names.js';
import { defined, readJson } from '../../../input.js';
import { num } from '../shared.js';

/** The flags of `modules create` and `modules update`: the fields of a module, over a JSON body from --file. */
export interface ModuleFlags {
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
}

export function moduleFlags(cmd: Command): Command {
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

/** The body the flags give: the file's, with the flags given over it. */
export async function moduleBody(ctx: CliContext, o: ModuleFlags) {
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

/** A module as the lines of a record, without its questions. */
export const modulePairs = (m: Module): Array<[string, unknown]> =>
  Object.entries(m).filter(([k]) => k !== 'questions');
