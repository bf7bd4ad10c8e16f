import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printRecord } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';
import { req } from './shared.js';

/** `dsfa workflow [workflow]`: without one it shows the tenant's workflow, with one it chooses it. */
export interface WorkflowOptions {
  workflow?: string;
}

export function register(dsfa: Command, ctx: CliContext): Command {
  return usesTenant(
    writes(dsfa.command('workflow'), (_o, [workflow]) => (workflow === undefined ? 'read' : 'write')),
    (_o, [workflow]) => (workflow === undefined ? 'known' : 'starts'),
  )
    .description(
      "show or choose the tenant's review workflow: open (any status to any other) or strict " +
        '(draft → in-review → approved, in-review → draft, approved → needs-update → in-review; four eyes)',
    )
    .argument('[workflow]', 'open or strict')
    .action((workflow: string | undefined) => run(ctx, { workflow }));
}

export async function run(ctx: CliContext, { workflow }: WorkflowOptions): Promise<void> {
  const api = (await ctx.backend()).dsfa;
  const s = workflow ? await api.updateSettings({ ...req(ctx), body: { workflow } }) : await api.settings(req(ctx));
  await printRecord(ctx, s, [
    ['workflow', s.workflow],
    ['changed by', s.updated_by ?? '-'],
    ['changed at', s.updated_at ?? '-'],
  ]);
}
