import type { Command } from 'commander';
import type { Backend } from '../../../../backend/backend.js';
import { DomainError } from '../../../../domain/errors.js';
import { verificationUrl } from '../../../../domain/training/training.rules.js';
import type { CliContext } from '../../../context.js';
import { printError, printJson, writeOut } from '../../../output.js';
import { req } from '../shared.js';

/** `certificates verify <id-or-code>`: whether a certificate holds; exit 6 when it does not. */
export interface VerifyOptions {
  input: string;
}

export function register(certs: Command, ctx: CliContext): Command {
  return certs
    .command('verify')
    .argument('<id-or-code>', 'the certificate id, the verification code printed on it, or the URL in its QR code')
    .description(
      'check a certificate by its id, printed code or QR URL; exits 6 when it does not verify (unknown, fields edited, or expired)',
    )
    .action((input: string) => run(ctx, { input }));
}

export async function run(ctx: CliContext, o: VerifyOptions): Promise<void> {
  const { tenant } = req(ctx);
  const url = verificationUrl(o.input);
  if (url && url.tenant !== tenant)
    throw new DomainError(
      'bad_request',
      `the verification URL is for tenant ${url.tenant}, this command runs for tenant ${tenant}: add --tenant ${url.tenant}`,
      [{ path: 'tenant', message: `the URL's tenant_id is ${url.tenant}` }],
    );
  let r: Awaited<ReturnType<Backend['training']['verify']>>;
  try {
    r = await (await ctx.backend()).training.verify({ ...req(ctx), params: { id: url?.code ?? o.input } });
  } catch (e) {
    // nothing in the store carries that code or id: the certificate does not verify (a forged one looks so)
    if (!(e instanceof DomainError) || e.code !== 'not_found') throw e;
    if (ctx.config().json) printError(ctx, e);
    else writeOut(ctx, `NOT valid: ${e.message} (tenant ${tenant})`);
    ctx.exitCode = 6;
    return;
  }
  const c = r.certificate;
  const verdict = !r.signature_valid
    ? 'NOT valid (the signature does not match its fields)'
    : r.expired
      ? `NOT valid (expired on ${c.valid_until.slice(0, 10)})`
      : 'valid';
  if (ctx.config().json) printJson(ctx, r);
  else writeOut(ctx, `${verdict}: ${c.user_name}, ${c.module_title}, ${c.score}%, code ${c.verification_code}`);
  if (!r.valid) ctx.exitCode = 6;
}
