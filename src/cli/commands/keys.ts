import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { flagFields } from '../flag-names.js';
import { note, printJson, printList, printRecord, writeOut } from '../output.js';
import { usesTenant, writes } from '../store-access.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Every `--tenant` the command line gives, in order. `--tenant` is also the program's own flag (one tenant, the last
 * wins), which takes every occurrence before a subcommand sees it; a key may name several, so they are read here.
 */
function tenantFlags(cmd: Command): string[] {
  let root = cmd;
  while (root.parent) root = root.parent;
  const args = (root as Command & { rawArgs?: string[] }).rawArgs ?? [];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--tenant' && i + 1 < args.length) out.push(args[++i]!);
    else if (a.startsWith('--tenant=')) out.push(a.slice('--tenant='.length));
  }
  return out;
}

const list = (values: string[] | null) => (values === null ? '*' : values.join(','));

/** A key to create, as the flags give it (the store and the API check it). */
interface NewKey {
  name: string;
  scope: string;
  tenants: string[] | null;
  origins: string[];
  expires?: string;
}

/** The key operations, on the embedded store or, with --remote, through `/sdk/v1/keys` with an admin key. */
function keyApi(ctx: CliContext) {
  const remote = async () => {
    if (!ctx.config().remote) return undefined;
    const api = (await ctx.backend()).apiKeys;
    const req = { tenant: '', actor: ctx.config().user };
    return {
      create: (body: NewKey) => api.create({ ...req, body }),
      list: () => api.list(req),
      revoke: (id: string) => api.revoke({ ...req, params: { id } }),
    };
  };
  const local = async () => (await ctx.localBackend('keys')).keys();
  return {
    create: async (k: NewKey) => (await remote())?.create(k) ?? (await local()).create(k, ctx.config().user),
    list: async () => (await remote())?.list() ?? (await local()).list(),
    revoke: async (id: string) => (await remote())?.revoke(id) ?? (await local()).revoke(id, ctx.config().user),
  };
}

export function createKeysCommand(ctx: CliContext): Command {
  // keys are the store's; --tenant here names the tenants a new key opens, which need no record yet
  const keys = usesTenant(new Command('keys'), 'none').description(
    'API keys of `compliance serve` (stored hashed; --remote: an admin key)',
  );
  const store = () => keyApi(ctx);

  const create = writes(keys.command('create'))
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
    .action(async (o: { name: string; scope: string; origin?: string[]; expires?: string }, cmd: Command) => {
      const tenants = tenantFlags(cmd);
      const k = await store().create({
        name: o.name,
        scope: o.scope,
        tenants: tenants.length ? tenants : null,
        origins: o.origin ?? [],
        expires: o.expires,
      });
      if (ctx.config().json) return printJson(ctx, k);
      writeOut(ctx, k.key);
      const where = k.tenants === null ? 'every tenant' : `tenant${k.tenants.length > 1 ? 's' : ''} ${list(k.tenants)}`;
      const from = k.origins.length ? `, from ${k.origins.join(' ')}` : '';
      const until = k.expires_at ? `, until ${k.expires_at}` : '';
      note(
        ctx,
        `created ${k.scope} key ${k.prefix} (${k.name}) for ${where}${from}${until}; it is shown only now. Send it as Authorization: Bearer <key>.`,
      );
    });
  flagFields(create, { origins: '--origin' });

  keys
    .command('list')
    .description('list keys with scope, tenants, origins, expiry and last use (never the keys themselves)')
    .action(async () => {
      const rows = await store().list();
      await printList(
        ctx,
        rows,
        [
          { header: 'PREFIX', value: (k) => k.prefix },
          { header: 'NAME', value: (k) => k.name },
          { header: 'SCOPE', value: (k) => k.scope },
          { header: 'TENANTS', value: (k) => list(k.tenants) },
          { header: 'ORIGINS', value: (k) => k.origins.join(',') },
          { header: 'CREATED', value: (k) => k.created_at },
          { header: 'EXPIRES', value: (k) => k.expires_at },
          { header: 'LAST USED', value: (k) => k.last_used_at },
          { header: 'REVOKED', value: (k) => k.revoked_at },
        ],
        { empty: 'no API keys: `compliance serve` accepts every request and listens on 127.0.0.1 only' },
      );
    });

  writes(keys.command('revoke'))
    .description('revoke a key by its prefix or id')
    .argument('<prefix-or-id>')
    .action(async (id: string) => {
      const k = await store().revoke(id);
      await printRecord(ctx, k, [
        ['prefix', k.prefix],
        ['name', k.name],
        ['scope', k.scope],
        ['revoked_at', k.revoked_at],
      ]);
    });
  return keys;
}
