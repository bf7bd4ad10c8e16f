import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

/**
 * Every `--tenant` the command line gives, in order. `--tenant` is also the program's own flag (one tenant, the last
 * wins), which takes every occurrence before a subcommand sees it; a key may name several, so they are read here.
 */
export function tenantFlags(cmd: Command): string[] {
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

/** The tenants of a key as a list: `*` for every tenant. */
export const tenantList = (values: string[] | null) => (values === null ? '*' : values.join(','));

/** A key to create, as the flags give it (the store and the API check it). */
export interface NewKey {
  name: string;
  scope: string;
  tenants: string[] | null;
  origins: string[];
  expires?: string;
}

/** The key operations, on the embedded store or, with --remote, through `/sdk/v1/keys` with an admin key. */
export function keyApi(ctx: CliContext) {
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
