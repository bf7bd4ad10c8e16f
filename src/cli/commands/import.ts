import { Command } from 'commander';
import type { BundleStream } from '../../backend/local/bundles.area.js';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { printJson, writeOut } from '../output.js';
import { usesTenant, writes } from '../store-access.js';

/**
 * `compliance import FILE`: a bundle into this store or, with --remote, into the server (admin key), checked whole
 * before anything is written. Into the bundle's own tenant, or into --tenant when that is the bundle's or
 * --rename-tenant says to rename its records.
 */
export interface ImportOptions {
  file: string;
  renameTenant?: boolean;
}

export function createImportCommand(ctx: CliContext): Command {
  const cmd = writes(
    new Command('import')
      .description(
        'import a bundle written by export into its tenant (checked whole first); --remote: into the server (admin key); records that differ here are conflicts, exit 6',
      )
      .argument('<file>', 'the bundle')
      .option('--rename-tenant', "import the records of a bundle of another tenant as --tenant's"),
  );
  return usesTenant(cmd, 'starts').action((file: string, o: { renameTenant?: boolean }) => run(ctx, { ...o, file }));
}

export async function run(ctx: CliContext, { file, ...o }: ImportOptions): Promise<void> {
  const c = ctx.config();
  if (o.renameTenant && !c.tenantGiven)
    throw new DomainError('bad_request', '--rename-tenant renames the records to the tenant of --tenant: name one', [
      { path: '--tenant', message: 'required with --rename-tenant' },
    ]);
  const { bundleTenant, fileBytes } = await import('../bundle-file.js');
  const from = await bundleTenant(file);
  if (from !== undefined && c.tenantGiven && from !== c.tenant && !o.renameTenant)
    throw new DomainError(
      'validation',
      `${file} holds tenant ${from}, not ${c.tenant}: import it with --tenant ${from} (or without --tenant), or add --rename-tenant to import its records as tenant ${c.tenant}`,
      [
        { path: '--tenant', message: `${c.tenant}, but the bundle holds tenant ${from}` },
        { path: '--rename-tenant', message: `not given: the records would stay tenant ${from}'s` },
      ],
    );
  // the embedded store reads the file where it is; a server gets its bytes
  const stream: BundleStream = { body: fileBytes(file), content_type: 'application/zip', file };
  const s = await (
    await ctx.backend()
  ).bundles.import({
    tenant: c.tenantGiven ? c.tenant : (from ?? c.tenant),
    actor: c.user,
    query: { rename_tenant: o.renameTenant ? true : undefined },
    stream,
  });
  if (s.conflicts.length) ctx.exitCode = 6;
  if (c.json) return printJson(ctx, s);
  const created = Object.entries(s.created)
    .map(([a, n]) => `${a} ${n}`)
    .join(', ');
  writeOut(ctx, `imported into tenant ${s.tenant}: ${created || 'nothing new'}; ${s.unchanged} unchanged`);
  writeOut(ctx, `conflicts\t${s.conflicts.length}`);
  for (const x of s.conflicts)
    writeOut(ctx, [x.id, x.entity, x.entity_id, x.fields.join(',') || '-', x.reason].join('\t'));
}
