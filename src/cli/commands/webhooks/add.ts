import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { req } from '../../operation-verb.js';
import { note, printJson, writeOut } from '../../output.js';
import { writes } from '../../store-access.js';

/** `webhooks add <url> --events …`. */
export interface AddOptions {
  url: string;
  events: string;
  allowPrivate?: boolean;
}

export function register(webhooks: Command, ctx: CliContext): Command {
  return writes(webhooks.command('add'))
    .description('add an endpoint; prints it with its signing secret (whsec_…), shown only now')
    .argument('<url>', 'https:// (or http://) URL that receives POST requests')
    .requiredOption('--events <list>', 'comma-separated event types, or * for every one')
    .option('--allow-private', 'permit a URL that resolves to a loopback, link-local or private address')
    .action((url: string, o: Omit<AddOptions, 'url'>) => run(ctx, { ...o, url }));
}

export async function run(ctx: CliContext, { url, ...o }: AddOptions): Promise<void> {
  const events = o.events
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const body = { url, events, allow_private: Boolean(o.allowPrivate) };
  const e = await (await ctx.backend()).webhooks.add({ ...req(ctx), body });
  if (ctx.config().json) return printJson(ctx, e);
  writeOut(ctx, `${e.id}\t${e.url}\t${e.secret}`);
  note(ctx, `added webhook ${e.id} for ${e.events.join(', ')}; its secret is shown only now`);
}
