import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { readJson } from '../../input.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';
import { pairs } from './shared.js';

/** `cookie-banner set --file config.json`: the whole configuration at once. */
export interface SetOptions {
  file: string;
}

export function register(banner: Command, ctx: CliContext): Command {
  return usesTenant(writes(banner.command('set')), 'starts')
    .description('replace the whole configuration with a JSON file {categories, config}')
    .requiredOption('--file <config.json>', '- reads stdin')
    .action((o: SetOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: SetOptions): Promise<void> {
  const c = await (await ctx.backend()).cookieBanner.put({ ...req(ctx), body: await readJson(ctx, o.file) });
  await printRecord(ctx, c, pairs(c));
}
