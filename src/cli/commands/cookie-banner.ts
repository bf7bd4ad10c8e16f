import { Command } from 'commander';
import type { CookieBanner, CookieBannerView } from '../../domain/cookie-banner/cookie-banner.schema.js';
import type { CliContext } from '../context.js';
import { readJson } from '../input.js';
import { note, printJson, printRecord, writeOut } from '../output.js';
import { usesTenant, writes } from '../store-access.js';

const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });
const pairs = (c: CookieBannerView): Array<[string, unknown]> => [
  [
    'categories',
    c.categories.map((x) => `${x.id}${x.isRequired ? ' (required)' : ''}${x.defaultEnabled ? ' [on]' : ''}`),
  ],
  ['position', c.config.position],
  ['style', c.config.style],
  ['primaryColor', c.config.primaryColor],
  ['showDeclineAll', c.config.showDeclineAll],
  ['showSettings', c.config.showSettings],
  ['title', c.config.banner_texts.title],
  ['privacyLink', c.config.banner_texts.privacyLink],
  ['updated_at', c.updated_at],
  ['revision', c.revision],
];

export function createCookieBannerCommand(ctx: CliContext): Command {
  const cmd = new Command('cookie-banner').description('the cookie-banner configuration of the tenant');

  cmd
    .command('get')
    .description('show the configuration (the default until one is set)')
    .action(async () => {
      const c = await (await ctx.backend()).cookieBanner.get(req(ctx));
      await printRecord(ctx, c, pairs(c));
    });

  usesTenant(writes(cmd.command('set')), 'starts')
    .description('replace the whole configuration with a JSON file {categories, config}')
    .requiredOption('--file <config.json>', '- reads stdin')
    .action(async (o: { file: string }) => {
      const c = await (await ctx.backend()).cookieBanner.put({ ...req(ctx), body: await readJson(ctx, o.file) });
      await printRecord(ctx, c, pairs(c));
    });

  cmd
    .command('lint')
    .description('check the configuration against regulator guidance; exits 6 with findings')
    .option('--file <config.json>', 'lint this file instead of the stored configuration')
    .action(async (o: { file?: string }) => {
      const { lintCookieBanner } = await import('../../domain/cookie-banner/cookie-banner.lint.js');
      let config: Pick<CookieBanner, 'categories' | 'config'>;
      if (o.file) {
        const { CookieBannerInput } = await import('../../domain/cookie-banner/cookie-banner.schema.js');
        const { parseOrThrow } = await import('../../domain/validation.js');
        config = parseOrThrow(CookieBannerInput, await readJson(ctx, o.file), { what: 'cookie-banner configuration' });
      } else config = await (await ctx.backend()).cookieBanner.get(req(ctx));
      const findings = lintCookieBanner(config);
      if (ctx.config().json) printJson(ctx, { ok: findings.length === 0, findings });
      else if (findings.length === 0) writeOut(ctx, 'cookie banner: no findings');
      else for (const f of findings) writeOut(ctx, `${f.rule}\t${f.path}\t${f.message}`);
      if (findings.length) {
        if (!ctx.config().json) note(ctx, `${findings.length} finding(s)`);
        ctx.exitCode = 6;
      }
    });
  return cmd;
}
