import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { note, printJson } from '../../output.js';

/** `db backup <file>`: a copy of the store made while it may be in use. */
export interface BackupOptions {
  file: string;
  force?: boolean;
}

export function register(db: Command, ctx: CliContext): Command {
  return db
    .command('backup')
    .description("copy the store with SQLite's online backup (safe while a server runs)")
    .argument('<file>')
    .option('--force', 'overwrite an existing file')
    .action((file: string, o: { force?: boolean }) => run(ctx, { ...o, file }));
}

export async function run(ctx: CliContext, o: BackupOptions): Promise<void> {
  const target = resolve(o.file);
  if (existsSync(target) && !o.force)
    throw new DomainError('conflict', `${target} exists; use --force to overwrite it`);
  const { store } = await ctx.localBackend('db backup');
  await store.backup(target);
  note(ctx, `backed up ${store.location} to ${target} (${(statSync(target).size / 1024).toFixed(0)} KiB)`);
  if (ctx.config().json) printJson(ctx, { file: target, size_bytes: statSync(target).size });
}
