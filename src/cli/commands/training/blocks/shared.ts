import { Option, type Command } from 'commander';
import { FREQUENCY_TYPES, REGULATION_AREAS } from '../../../../domain/training/training.values.js';
import type { CliContext } from '../../../context.js';
import { flagFields } from '../../../flag-names.js';
import { defined, readJson } from '../../../input.js';
import { num } from '../shared.js';

/** The flags of `blocks create` and `blocks update`: the fields of a block, over a JSON body from --file. */
export interface BlockFlags {
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
}

export const blockFlags = (c: Command) =>
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

/** The body the flags give: the file's, with the flags given over it. */
export async function blockBody(ctx: CliContext, o: BlockFlags) {
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
