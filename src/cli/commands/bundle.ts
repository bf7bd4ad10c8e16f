import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { writeOutputFile } from '../output-file.js';
import { printJson, writeOut } from '../output.js';
import { writes } from '../store-access.js';

/** `compliance export`: every record of the tenant (and its media files) into one bundle file. */
export function createExportCommand(ctx: CliContext): Command {
  return new Command('export')
    .description('write every record of the tenant, its media files and their schemas to one bundle file (ZIP)')
    .requiredOption('-o, --output <file>', 'the bundle to write (acme.bundle)')
    .action(async (o: { output: string }) => {
      const c = ctx.config();
      const { exportBundle } = await import('../../backend/sync/bundle.js');
      const { manifest: m, bytes } = await exportBundle({
        db: c.db,
        tenant: c.tenant,
        actor: c.user,
        clock: ctx.clock,
        media: c.media,
      });
      await writeOutputFile(o.output, bytes);
      if (c.json) return printJson(ctx, m);
      const records = m.parts.reduce((n, p) => n + (p.count ?? 0), 0);
      const media = m.parts.filter((p) => p.path.startsWith('media/')).length;
      writeOut(ctx, `wrote ${o.output}: tenant ${m.tenant}, ${records} records, ${media} media files`);
    });
}

/** `compliance import FILE`: a bundle into this store (its own tenant), checked whole before anything is written. */
export function createImportCommand(ctx: CliContext): Command {
  return writes(
    new Command('import')
      .description(
        'import a bundle written by export (checked whole first); records that differ here are conflicts, exit 6',
      )
      .argument('<file>', 'the bundle'),
  ).action(async (file: string) => {
    const c = ctx.config();
    const { importBundle } = await import('../../backend/sync/bundle.js');
    const s = await importBundle({ db: c.db, actor: c.user, clock: ctx.clock, media: c.media }, file);
    if (s.conflicts.length) ctx.exitCode = 6;
    if (c.json) return printJson(ctx, s);
    const created = Object.entries(s.created)
      .map(([a, n]) => `${a} ${n}`)
      .join(', ');
    writeOut(ctx, `imported into tenant ${s.tenant}: ${created || 'nothing new'}; ${s.unchanged} unchanged`);
    writeOut(ctx, `conflicts\t${s.conflicts.length}`);
    for (const x of s.conflicts)
      writeOut(ctx, [x.id, x.entity, x.entity_id, x.fields.join(',') || '-', x.reason].join('\t'));
  });
}
