import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { ATTEMPT_SECONDS } from '../../domain/events/retry.js';
import { resolveWebhookHost } from './ssrf.js';

/** One signed POST of a delivery. */
export interface WebhookMessage {
  url: string;
  secret: string;
  /** webhook-id: the delivery's id, the same on every attempt. */
  id: string;
  payload: string;
  allowPrivate: boolean;
}

/** What came back: `ok` for a 2xx; at most EXCERPT_BYTES of the body; `error` when no answer came. */
export interface SendResult {
  ok: boolean;
  status: number | null;
  excerpt: string | null;
  error: string | null;
}

/** Sends a webhook; the real one posts over HTTP(S), tests may count or fail calls. */
export type WebhookSender = (m: WebhookMessage) => Promise<SendResult>;

export const EXCERPT_BYTES = 256;
const TIMEOUT_MS = ATTEMPT_SECONDS * 1000;

// connections are kept open between deliveries to one receiver; each request still connects to the address checked
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 16 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 16 }),
};

let signer: Promise<typeof import('standardwebhooks')> | undefined;

/** The three Standard Webhooks headers, signed with the endpoint's secret (HMAC-SHA256 over id.timestamp.payload). */
export async function signedHeaders(m: Pick<WebhookMessage, 'secret' | 'id' | 'payload'> & { timestamp: Date }) {
  signer ??= import('standardwebhooks');
  const { Webhook } = await signer;
  return {
    'webhook-id': m.id,
    'webhook-timestamp': String(Math.floor(m.timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(m.secret).sign(m.id, m.timestamp, m.payload),
  };
}

/** The first bytes of an answer, read and then the rest dropped: a receiver's body is never stored whole. */
function excerptOf(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () =>
      resolve(
        Buffer.concat(chunks)
          .subarray(0, EXCERPT_BYTES)
          .toString('utf8')
          .replace(/\uFFFD+$/, ''),
      );
    res.on('data', (c: Buffer) => {
      if (size < EXCERPT_BYTES) chunks.push(c);
      size += c.length;
      if (size >= EXCERPT_BYTES) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

/**
 * Posts a signed delivery. The host is resolved and checked against the SSRF rule again, and the connection goes to
 * the very address checked; redirects are not followed (a 3xx is a failed attempt); 10 s at most in all.
 */
export const sendWebhook: WebhookSender = async (m) => {
  let target;
  try {
    target = await resolveWebhookHost(m.url, m.allowPrivate);
  } catch (e) {
    return { ok: false, status: null, excerpt: null, error: (e as Error).message };
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'compliance-webhooks/1',
    // the receiver compares webhook-timestamp with its own clock (replay protection): the wall clock of the send
    ...(await signedHeaders({ ...m, timestamp: new Date() })),
  };
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: unknown[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  const u = new URL(m.url);
  const https = u.protocol === 'https:';
  const request = https ? httpsRequest : httpRequest;
  const agent = https ? agents.https : agents.http;
  return new Promise<SendResult>((resolve) => {
    // the whole attempt, answer and excerpt included: a receiver that answers a byte at a time is cut off too
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    const done = (r: SendResult) => {
      clearTimeout(deadline);
      resolve(r);
    };
    const req = request(u, { method: 'POST', headers, lookup: pinned, agent }, (res) => {
      void excerptOf(res).then((excerpt) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        done({ ok, status, excerpt: excerpt || null, error: ok ? null : `HTTP ${status}` });
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      done({ ok: false, status: null, excerpt: null, error: e.code ? `${e.code}: ${e.message}` : e.message }),
    );
    req.end(m.payload);
  });
};
