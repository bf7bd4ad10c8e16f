import type { Command } from 'commander';

/**
 * How a command uses the store. A command that only reads never creates one: a mistyped `--db` in a CI gate must
 * fail, not answer from a new empty file. A command that writes may create it. A dry run of a command that writes
 * answers as the run would on the new store, empty, and creates nothing.
 */
export type StoreAccess = 'read' | 'write' | 'dry-run';

type Rule = (opts: Record<string, unknown>, args: unknown[]) => StoreAccess;
const rules = new WeakMap<Command, Rule>();

/**
 * Declares that a command writes, so it may create a store that does not exist yet. `access` narrows it for some
 * invocations: `dsfa workflow` writes only when given a workflow, `escalation check --dry-run` is a dry run.
 * Commands without this declaration read.
 *
 * @example writes(dsfa.command('workflow'), (_o, [workflow]) => (workflow === undefined ? 'read' : 'write'))
 */
export function writes<C extends Command>(cmd: C, access: Rule = () => 'write'): C {
  rules.set(cmd, access);
  return cmd;
}

/** For `writes`: a command with `--dry-run` that writes without it. */
export const unlessDryRun: Rule = (o) => (o.dryRun ? 'dry-run' : 'write');

/** The access of a parsed command: what its definition declares for the flags and arguments it was given. */
export function storeAccess(cmd: Command): StoreAccess {
  return rules.get(cmd)?.(cmd.opts(), cmd.processedArgs) ?? 'read';
}

/**
 * How a command uses its tenant (`--tenant`, COMPLIANCE_TENANT, else `default`). The tenant `default` is never
 * refused: a first run writes there, and it reads as empty until then.
 *
 * - `known` (every command that declares nothing): it reads or changes what the tenant holds, so a tenant the store
 *   has never seen is refused (exit 3, naming the known tenants nearest it): a typo cannot make a gate green, a
 *   report or an export empty;
 * - `starts`: it may write a tenant's first record (`dsfa create`, `consents import`, `import` of a bundle);
 * - `narrows`: it concerns every tenant, and a tenant named narrows it to that one (`audit verify`), which must be
 *   known;
 * - `none`: the tenant plays no part (`db`, `keys`, `serve`), or the command asks the server itself (`sync`).
 */
export type TenantUse = 'known' | 'starts' | 'narrows' | 'none';

type TenantRule = (opts: Record<string, unknown>, args: unknown[]) => TenantUse;
const tenantRules = new WeakMap<Command, TenantRule>();

/**
 * Declares how a command (or every command of a group that declares nothing itself) uses its tenant; a function
 * decides per invocation.
 *
 * @example usesTenant(dsfa.command('workflow'), (_o, [workflow]) => (workflow === undefined ? 'known' : 'starts'))
 */
export function usesTenant<C extends Command>(cmd: C, use: TenantUse | TenantRule): C {
  tenantRules.set(cmd, typeof use === 'function' ? use : () => use);
  return cmd;
}

/** How a parsed command uses its tenant: its own declaration, else its group's, else `known`. */
export function tenantUse(cmd: Command): TenantUse {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const rule = tenantRules.get(c);
    if (rule) return rule(cmd.opts(), cmd.processedArgs);
  }
  return 'known';
}
