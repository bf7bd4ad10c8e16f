import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Backend } from '../backend/backend.js';
import { errorBody, STATUS_BY_CODE } from '../contract/errors.js';
import { contracts } from '../contract/index.js';
import { SDK_PREFIX, type BinaryPayload, type RawRequest, type StreamBody } from '../contract/operation.js';
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../domain/errors.js';
import { sendBannerScript } from './banner-script.js';
import { buildOpenApi } from './openapi.js';
import { Router } from './router.js';
import type { Store } from '../store/store.js';
import { TENANT_PATTERN, TENANT_RULE } from '../domain/tenant.js';

/** An error of the HTTP exchange itself whose status says more than its code's (413 for a body over the limit). */
class TransportError extends DomainError {
  constructor(
    readonly status: number,
    code: ConstructorParameters<typeof DomainError>[0],
    message: string,
  ) {
    super(code, message);
  }
}

/** What the server needs to know about API keys. */
export interface KeyCheck {
  activeCount(): Promise<number>;
  verify(key: string): Promise<boolean>;
}

export interface ApiServerOptions {
  backend: Backend;
  keys?: KeyCheck;
  version?: string;
  /** One line per request; stderr by default. */
  log?: (line: string) => void;
  maxBodyBytes?: number;
  /**
   * The store behind the backend, for `GET /sdk/v1/health`, and to translate an engine failure outside an area's
   * own guard (the API-key lookup) into the same clear error.
   */
  store?: Pick<Store, 'kind' | 'ping' | 'mapError'>;
}

/**
 * The server's /sdk/v1 URL as this client reached it (behind a proxy, as the proxy says), for links the server hands
 * out, such as the verification URL in a certificate's QR code.
 */
function ownUrl(req: IncomingMessage): string | undefined {
  const forwarded = (name: string) => header(req, name)?.split(',')[0]?.trim();
  const host = forwarded('x-forwarded-host') ?? header(req, 'host');
  if (!host || !/^[\w.:[\]-]+$/.test(host)) return undefined;
  const proto = forwarded('x-forwarded-proto') === 'https' ? 'https' : 'http';
  return `${proto}://${host}/sdk/v1`;
}

