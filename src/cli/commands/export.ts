import { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { printJson, writeOut } from '../output.js';

/**
 * `compliance export`: every record of the tenant (and its media files) into one bundle file, from this store or,
 * with --remote, from the server (admin key). Streamed into the file, which appears whole or not at all.
 */
export interface ExportOptions {
  output: string;
}

export function createExportCommand(ctx: CliContext): Command {
  return new Command('export')
    .description(
      'write every record of the tenant, its media files and their schemas to one bundle file (ZIP); --remote: from the server (admin key)',
    )
    .requiredOption('-o, --output <file>', 'the bundle to write (acme.bundle)')
    .action((o: ExportOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ExportOptions): Promise<void> {
  const c = ctx.config();
  const backend = await ctx.backend();
  const r = await backend.bundles.export({ tenant: c.tenant, actor: c.user });
  const { manifestReader } = await import('../bundle-file.js');
  const { writeOutputFileWhole } = await import('../output-file.js');
  const reader = manifestReader();
  async function* watched() {
    try {
      for await (const chunk of r.body) {
        reader.push(chunk);
        yield chunk;
      }
    } catch (e) {
      if (e instanceof DomainError) throw e;
      throw new DomainError(
        'unavailable',
        `the bundle from ${backend.location} stopped before its end: ${(e as Error)?.message ?? String(e)}`,
      );
    }
  }
  await writeOutputFileWhole(o.output, watched());
  const m = reader.manifest();
  if (!m) throw new DomainError('internal', `${backend.location} sent a bundle without a manifest`);
  if (c.json) return printJson(ctx, m);
  const records = m.parts.reduce((n, p) => n + (p.count ?? 0), 0);
  const media = m.parts.filter((p) => p.path.startsWith('media/')).length;
  writeOut(ctx, `wrote ${o.output}: tenant ${m.tenant}, ${records} records, ${media} media files`);
}
