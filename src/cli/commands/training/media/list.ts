import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printList } from '../../../output.js';
import { moduleId, req } from '../shared.js';

/** `media list <module>`: the audio and video of a module (its id or code). */
export interface ListOptions {
  module: string;
}

export function register(media: Command, ctx: CliContext): Command {
  return media
    .command('list')
    .description('list the audio and video of a module')
    .argument('<module>')
    .action((module: string) => run(ctx, { module }));
}

export async function run(ctx: CliContext, o: ListOptions): Promise<void> {
  const b = await ctx.backend();
  await printList(
    ctx,
    await b.trainingMedia.list({ ...req(ctx), params: { moduleId: await moduleId(ctx, b, o.module) } }),
    [
      { header: 'ID', value: (m) => m.id, id: true },
      { header: 'KIND', value: (m) => m.kind },
      { header: 'STATUS', value: (m) => m.status },
      { header: 'SECONDS', value: (m) => m.duration_seconds },
      { header: 'BYTES', value: (m) => m.size_bytes },
      { header: 'KEY', value: (m) => `${m.bucket}/${m.object_key}` },
    ],
    { empty: 'no media' },
  );
}
