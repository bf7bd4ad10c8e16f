import { DomainError } from '../../domain/errors.js';

/** One e-mail, plain text and HTML. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  language: string;
}

/** Sends one message; throws when the server refuses it or cannot be reached. */
export type Mailer = (m: MailMessage) => Promise<void>;

/** Where mail goes: an smtp:// or smtps:// URL (user and password in it, if the server wants them) and the sender. */
export interface SmtpSettings {
  url: string;
  from: string;
}

/** Refuses a malformed SMTP URL up front (exit 2), naming the flag or variable it came from. */
export function checkSmtpUrl(url: string, source: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DomainError('validation', `${source}: "${url}" is not a URL; expected smtp://host:port or smtps://…`, [
      { path: source, message: 'expected smtp://host:port or smtps://host:port' },
    ]);
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw new DomainError('validation', `${source}: unsupported scheme ${u.protocol}; expected smtp:// or smtps://`, [
      { path: source, message: 'expected smtp:// or smtps://' },
    ]);
}

/**
 * A mailer over SMTP with nodemailer (loaded on first use): one connection per pass, short timeouts so an unreachable
 * server fails the attempt quickly instead of holding the pass.
 */
export async function smtpMailer(s: SmtpSettings): Promise<Mailer & { close(): void }> {
  const { createTransport } = (await import('nodemailer')).default;
  const transport = createTransport(s.url, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as object);
  const send = async (m: MailMessage) => {
    await transport.sendMail({
      from: m.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      headers: { 'Content-Language': m.language },
    });
  };
  return Object.assign(send, { close: () => transport.close() });
}
