import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printList, printRecord } from '../../output.js';
import { outputFormat, writeOutputFile } from '../../output-file.js';
import { moduleId, req } from './shared.js';
import { writes } from '../../store-access.js';

/** The file extensions that name each type of medium the media service writes. */
const MEDIA_EXTENSIONS: Record<string, string[]> = { 'audio/mp4': ['m4a', 'mp4'], 'video/mp4': ['mp4'] };

/** `training media`: list, download, sign, publish and withdraw the audio and video of modules. */
export function addMediaCommands(ctx: CliContext, training: Command): void {
  const media = training.command('media').description('audio and video of modules');
  media
    .command('list')
    .description('list the audio and video of a module')
    .argument('<module>')
    .action(async (mod: string) => {
      const b = await ctx.backend();
      await printList(
        ctx,
        await b.trainingMedia.list({ ...req(ctx), params: { moduleId: await moduleId(ctx, b, mod) } }),
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
    });
  media
    .command('get')
    .argument('<media-id>')
    .requiredOption('-o, --output <file>')
    .description('download a media file (audio as .m4a, video as .mp4)')
    .action(async (id: string, o: { output: string }) => {
      const b = await ctx.backend();
      const u = await b.trainingMedia.url({ ...req(ctx), params: { mediaId: id } });
      // media in an object store come from it directly, through the presigned URL, on every face
      if (/^https?:\/\//.test(u.url)) {
        outputFormat('media get', { [u.content_type]: MEDIA_EXTENSIONS[u.content_type] ?? [] }, o, u.content_type);
        const { downloadPresigned } = await import('./media-download.js');
        const bytes = await downloadPresigned(u.url, o.output, u.size_bytes);
        ctx.io.stderr.write(`wrote ${o.output} (${u.content_type}, ${bytes} bytes, from ${u.bucket})\n`);
        return;
      }
      const f = await b.trainingMedia.download({ ...req(ctx), params: { mediaId: id } });
      // a file name that says another type (`-o talk.mp3` for an MPEG-4 audio file) is refused before anything is written
      outputFormat('media get', { [f.content_type]: MEDIA_EXTENSIONS[f.content_type] ?? [] }, o, f.content_type);
      await writeOutputFile(o.output, f.data);
      ctx.io.stderr.write(`wrote ${o.output} (${f.content_type}, ${f.data.byteLength} bytes)\n`);
    });
  media
    .command('url')
    .argument('<media-id>')
    .description("bucket, object key and a signed URL (15 minutes; an object store's presign_minutes)")
    .action(async (id: string) => {
      const u = await (await ctx.backend()).trainingMedia.url({ ...req(ctx), params: { mediaId: id } });
      await printRecord(ctx, u, Object.entries(u));
    });
  for (const [verb, published] of [
    ['publish', true],
    ['withdraw', false],
  ] as const) {
    writes(media.command(verb))
      .description(published ? 'publish a medium (its URL may then be handed out)' : 'withdraw a published medium')
      .argument('<media-id>')
      .action(async (id: string) => {
        const m = await (
          await ctx.backend()
        ).trainingMedia.publish({ ...req(ctx), params: { mediaId: id }, body: { published } });
        await printRecord(ctx, m, [
          ['id', m.id],
          ['status', m.status],
          ['published_at', m.published_at],
        ]);
      });
  }
}
