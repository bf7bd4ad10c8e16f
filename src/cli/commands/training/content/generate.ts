import type { Command } from 'commander';
import { shortId } from '../../../../domain/short-id.js';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { moduleId, req } from '../shared.js';
import { modelFlags, redactedText, tokens, type ModelOptions } from './shared.js';

/** `content generate <module>`: a new draft version of the module's content. */
export type GenerateOptions = ModelOptions & { module: string };

export function register(content: Command, ctx: CliContext): Command {
  return modelFlags(
    writes(content.command('generate'))
      .argument('<module>', 'id or module_code')
      .description('generate a new content version (draft)'),
  ).action((module: string, o: ModelOptions) => run(ctx, { ...o, module }));
}

export async function run(ctx: CliContext, o: GenerateOptions): Promise<void> {
  const b = await ctx.backend();
  const r = await b.trainingContent.generate({
    ...req(ctx),
    body: {
      module_id: await moduleId(ctx, b, o.module),
      language: o.language,
      model: o.model ?? ctx.env.COMPLIANCE_LLM_MODEL,
    },
  });
  if (ctx.config().json) return printJson(ctx, r);
  writeOut(ctx, r.markdown);
  ctx.io.stderr.write(
    `content ${shortId(r.id)} version ${r.version} (draft; publish with \`compliance training content publish ${shortId(r.id)}\`); redacted: ${redactedText(r.redacted)}; ${tokens(r)}\n`,
  );
}
