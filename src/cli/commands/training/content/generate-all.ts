import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { defineGenerateAll, generateAll, type GenerateAllOptions } from './generate-every.js';

/** `content generate-all`: content for every module without one (--dry-run lists them). */
export type ContentAllOptions = GenerateAllOptions;

export function register(content: Command, ctx: CliContext): Command {
  return defineGenerateAll(content, 'content').action((o: ContentAllOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ContentAllOptions): Promise<void> {
  await generateAll(ctx, 'content', o);
}
