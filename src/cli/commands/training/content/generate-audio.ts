import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { writes } from '../../../store-access.js';
import { generateMedium } from './shared.js';

/** `content generate-audio <module>`: the speech (AAC, .m4a) of the published content. */
export interface GenerateAudioOptions {
  module: string;
}

export function register(content: Command, ctx: CliContext): Command {
  return writes(content.command('generate-audio'))
    .argument('<module>')
    .description('speech (AAC, .m4a) of the published content')
    .action((module: string) => run(ctx, { module }));
}

export async function run(ctx: CliContext, o: GenerateAudioOptions): Promise<void> {
  await generateMedium(ctx, 'audio', o.module);
}
