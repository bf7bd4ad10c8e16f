import { Command, Option } from 'commander';
import type { Backend } from '../backend/backend.js';
import type { AreaName } from '../contract/index.js';
import type { RawRequest } from '../contract/operation.js';
import type { CliContext } from './context.js';
import { flagFields } from './flag-names.js';
import { usesTenant, writes, type TenantUse } from './store-access.js';

/** The tenant and actor every request of a command carries. */
export const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });

/** A flag of a generated verb: it fills the query field `field` (`--risk-level <level>` → `risk_level`). */
export interface QueryFlag {
  flags: string;
  field: string;
  description?: string;
}

/** What the operation `K` of area `A` answers. */
export type Answer<A extends AreaName, K extends keyof Backend[A]> = Backend[A][K] extends (
  ...args: never[]
) => Promise<infer R>
  ? R
  : never;

/**
 * A verb that only calls one operation of the contract table and prints its answer, declared as data: its
 * positional arguments fill the operation's path parameters, its flags the query, in the order given (help lists
 * them so). `addOperationVerb` turns it into a command; `runOperation` runs it without the parser.
 *
 * @example operationVerb({ area: 'dsfa', operation: 'get', name: 'get', description: 'show one assessment',
 *   args: [['<id>', 'id']], print: (ctx, d) => printRecord(ctx, d, dsfaPairs(d)) })
 */
export interface OperationVerb<A extends AreaName, K extends keyof Backend[A] & string> {
  area: A;
  operation: K;
  name: string;
  description: string;
  /** `[usage, path parameter, description?]`, in order: `['<id>', 'id']`. */
  args?: ReadonlyArray<readonly [usage: string, param: string, description?: string]>;
  query?: readonly QueryFlag[];
  /** The verb writes (it may create the store); default: it reads. */
  writes?: boolean;
  /** How it uses its tenant, where it is not `known` (store-access.ts). */
  tenant?: TenantUse;
  /** The verb its group runs when given none (`consents imports` lists the runs). */
  isDefault?: boolean;
  print(ctx: CliContext, answer: Answer<A, K>): Promise<void> | void;
}

/** Identity, so the answer `print` receives is typed by the operation the spec names. */
export const operationVerb = <A extends AreaName, K extends keyof Backend[A] & string>(
  spec: OperationVerb<A, K>,
): OperationVerb<A, K> => spec;

/** What a generated verb was given: its path parameters and query, by the operation's field names. */
export interface OperationInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
}

/** Calls the verb's operation with the tenant and actor of the context and prints the answer. */
export async function runOperation<A extends AreaName, K extends keyof Backend[A] & string>(
  ctx: CliContext,
  spec: OperationVerb<A, K>,
  input: OperationInput = {},
): Promise<void> {
  const area = (await ctx.backend())[spec.area] as unknown as Record<string, (r: RawRequest) => Promise<unknown>>;
  const answer = await area[spec.operation]!({ ...req(ctx), ...input });
  await spec.print(ctx, answer as Answer<A, K>);
}

const longOf = (flags: string) => new Option(flags).long!;
const snake = (long: string) => long.replace(/^--/, '').replace(/-/g, '_');

/** Adds the verb to its group as a commander command whose action runs `runOperation`. */
export function addOperationVerb<A extends AreaName, K extends keyof Backend[A] & string>(
  group: Command,
  ctx: CliContext,
  spec: OperationVerb<A, K>,
): Command {
  const cmd = group.command(spec.name, { isDefault: spec.isDefault }).description(spec.description);
  for (const [usage, , description] of spec.args ?? []) cmd.argument(usage, description);
  const renamed: Record<string, string> = {};
  for (const f of spec.query ?? []) {
    cmd.option(f.flags, f.description);
    if (snake(longOf(f.flags)) !== f.field) renamed[f.field] = longOf(f.flags);
  }
  if (Object.keys(renamed).length) flagFields(cmd, renamed);
  if (spec.writes) writes(cmd);
  if (spec.tenant) usesTenant(cmd, spec.tenant);
  cmd.action(async (...given: unknown[]) => {
    const params = Object.fromEntries((spec.args ?? []).map(([, param], i) => [param, given[i] as string]));
    const opts = cmd.opts<Record<string, string | undefined>>();
    const query = spec.query && Object.fromEntries(spec.query.map((f) => [f.field, opts[attribute(f.flags)]]));
    await runOperation(ctx, spec, { ...(spec.args?.length ? { params } : {}), ...(query ? { query } : {}) });
  });
  return cmd;
}

const attribute = (flags: string) => new Option(flags).attributeName();
