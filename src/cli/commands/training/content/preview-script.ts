import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { moduleId, req } from '../shared.js';

/** `content preview-script <module>`: the script a video would be made from. */
export interface PreviewScriptOptions {
  module: string;
}

export function register(content: Command, ctx: CliContext): Command {
  return content
    .command('preview-script')
    .argument('<module>')
    .description('the video script: sections with headings and bullet points')
    .action((module: string) => run(ctx, { module }));
}

export async function run(ctx: CliContext, o: PreviewScriptOptions): Promise<void> {
  const b = await ctx.backend();
  const s = await b.trainingMedia.previewScript({
    ...req(ctx),
    params: { moduleId: await moduleId(ctx, b, o.module) },
    body: {},
  });
  if (ctx.config().json) return printJson(ctx, s);
  writeOut(ctx, `# ${s.title}`);
  for (const x of s.sections) writeOut(ctx, `\n## ${x.heading}\n${x.bullet_points.map((p) => `- ${p}`).join('\n')}`);
}
