import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as it arrived, parsed: envelope recipients, subject, both parts, language. */
export interface Arrived {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  language: string | undefined;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps what arrives. `refuse` makes it answer every message with
 * a temporary failure (451) until cleared, as a server in trouble does.
 */
export async function startSmtpSink() {
  const arrived: Arrived[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.refuse) {
          const e = Object.assign(new Error('try again later'), { responseCode: 451 });
          callback(e);
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((m) => {
          arrived.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: m.subject ?? '',
            text: m.text ?? '',
            html: typeof m.html === 'string' ? m.html : '',
            language: m.headers.get('content-language') as string | undefined,
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrived,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
