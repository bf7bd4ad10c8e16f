import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { moduleId, req } from '../shared.js';

/** `content show <module>`: the published content, as Markdown. */
export interface ShowOptions {
  module: string;
}

export function register(content: Command, ctx: CliContext): Command {
  return content
    .command('show')
    .argument('<module>')
    .description('the published content of a module')
    .action((module: string) => run(ctx, { module }));
}

export async function run(ctx: CliContext, o: ShowOptions): Promise<void> {
  const b = await ctx.backend();
  const c = await b.trainingContent.published({ ...req(ctx), params: { moduleId: await moduleId(ctx, b, o.module) } });
  if (ctx.config().json) return printJson(ctx, c);
  writeOut(ctx, c.markdown);
}
