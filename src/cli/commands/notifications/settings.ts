import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { writes } from '../../store-access.js';

/** `notifications settings`: shown as they are, or the ones given changed. */
export interface SettingsOptions {
  language?: string;
  managementEmail?: string;
  complianceOfficerEmail?: string;
  baseUrl?: string;
}

const changing = (o: SettingsOptions) => Object.values(o).some((v) => v !== undefined);

export function register(notifications: Command, ctx: CliContext): Command {
  return writes(notifications.command('settings'), (o: SettingsOptions) => (changing(o) ? 'write' : 'read'))
    .description('show the settings, or change those given ("" clears an address or the base URL)')
    .option('--language <de|en>', 'language of the e-mail')
    .option('--management-email <address>', 'level 3 escalations go here')
    .option('--compliance-officer-email <address>', 'level 4 escalations go here')
    .option('--base-url <url>', "the tenant's training portal (http or https), linked from every message")
    .action((o: SettingsOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: SettingsOptions): Promise<void> {
  const api = (await ctx.backend()).notifications;
  const clear = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v.trim());
  const s = changing(o)
    ? await api.updateSettings({
        ...req(ctx),
        body: {
          language: o.language,
          management_email: clear(o.managementEmail),
          compliance_officer_email: clear(o.complianceOfficerEmail),
          base_url: clear(o.baseUrl),
        },
      })
    : await api.settings(req(ctx));
  await printRecord(ctx, s, [
    ['language', s.language],
    ['management_email', s.management_email],
    ['compliance_officer_email', s.compliance_officer_email],
    ['base_url', s.base_url],
    ['updated_at', s.updated_at],
  ]);
}
