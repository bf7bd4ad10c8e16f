import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { flagFields } from '../../flag-names.js';
import { defined } from '../../input.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';

/** `consents grant`: one decision of a user about a data point. */
export interface GrantOptions {
  userId: string;
  dataPoint: string;
  refused?: boolean;
  consentVersion?: string;
  source?: string;
  ip?: string;
  userAgent?: string;
  grantedAt?: string;
}

export function register(consents: Command, ctx: CliContext): Command {
  return flagFields(usesTenant(writes(consents.command('grant')), 'starts'), {
    data_point_id: '--data-point',
    ip_address: '--ip',
    granted: '--refused',
  })
    .description(
      'record a decision (use --refused for a refusal): a refusal revokes the grant in force, the same decision again changes nothing',
    )
    .requiredOption('--user-id <id>', 'user id or e-mail')
    .requiredOption('--data-point <id>', 'data point id')
    .option('--refused', 'the user refused (granted=false)')
    .option('--consent-version <v>', 'version of the privacy statement (default 1.0)')
    .option('--source <s>', 'e.g. web_banner, api')
    .option('--ip <address>', 'IPv4 or IPv6')
    .option('--user-agent <ua>')
    .option('--granted-at <iso>', 'when it was given (default now)')
    .action((o: GrantOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: GrantOptions): Promise<void> {
  const body = defined({
    user_id: o.userId,
    data_point_id: o.dataPoint,
    granted: !o.refused,
    consent_version: o.consentVersion,
    source: o.source,
    ip_address: o.ip,
    user_agent: o.userAgent,
    granted_at: o.grantedAt,
  });
  const r = await (await ctx.backend()).consents.create({ ...req(ctx), body });
  await printRecord(ctx, r, [
    ['id', r.id],
    ['user_id', r.user_id],
    ['data_point_id', r.data_point_id],
    ['granted', r.granted],
    ['granted_at', r.granted_at],
    ['outcome', r.outcome],
    ['revoked', r.revoked_consent_ids.length ? r.revoked_consent_ids.join(', ') : null],
  ]);
}
