import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { note, printJson, printList, printRecord, writeOut } from '../output.js';
import { writes } from '../store-access.js';

export function createKeysCommand(ctx: CliContext): Command {
  const keys = new Command('keys').description('API keys of `compliance serve` (stored hashed)');
  const store = async () => (await ctx.localBackend('keys')).keys();

  writes(keys.command('create'))
    .description('create a key; it is shown once')
    .option('--name <name>', 'what the key is for', 'default')
    .action(async (o: { name: string }) => {
      const k = await (await store()).create(o.name, ctx.config().user);
      if (ctx.config().json)
        return printJson(ctx, { key: k.key, id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at });
      writeOut(ctx, k.key);
      note(ctx, `created key ${k.prefix} (${k.name}); it is shown only now. Send it as Authorization: Bearer <key>.`);
    });

  keys
    .command('list')
    .description('list keys (never the keys themselves)')
    .action(async () => {
      const rows = await (await store()).list();
      await printList(
        ctx,
        rows,
        [
          { header: 'PREFIX', value: (k) => k.prefix },
          { header: 'NAME', value: (k) => k.name },
          { header: 'CREATED', value: (k) => k.created_at },
          { header: 'REVOKED', value: (k) => k.revoked_at },
        ],
        { empty: 'no API keys: `compliance serve` accepts every request and listens on 127.0.0.1 only' },
      );
    });

  writes(keys.command('revoke'))
    .description('revoke a key by its prefix or id')
    .argument('<prefix-or-id>')
    .action(async (id: string) => {
      const k = await (await store()).revoke(id, ctx.config().user);
      await printRecord(ctx, k, [
        ['prefix', k.prefix],
        ['name', k.name],
        ['revoked_at', k.revoked_at],
      ]);
    });
  return keys;
}
