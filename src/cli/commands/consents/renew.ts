import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { defined } from '../../input.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { writes } from '../../store-access.js';

/** `consents renew <id>`: the same consent again, under a new version if given one. */
export interface RenewOptions {
  id: string;
  consentVersion?: string;
}

export function register(consents: Command, ctx: CliContext): Command {
  return writes(consents.command('renew'))
    .description('renew an active consent; with --consent-version a new version is recorded')
    .argument('<id>')
    .option('--consent-version <v>')
    .action((id: string, o: { consentVersion?: string }) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, o: RenewOptions): Promise<void> {
  const body = defined({ consent_version: o.consentVersion });
  const r = await (await ctx.backend()).consents.renew({ ...req(ctx), params: { id: o.id }, body });
  await printRecord(ctx, r, [
    ['id', r.id],
    ['consent_version', r.consent_version],
    ['last action', r.history.at(-1)?.action],
  ]);
}
