import { Option, type Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import { shortId } from '../../../domain/short-id.js';
import type { CliContext } from '../../context.js';
import { printJson, writeOut } from '../../output.js';
import { writes } from '../../store-access.js';
import { target } from './shared.js';

/** `sync resolve <id>`: which side wins, whole or per field. */
export interface ResolveOptions {
  id: string;
  ours?: boolean;
  theirs?: boolean;
  field?: string[];
}

export function register(sync: Command, ctx: CliContext): Command {
  return writes(
    sync
      .command('resolve')
      .description(
        'settle a conflict: --ours keeps this store’s version (pushed next sync), --theirs takes the server’s, --field NAME=ours|theirs|both picks per field (repeatable; the side given takes the rest)',
      )
      .argument(
        '<id>',
        'the conflict’s id or its record’s (whole, or its short form: 8 or more characters of the start or end)',
      )
      .addOption(
        new Option('--ours', 'keep this store’s version (with --field: for every field not named)').conflicts('theirs'),
      )
      .addOption(new Option('--theirs', 'take the server’s version (with --field: for every field not named)'))
      .addOption(
        new Option(
          '--field <name=side>',
          'take one field from ours or theirs, or both for a list field (their items together; repeatable)',
        ).argParser((v: string, all: string[] = []) => [...all, v]),
      ),
  ).action((id: string, o: Omit<ResolveOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, ...o }: ResolveOptions): Promise<void> {
  const fields = parseFields(o.field ?? []);
  if (!o.ours && !o.theirs && !o.field?.length)
    throw new DomainError('bad_request', 'say which version wins: --ours, --theirs or --field NAME=ours|theirs', [
      { path: '--ours', message: 'one of --ours, --theirs, --field NAME=ours|theirs' },
    ]);
  const side = o.ours ? 'ours' : o.theirs ? 'theirs' : undefined;
  const { resolveSync } = await import('../../../backend/sync/sync-session.js');
  const done = await resolveSync(target(ctx), id, { side, fields });
  if (ctx.config().json) return printJson(ctx, done);
  const how = done.resolution?.startsWith('fields:')
    ? `per field ${done.resolution.slice('fields:'.length)} (pushed next sync)`
    : done.resolution === 'ours' && done.status === 'ours'
      ? 'ours (pushed next sync)'
      : String(done.resolution);
  const short = (x: string) => (ctx.io.stdoutIsTTY ? shortId(x) : x);
  writeOut(ctx, `conflict ${short(done.id)} (${done.entity} ${short(done.entity_id)}) settled: ${how}`);
}

/** `--field NAME=ours|theirs|both` values, by field: each a name and a side, a field named once. */
function parseFields(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const at = v.indexOf('=');
    const name = at < 0 ? v : v.slice(0, at);
    const side = at < 0 ? '' : v.slice(at + 1);
    const refuse = (message: string) => new DomainError('validation', message, [{ path: '--field', message }]);
    if (!name || !['ours', 'theirs', 'both'].includes(side))
      throw refuse(
        `--field ${v}: give NAME=ours or NAME=theirs, or NAME=both for a list field (the side is one of ours, theirs, both)`,
      );
    if (out[name] !== undefined && out[name] !== side)
      throw refuse(`--field ${name} is named twice, as ${out[name]} and ${side}`);
    out[name] = side;
  }
  return out;
}
