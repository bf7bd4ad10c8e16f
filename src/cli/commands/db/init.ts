import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { note, printJson } from '../../output.js';
import { writes } from '../../store-access.js';

/** `db init`: create the store, or find it, at the current schema. */
export type InitOptions = Record<string, never>;

export function register(db: Command, ctx: CliContext): Command {
  return writes(db.command('init'))
    .description('create the store (an SQLite file and its folder) and bring it to the current schema')
    .action(() => run(ctx, {}));
}

export async function run(ctx: CliContext, _o: InitOptions): Promise<void> {
  let created = false;
  const { store } = await ctx.localBackend('db init', { onMissing: (o) => (created = o === 'created') });
  const st = await store.status();
  const result = { location: st.location, created, schema_version: st.schema_version };
  if (ctx.config().json) return printJson(ctx, result);
  note(ctx, `${created ? 'created' : 'found'} the store ${st.location} (schema ${st.schema_version})`);
}
