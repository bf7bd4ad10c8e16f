import type { Agent, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/**
 * How the HTTP client sends a request. By default over `node:http` / `node:https` with a keep-alive agent: the
 * global fetch (undici) costs a command some 60 ms to load and start on its first request and holds the process
 * about as long again before it may exit, which is most of what a `sync` with nothing to move takes. The contract
 * tests wrap this one to check every answer against the OpenAPI document.
 */
export interface Transport {
  send(url: URL, req: TransportRequest): Promise<Answer>;
  /** Closes idle connections; requests sent later open new ones. */
  close(): void;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  /** JSON text, or the bytes of a streamed upload. */
  body?: string | AsyncIterable<Uint8Array | string>;
  signal: AbortSignal;
}

/** An answer whose status line and headers have arrived; its body is read once, by one of the three. */
export interface Answer {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
  stream(): Readable;
}

/**
 * Why a request failed, as the client tells it: `refused`, `not-found` (the host), `timeout`, `tls` (no TLS
 * handshake: not an https server), an untrusted certificate, or the first line of the failure's message. Handles
 * the errors of `node:http` and those of fetch.
 */
export function failureOf(e: unknown): string {
  const err = e as { code?: unknown; name?: string; message?: string; cause?: unknown };
  const cause = err.cause as { code?: unknown; name?: string; message?: string } | undefined;
  const code = typeof err.code === 'string' ? err.code : typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'EPROTO' || code?.startsWith('ERR_SSL_')) return 'tls';
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `its certificate is not trusted (${code})`;
  if (code === 'ENOTFOUND') return 'not-found';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || err.name === 'TimeoutError' || cause?.name === 'TimeoutError')
    return 'timeout';
  return (cause?.message ?? err.message ?? String(e)).split('\n')[0]!;
}

/** Collects a readable into one buffer. */
async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

/** The body of a response, decoded when a proxy on the way compressed it (nothing here asks for compression). */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) return res;
  const zlib = process.getBuiltinModule('node:zlib');
  const decoder =
    encoding === 'br'
      ? zlib.createBrotliDecompress()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : zlib.createGunzip();
  res.on('error', (e) => decoder.destroy(e));
  return res.pipe(decoder);
}

/** A failure while a body is read, told like one before the answer: the request was cut off. */
const cutOff = (e: unknown) =>
  Promise.reject(Object.assign(new Error((e as Error)?.message ?? String(e)), { cause: e }));

/** Requests over `node:http` and `node:https`, one keep-alive agent per scheme (each loaded on first use). */
export function nodeTransport(): Transport {
  type Http = typeof import('node:http');
  const agents = new Map<string, { agent: Agent; request: Http['request'] }>();
  const client = (protocol: string) => {
    let c = agents.get(protocol);
    if (!c) {
      const m = process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as Http;
      c = { agent: new m.Agent({ keepAlive: true }), request: m.request };
      agents.set(protocol, c);
    }
    return c;
  };
  return {
    send(url, r) {
      const { agent, request } = client(url.protocol);
      const headers = { ...r.headers };
      if (typeof r.body === 'string') headers['content-length'] = String(Buffer.byteLength(r.body));
      return new Promise<Answer>((resolve, reject) => {
        const req = request(url, { method: r.method, headers, agent, signal: r.signal }, (res) =>
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const v = res.headers[name.toLowerCase()];
              return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
            },
            text: () => collect(decoded(res)).then((b) => b.toString('utf8'), cutOff),
            bytes: () =>
              collect(decoded(res)).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength), cutOff),
            stream: () => decoded(res),
          }),
        );
        req.on('error', reject);
        if (r.body === undefined || typeof r.body === 'string') req.end(r.body);
        else {
          const src = Readable.from(r.body);
          src.on('error', (e) => req.destroy(e));
          src.pipe(req);
        }
      });
    },
    close() {
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
