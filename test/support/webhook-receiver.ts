import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { cli } from './helpers.js';

/** One request a receiver accepted or refused, after checking its signature with the standardwebhooks package. */
export interface Received {
  id: string;
  type: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  answered: number;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 that verifies every request as a receiver in production would. `answer` decides
 * the status of each request (default 204); every request is recorded, its signature verified with `secret`.
 */
export async function startReceiver(opts: { answer?: (n: number) => number; body?: string; delayMs?: number } = {}) {
  const received: Received[] = [];
  let secret = '';
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: boolean;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const answered = opts.answer?.(n++) ?? 204;
      const payload = JSON.parse(body) as Received['payload'];
      received.push({ id: String(req.headers['webhook-id']), type: payload.type, payload, verified, answered, at });
      const reply = () => {
        res.writeHead(answered, { 'content-type': 'text/plain' });
        res.end(opts.body ?? (answered < 300 ? '' : 'receiver down'));
      };
      if (opts.delayMs) setTimeout(reply, opts.delayMs);
      else reply();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** The secret the endpoint was created with (known only after `webhooks add`). */
    useSecret(s: string) {
      secret = s;
    },
    /** Ids of requests answered with 2xx. */
    delivered: () => received.filter((r) => r.answered < 300).map((r) => r.id),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Adds an endpoint for `url` to the store `db` as an operator does (the command line, private addresses allowed). */
export async function addEndpoint(
  db: string,
  url: string,
  opts: { tenant?: string; events?: string } = {},
): Promise<{ id: string; secret: string }> {
  const tenant = opts.tenant ? ['--tenant', opts.tenant] : [];
  const events = opts.events ?? 'dsfa.created';
  const r = await cli(['--db', db, ...tenant, '--json', 'webhooks', 'add', url, '--events', events, '--allow-private']);
  if (r.code !== 0) throw new Error(`webhooks add ${url} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { id: string; secret: string };
}