/** A health check answers within this, so a load balancer never waits on a database that has gone away. */
const HEALTH_TIMEOUT_MS = 2000;

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
      // far beyond the limit, stop reading instead of draining a flood
      else if (size > 10 * max) req.destroy();
    });
    req.on('end', () => {
      if (size > max)
        reject(
          new TransportError(
            413,
            'bad_request',
            `request body larger than ${max} bytes (stream bulk data to the import routes instead)`,
          ),
        );
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const quoted = (values: string[]) => values.map((v) => JSON.stringify(v)).join(' and ');

/**
 * The tenant of a request, from the one place its route reads it. A tenant named twice is refused with both names
 * rather than guessed: two X-Tenant-ID lines (which Node would join into a phantom tenant "tA, tB"), a repeated
 * query parameter, or a header and a `tenant_id` that disagree.
 */
function tenantFrom(req: IncomingMessage, placement: 'query' | 'header' | 'signed', url: URL): string {
  const twice = (source: string, values: string[]) =>
    new DomainError('bad_request', `${source} sent ${values.length} times (${quoted(values)}): send one tenant`, [
      { path: source, message: `sent more than once: ${quoted(values)}` },
    ]);
  const headers = req.headersDistinct['x-tenant-id'] ?? [];
  const queryName = placement === 'signed' ? 'tenant' : 'tenant_id';
  const queries = url.searchParams.getAll(queryName);
  if (placement !== 'signed' && headers.length > 1) throw twice('X-Tenant-ID', headers);
  if (queries.length > 1) throw twice(queryName, queries);
  const [fromHeader] = headers;
  const [fromQuery] = queries;
  if (placement !== 'signed' && fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery)
    throw new DomainError(
      'bad_request',
      `X-Tenant-ID "${fromHeader}" and tenant_id "${fromQuery}" name different tenants: send one, or the same in both`,
      [
        { path: 'X-Tenant-ID', message: `"${fromHeader}" differs from tenant_id "${fromQuery}"` },
        { path: 'tenant_id', message: `"${fromQuery}" differs from X-Tenant-ID "${fromHeader}"` },
      ],
    );
  let tenant: string | undefined;
  // the error names where the tenant came from, so a client knows which input to fix
  let source = 'X-Tenant-ID';
  if (placement === 'signed') {
    tenant = fromQuery;
    source = 'tenant';
    if (!tenant) throw new DomainError('forbidden', 'this URL is not signed for a tenant');
  } else if (placement === 'query') {
    if (fromQuery !== undefined) source = 'tenant_id';
    tenant = fromQuery ?? fromHeader ?? 'default';
  } else {
    tenant = fromHeader;
    if (tenant === undefined || tenant === '')
      throw new DomainError('bad_request', 'missing header X-Tenant-ID (required on this route)', [
        { path: 'X-Tenant-ID', message: 'required' },
      ]);
  }
  if (!TENANT_PATTERN.test(tenant))
    throw new DomainError('bad_request', `invalid ${source}: ${TENANT_RULE}`, [{ path: source, message: TENANT_RULE }]);
  return tenant;
}

/** The /sdk/v1 HTTP API: every route comes from the contract table and is answered by a Backend. */
export function createApiServer(opts: ApiServerOptions): Server {
  const router = new Router(contracts);
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const maxBody = opts.maxBodyBytes ?? 10 * 1024 * 1024;
  let openapi: Record<string, unknown> | undefined;

  /** Checks the request's key; the principal the journal records for it (`key:PREFIX`, or `anonymous` without keys). */
  async function authorize(req: IncomingMessage): Promise<string> {
    if (!opts.keys || (await opts.keys.activeCount()) === 0) return 'anonymous';
    const auth = header(req, 'authorization') ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw new DomainError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
    if (!(await opts.keys.verify(m[1]!))) throw new DomainError('unauthorized', 'invalid API key');
    return `key:${/^cmp_([0-9a-f]+)_/.exec(m[1]!)?.[1] ?? 'unknown'}`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname !== SDK_PREFIX && !url.pathname.startsWith(SDK_PREFIX + '/'))
      throw new DomainError('not_found', `no route ${url.pathname}: the API lives under ${SDK_PREFIX}`);
    let parts: string[];
    try {
      parts = url.pathname.slice(SDK_PREFIX.length).split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw new DomainError('bad_request', 'malformed percent-encoding in the path');
    }
    // for load balancers: no API key, no tenant, no data; 200 while the store answers, 503 while it does not
    if (parts.length === 1 && parts[0] === 'health' && (method === 'GET' || method === 'HEAD')) {
      const health = { status: 'ok', store: opts.store?.kind ?? 'unknown', version: opts.version ?? '0.0.0' };
      await opts.store?.ping(HEALTH_TIMEOUT_MS);
      send(res, 200, health);
      return 200;
    }
    // the website banner's script: public, like the health check (banner-script.ts)
    if (parts.length === 1 && parts[0] === 'banner.js' && (method === 'GET' || method === 'HEAD'))
      return sendBannerScript(req, res);
    const m = router.match(method, parts);
    const principal = m.kind === 'route' && m.route.op.public ? 'public' : await authorize(req);
    if (method === 'GET' && parts.length === 1 && parts[0] === 'openapi.json') {
      openapi ??= buildOpenApi(opts.version ?? '0.0.0');
      send(res, 200, openapi);
      return 200;
    }
    if (m.kind === 'none') throw new DomainError('not_found', `no route ${method} ${url.pathname}`);
    if (m.kind === 'method') {
      const e = new DomainError(
        'bad_request',
        `method ${method} not allowed on ${url.pathname}; allowed: ${m.allowed.join(', ')}`,
      );
      send(res, 405, errorBody(e), { allow: m.allowed.join(', ') });
      return 405;
    }
    const { route, params } = m;
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const tenant = tenantFrom(req, route.op.tenant, url);
    if (route.op.tenant !== 'signed') delete query.tenant_id;
    if (route.op.tenant === 'signed') delete query.tenant;
    let body: unknown;
    let stream: RawRequest['stream'];
    if (route.op.requestKind === 'stream') {
      // a client that goes away before the answer (Ctrl-C during an import) stops the work after the batch in hand
      const gone = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) gone.abort(new DomainError('bad_request', 'the client closed the connection'));
      });
      stream = {
        body: req,
        content_type: header(req, 'content-type') ?? 'application/octet-stream',
        signal: gone.signal,
      };
    } else if (route.op.body) {
      const text = await readBody(req, maxBody);
      if (text.trim() === '') body = {};
      else {
        try {
          body = JSON.parse(text);
        } catch (e) {
          throw new DomainError('bad_request', `malformed JSON body: ${(e as Error).message}`);
        }
      }
    }
    const raw: RawRequest = {
      tenant,
      actor: header(req, 'x-user-id') || undefined,
      principal,
      origin: ownUrl(req),
      params,
      query,
      body,
      stream,
    };
    const area = (opts.backend as unknown as Record<string, Record<string, (r: RawRequest) => Promise<unknown>>>)[
      route.area
    ]!;
    const result = await area[route.name]!(raw);
    if (route.op.responseKind === 'binary') {
      const b = result as BinaryPayload;
      res.writeHead(route.op.status, {
        'content-type': b.content_type,
        'content-length': b.data.byteLength,
        ...(b.filename ? { 'content-disposition': `attachment; filename="${b.filename.replace(/"/g, '')}"` } : {}),
      });
      res.end(b.data);
      return route.op.status;
    }
    if (route.op.responseKind === 'stream') {
      const s = result as StreamBody;
      res.writeHead(route.op.status, { 'content-type': s.content_type });
      try {
        await pipeline(Readable.from(s.body), res);
      } catch (e) {
        // the client went away, or the source failed after the status line was sent: all we can do is cut it short
        res.destroy(e as Error);
      }
      return route.op.status;
    }
    if (route.op.responseKind === 'redirect') {
      const { location } = result as { location: string };
      res.writeHead(307, { location, 'content-length': 0 });
      res.end();
      return 307;
    }
    send(res, route.op.status, result);
    return route.op.status;
  }

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    handle(req, res)
      .catch((raw: unknown) => {
        const e = opts.store ? opts.store.mapError(raw) : raw;
        if (e instanceof DomainError) {
          const status = e instanceof TransportError ? e.status : STATUS_BY_CODE[e.code];
          if (status >= 500) log(`error: ${e.message}`);
          send(res, status, errorBody(e));
          return status;
        }
        log(`internal error on ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`);
        send(res, 500, { error: 'internal server error', code: 'internal', details: [] });
        return 500;
      })
      .then((status) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log(`${new Date().toISOString()} ${req.method} ${req.url} ${status} ${ms.toFixed(1)}ms`);
      });
  });
  // bytes the HTTP parser refuses never reach `handle`: answer them with the same JSON error body, not a bare socket close
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const text = JSON.stringify({
      error: `malformed HTTP request (${err.code ?? 'parse error'}): ${err.message}`,
      code: 'bad_request',
      details: [],
    });
    log(`${new Date().toISOString()} malformed request refused by the HTTP parser: ${err.code ?? err.message} 400`);
    socket.end(
      'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
  // a bulk import streams for as long as its file lasts: no limit on receiving a whole body (headers keep theirs)
  server.requestTimeout = 0;
  return server;
}
