import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { wholeFile } from '../../../../contract/file-payload.js';
import { outputFormat, writeOutputFileWhole } from '../../../output-file.js';
import { req } from '../shared.js';

/** `media get <media-id> -o FILE`: the file of a medium. */
export interface GetOptions {
  mediaId: string;
  output: string;
}

/** The file extensions that name each type of medium the media service writes. */
const MEDIA_EXTENSIONS: Record<string, string[]> = { 'audio/mp4': ['m4a', 'mp4'], 'video/mp4': ['mp4'] };

export function register(media: Command, ctx: CliContext): Command {
  return media
    .command('get')
    .argument('<media-id>')
    .requiredOption('-o, --output <file>')
    .description('download a media file (audio as .m4a, video as .mp4)')
    .action((mediaId: string, o: { output: string }) => run(ctx, { ...o, mediaId }));
}

export async function run(ctx: CliContext, o: GetOptions): Promise<void> {
  const b = await ctx.backend();
  const u = await b.trainingMedia.url({ ...req(ctx), params: { mediaId: o.mediaId } });
  // media in an object store come from it directly, through the presigned URL, on every face
  if (/^https?:\/\//.test(u.url)) {
    outputFormat('media get', { [u.content_type]: MEDIA_EXTENSIONS[u.content_type] ?? [] }, o, u.content_type);
    const { downloadPresigned } = await import('./download.js');
    const bytes = await downloadPresigned(u.url, o.output, u.size_bytes);
    ctx.io.stderr.write(`wrote ${o.output} (${u.content_type}, ${bytes} bytes, from ${u.bucket})\n`);
    return;
  }
  const f = await b.trainingMedia.download({ ...req(ctx), params: { mediaId: o.mediaId } });
  // a file name that says another type (`-o talk.mp3` for an MPEG-4 audio file) is refused before anything is written
  outputFormat('media get', { [f.content_type]: MEDIA_EXTENSIONS[f.content_type] ?? [] }, o, f.content_type);
  // a piece at a time into a file beside it, moved over it once whole: a cut download leaves no file
  await writeOutputFileWhole(o.output, wholeFile(f, `the file of media ${o.mediaId}`));
  ctx.io.stderr.write(`wrote ${o.output} (${f.content_type}, ${f.size} bytes)\n`);
}
