import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { writes } from '../../../store-access.js';
import { generateMedium } from './shared.js';

/** `content generate-video <module>`: the narrated slide video (MP4) of the published content. */
export interface GenerateVideoOptions {
  module: string;
}

export function register(content: Command, ctx: CliContext): Command {
  return writes(content.command('generate-video'))
    .argument('<module>')
    .description('narrated slide video (MP4) of the published content')
    .action((module: string) => run(ctx, { module }));
}

export async function run(ctx: CliContext, o: GenerateVideoOptions): Promise<void> {
  await generateMedium(ctx, 'video', o.module);
}
