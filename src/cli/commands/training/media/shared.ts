import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { req } from '../shared.js';

/** `media publish` and `media withdraw`: the medium's new state, printed as its id, status and time of publication. */
export async function setPublished(ctx: CliContext, mediaId: string, published: boolean): Promise<void> {
  const m = await (
    await ctx.backend()
  ).trainingMedia.publish({ ...req(ctx), params: { mediaId }, body: { published } });
  await printRecord(ctx, m, [
    ['id', m.id],
    ['status', m.status],
    ['published_at', m.published_at],
  ]);
}
