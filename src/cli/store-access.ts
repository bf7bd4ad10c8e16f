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
