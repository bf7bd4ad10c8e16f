import { smtpFromEnv } from '../../backend/local/events/events-runner.js';
import { DomainError } from '../../domain/errors.js';
import { EMAIL_PATTERN } from '../../domain/schema-helpers.js';
import { checkSmtpUrl, type SmtpSettings } from '../../services/mail/mailer.js';
import type { CliContext } from '../context.js';

/** The SMTP settings of --smtp/--smtp-from or the environment, refused (exit 2) when malformed. */
export function checkSmtpFlags(
  ctx: Pick<CliContext, 'env'>,
  o: { smtp?: string; smtpFrom?: string },
  flags = { url: '--smtp', from: '--smtp-from' },
): SmtpSettings | undefined {
  const s = smtpFromEnv(ctx.env, o);
  if (!s) return undefined;
  checkSmtpUrl(s.url, o.smtp !== undefined ? flags.url : 'COMPLIANCE_SMTP_URL');
  const fromSource = o.smtpFrom !== undefined ? flags.from : 'COMPLIANCE_SMTP_FROM';
  const address = /<([^>]+)>\s*$/.exec(s.from)?.[1] ?? s.from;
  if (address !== 'compliance@localhost' && !EMAIL_PATTERN.test(address))
    throw new DomainError('validation', `${fromSource}: "${s.from}" is not an e-mail address`, [
      { path: fromSource, message: 'expected an e-mail address such as compliance@example.com' },
    ]);
  return s;
}
