import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import { RISK_LEVELS } from '../../../domain/dsfa/dsfa.values.js';
import { shortId } from '../../../domain/short-id.js';
import type { CliContext } from '../../context.js';
import { note } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';
import { bodyFrom, fieldOptions, type FieldOpts } from './fields.js';
import { printDsfa, req } from './shared.js';

/** `dsfa create`: the field flags, and an author other than --user. */
export interface CreateOptions extends FieldOpts {
  createdBy?: string;
}

export function register(dsfa: Command, ctx: CliContext): Command {
  return fieldOptions(
    usesTenant(writes(dsfa.command('create')), 'starts').description(
      'create an assessment (asks for the fields on a terminal)',
    ),
  )
    .option('--created-by <name>', 'author (default: --user)')
    .action((o: CreateOptions) => run(ctx, o));
}

/** Creates an assessment from the flags (or a JSON file); on a terminal without --title it asks for the fields. */
export async function run(ctx: CliContext, o: CreateOptions): Promise<void> {
  let body = await bodyFrom(ctx, o);
  if (o.createdBy) body.created_by = o.createdBy;
  if (body.title === undefined) {
    if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
      throw new DomainError(
        'bad_request',
        'dsfa create needs --title (or a JSON body with --file); without a terminal nothing is asked',
        [{ path: 'title', message: 'required' }],
      );
    body = { ...(await promptCreate(ctx)), ...body };
  }
  const d = await (await ctx.backend()).dsfa.create({ ...req(ctx), body });
  if (!ctx.config().json && ctx.io.stderrIsTTY) note(ctx, `created DSFA ${shortId(d.id)}`);
  await printDsfa(ctx, d);
}

async function promptCreate(ctx: CliContext): Promise<Record<string, unknown>> {
  const { input, select } = await import('@inquirer/prompts');
  const context = { input: ctx.io.stdin, output: ctx.io.stderr };
  /** One item per line, so an item keeps its commas; an empty line ends the list. */
  const items = async (label: string): Promise<string[]> => {
    const out: string[] = [];
    for (;;) {
      const v = (await input({ message: `${label} ${out.length + 1} (empty line ends)` }, context)).trim();
      if (!v) return out;
      out.push(v);
    }
  };
  const title = await input(
    { message: 'Title', required: true, validate: (v) => (v.trim() ? true : 'a title is required') },
    context,
  );
  const processing_activity = await input({ message: 'Processing activity' }, context);
  const description = await input({ message: 'Description' }, context);
  const risk_level = await select(
    { message: 'Risk level', default: 'medium', choices: RISK_LEVELS.map((v) => ({ value: v })) },
    context,
  );
  const data_categories = await items('Data category');
  const recipients = await items('Recipient');
  const measures = await items('Measure');
  return { title, processing_activity, description, risk_level, data_categories, recipients, measures };
}
