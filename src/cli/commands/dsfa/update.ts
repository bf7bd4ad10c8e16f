import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { Dsfa } from '../../../domain/dsfa/dsfa.schema.js';
import type { CliContext } from '../../context.js';
import { collect } from '../../input.js';
import { writes } from '../../store-access.js';
import { bodyFrom, camel, editList, fieldOptions, LIST_FLAGS, type FieldOpts } from './fields.js';
import { printDsfa, req } from './shared.js';

/** `dsfa update <id>`: the field flags, and `--add-…`/`--remove-…` for each list (camelCase keys, as commander). */
export type UpdateOptions = FieldOpts & { id: string } & {
  [edit: `${'add' | 'remove'}${string}`]: string[] | undefined;
};

export function register(dsfa: Command, ctx: CliContext): Command {
  const update = fieldOptions(
    writes(dsfa.command('update'))
      .description('change fields of an assessment; fields not given stay unchanged')
      .argument('<id>'),
  );
  for (const [flag, what] of LIST_FLAGS)
    update
      .option(`--add-${flag} <value>`, `add one ${what}, keeping the others (repeatable)`, collect)
      .option(`--remove-${flag} <value>`, `remove one ${what} (repeatable; it must be there)`, collect);
  return update.action((id: string, o: UpdateOptions) => run(ctx, { ...o, id }));
}

/** Changes the fields given; a list is replaced by its flag or edited item by item, never both. */
export async function run(ctx: CliContext, o: UpdateOptions): Promise<void> {
  const { id } = o;
  const edit = o as unknown as Record<string, string[] | undefined>;
  const api = (await ctx.backend()).dsfa;
  let stored: Promise<Dsfa> | undefined;
  const current = () => (stored ??= api.get({ ...req(ctx), params: { id } }));
  const body = await bodyFrom(ctx, o, current);
  const edits = LIST_FLAGS.filter(([flag]) => edit[camel(`add-${flag}`)] || edit[camel(`remove-${flag}`)]);
  for (const [flag, , field] of edits) {
    if (body[field] !== undefined)
      throw new DomainError(
        'bad_request',
        `--${flag} replaces the list; --add-${flag}/--remove-${flag} edit it: use one or the other`,
      );
    const list = (await current())[field] ?? [];
    body[field] = editList(list, edit[camel(`add-${flag}`)], edit[camel(`remove-${flag}`)], flag);
  }
  await printDsfa(ctx, await api.update({ ...req(ctx), params: { id }, body }));
}
