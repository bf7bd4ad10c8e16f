import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { flagFields } from '../../flag-names.js';
import { note, printJson, writeOut } from '../../output.js';
import { writes } from '../../store-access.js';
import { keyApi, tenantFlags, tenantList } from './shared.js';

/** `keys create`: a key for the tenants named (none: every tenant), shown once. */
export interface CreateOptions {
  name: string;
  scope: string;
  origin?: string[];
  expires?: string;
  /** Every `--tenant` of the command line, in order (`tenantFlags`). */
  tenants: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function register(keys: Command, ctx: CliContext): Command {
  return flagFields(writes(keys.command('create')), { origins: '--origin' })
    .description(
      'create a key for the named tenants (--tenant, repeatable; none: every tenant) with a scope; it is shown once',
    )
    .option('--name <name>', 'what the key is for', 'default')
    .option(
      '--scope <scope>',
      'publishable (a browser: banner, published documents, consents), read, write, admin',
      'admin',
    )
    .option('--origin <origin>', 'a page origin a publishable key is accepted from (repeatable)', collect)
    .option('--expires <when>', 'expiry: 90d, a date 2027-01-31 (valid through that day, UTC) or an ISO time with Z')
    .action((o: Omit<CreateOptions, 'tenants'>, cmd: Command) => run(ctx, { ...o, tenants: tenantFlags(cmd) }));
}

export async function run(ctx: CliContext, o: CreateOptions): Promise<void> {
  const k = await keyApi(ctx).create({
    name: o.name,
    scope: o.scope,
    tenants: o.tenants.length ? o.tenants : null,
    origins: o.origin ?? [],
    expires: o.expires,
  });
  if (ctx.config().json) return printJson(ctx, k);
  writeOut(ctx, k.key);
  const where =
    k.tenants === null ? 'every tenant' : `tenant${k.tenants.length > 1 ? 's' : ''} ${tenantList(k.tenants)}`;
  const from = k.origins.length ? `, from ${k.origins.join(' ')}` : '';
  const until = k.expires_at ? `, until ${k.expires_at}` : '';
  note(
    ctx,
    `created ${k.scope} key ${k.prefix} (${k.name}) for ${where}${from}${until}; it is shown only now. Send it as Authorization: Bearer <key>.`,
  );
}
