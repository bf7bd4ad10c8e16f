import type { Command } from 'commander';
import type { CookieBanner } from '../../../domain/cookie-banner/cookie-banner.schema.js';
import type { CliContext } from '../../context.js';
import { readJson } from '../../input.js';
import { req } from '../../operation-verb.js';
import { note, printJson, writeOut } from '../../output.js';

/** `cookie-banner lint`: the stored configuration, or --file. */
export interface LintOptions {
  file?: string;
}

export function register(banner: Command, ctx: CliContext): Command {
  return banner
    .command('lint')
    .description('check the configuration against regulator guidance; exits 6 with findings')
    .option('--file <config.json>', 'lint this file instead of the stored configuration')
    .action((o: LintOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: LintOptions): Promise<void> {
  const { lintCookieBanner } = await import('../../../domain/cookie-banner/cookie-banner.lint.js');
  let config: Pick<CookieBanner, 'categories' | 'config'>;
  if (o.file) {
    const { CookieBannerInput } = await import('../../../domain/cookie-banner/cookie-banner.schema.js');
    const { parseOrThrow } = await import('../../../domain/validation.js');
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
}
