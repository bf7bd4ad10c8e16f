import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { moduleId, req } from '../shared.js';

/** `modules show <id-or-code>`: one module, its content version and its questions. */
export interface ShowOptions {
  idOrCode: string;
}

export function register(modules: Command, ctx: CliContext): Command {
  return modules
    .command('show')
    .description('show one module by id or code')
    .argument('<id-or-code>')
    .action((idOrCode: string) => run(ctx, { idOrCode }));
}

export async function run(ctx: CliContext, o: ShowOptions): Promise<void> {
  const backend = await ctx.backend();
  const m = await backend.training.getModule({ ...req(ctx), params: { id: await moduleId(ctx, backend, o.idOrCode) } });
  await printRecord(ctx, m, [
    ...Object.entries(m).filter(([k]) => !['questions', 'content'].includes(k)),
    ['content', m.content ? `version ${m.content.version} (${m.content.language})` : 'none'],
    ['questions', m.questions.map((q, i) => `${i + 1}. ${q.question}`)],
  ]);
}
