import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Backend } from '../backend/backend.js';
import { errorBody, STATUS_BY_CODE } from '../contract/errors.js';
import { contracts } from '../contract/index.js';
import {
  SDK_PREFIX,
  type BinaryPayload,
  type FilePayload,
  type Operation,
  type RawRequest,
  type StreamBody,
  type TenantPlacement,
} from '../contract/operation.js';
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../domain/errors.js';
import { parseJson } from '../contract/json-body.js';
import { sendBannerScript } from './banner-script.js';
import { buildOpenApi } from './openapi.js';
import { Router } from './router.js';
import type { MediaHealth, Store } from '../store/store.js';
import { TENANT_PATTERN, TENANT_RULE } from '../domain/tenant.js';
import { neededScope } from '../domain/api-keys/api-key.rules.js';
import {
  authenticate,
  authorize,
  CORS_ALLOW_HEADERS,
  CORS_EXPOSE_HEADERS,
  CORS_MAX_AGE,
  type Caller,
  type KeyCheck,
} from './access.js';
import { addRateLimitFields, DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rate-limit.js';
import { logLine, requestId, type LogFormat } from './request-log.js';
import { JSON_HEADERS, send } from './json-answer.js';
import { sendFile } from './send-file.js';

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

export type { KeyCheck } from './access.js';

export interface ApiServerOptions {
  backend: Backend;
  keys?: KeyCheck;
  version?: string;
  /** One line per request; stderr by default. */
  log?: (line: string) => void;
  /** `text` (default) or `json`: one JSON object per request. */
  logFormat?: LogFormat;
  /** Requests per minute per key and per address on the public routes (0: off); DEFAULT_RATE_LIMITS by default. */
  rateLimits?: Partial<RateLimits>;
  /** Behind a reverse proxy: the client's address is the last one of X-Forwarded-For (the proxy's own entry). */
  trustProxy?: boolean;
  maxBodyBytes?: number;
  /**
   * Operator fields (Operation.operatorFields) this server lets API clients set: `allow_private` with
   * `serve --allow-private-webhooks`. None by default.
   */
  operatorFields?: readonly string[];
  /**
   * The store behind the backend, for `GET /sdk/v1/health`, and to translate an engine failure outside an area's
   * own guard (the API-key lookup) into the same clear error.
   */
  store?: Pick<Store, 'kind' | 'ping' | 'mapError'> & Partial<Pick<Store, 'mediaObjects'>>;
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

/** Whether the media store answers, within `ms`. */
async function mediaHealthWithin(store: Partial<Pick<Store, 'mediaObjects'>>, ms: number): Promise<MediaHealth> {
  const { mediaHealth } = await import('../store/store.js');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<MediaHealth>((done) => {
    timer = setTimeout(
      () => done({ location: 'unknown', status: 'unavailable', message: `the media store did not answer in ${ms} ms` }),
      ms,
    );
  });
  try {
    return await Promise.race([mediaHealth({ mediaObjects: () => store.mediaObjects!() }), late]);
  } finally {
    clearTimeout(timer);
  }
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
 * The user a request names (X-User-ID), recorded as the actor of what it changes. Two X-User-ID lines are refused
 * with both names, as a tenant named twice is: Node would join them into one actor "a, b".
 */
function actorFrom(req: IncomingMessage): string | undefined {
  const values = req.headersDistinct['x-user-id'] ?? [];
  if (values.length > 1)
    throw new DomainError('bad_request', `X-User-ID sent ${values.length} times (${quoted(values)}): send one user`, [
      { path: 'X-User-ID', message: `sent more than once: ${quoted(values)}` },
    ]);
  return values[0] || undefined;
}

/**
 * The tenant of a request, from the one place its route reads it. A tenant named twice is refused with both names
 * rather than guessed: two X-Tenant-ID lines (which Node would join into a phantom tenant "tA, tB"), a repeated
 * query parameter, or a header and a `tenant_id` that disagree.
 */
function tenantFrom(req: IncomingMessage, placement: TenantPlacement, url: URL): string {
  if (placement === 'none') return '';
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

/**
 * A browser's body with the fields the server decides (Operation.serverDecides) set by the server: a body that sends
 * one of them is a 422 naming each.
 */
function decidedByServer(
  decides: NonNullable<Operation['serverDecides']>,
  body: unknown,
  req: IncomingMessage,
): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const sent = decides.fields.filter((f) => f in body);
  if (sent.length)
    throw new DomainError(
      'validation',
      `${sent.join(', ')}: set by the server for a browser's request (a publishable key records a choice now, through the banner); leave ${sent.length > 1 ? 'them' : 'it'} out`,
      sent.map((path) => ({ path, message: "set by the server for a browser's request" })),
    );
  return { ...body, ...decides.values({ userAgent: header(req, 'user-agent') }) };
}

/** What the server learns of a request as it goes, for its log line. */
interface Seen {
  id: string;
  ip: string;
  principal?: string;
  tenant?: string;
}

/** The /sdk/v1 HTTP API: every route comes from the contract table and is answered by a Backend. */
export function createApiServer(opts: ApiServerOptions): Server {
  const router = new Router(contracts);
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const maxBody = opts.maxBodyBytes ?? 10 * 1024 * 1024;
  let openapi: Record<string, unknown> | undefined;

  const limits = { ...DEFAULT_RATE_LIMITS, ...opts.rateLimits };
  const perKey = new RateLimiter('per-key', limits.perKey);
  const perIp = new RateLimiter('per-address', limits.perIp);
  const logFormat = opts.logFormat ?? 'text';

  /** The client's address: the socket's peer, or behind a trusted proxy the address it forwarded. */
  function clientIp(req: IncomingMessage): string {
    const forwarded = opts.trustProxy ? header(req, 'x-forwarded-for')?.split(',').at(-1)?.trim() : undefined;
    return forwarded || req.socket.remoteAddress || 'unknown';
  }

  /** Counts the request against `who`'s quota (RateLimit fields); 429 with Retry-After once it is used up. */
  function limit(limiter: RateLimiter, who: string, res: ServerResponse): void {
    const taken = limiter.take(who);
    if (!taken) return;
    addRateLimitFields(res, limiter, taken);
    if (taken.wait === 0) return;
    throw new DomainError('rate_limited', `too many requests: try again in ${taken.wait} s`, [
      { path: 'Retry-After', message: String(taken.wait) },
    ]);
  }

  /**
   * CORS: a browser may read the answers of this server only on a page whose origin a usable publishable key lists.
   * The preflight carries neither the key nor the tenant, so it is answered for such an origin on the routes a
   * publishable key may call; the request itself is then checked strictly (its key, tenant and origin).
   */
  async function allowedOrigin(origin: string | undefined): Promise<boolean> {
    if (origin === undefined || !opts.keys?.browserOrigins) return false;
    return (await opts.keys.browserOrigins()).has(origin);
  }

  /** 403 for a body that sets a field only the operator decides, unless this server was started allowing it. */
  function refuseOperatorFields(op: Operation, body: unknown): void {
    if (!op.operatorFields || !body || typeof body !== 'object') return;
    const values = body as Record<string, unknown>;
    const set = Object.entries(op.operatorFields).filter(
      ([f]) => values[f] !== undefined && values[f] !== false && !opts.operatorFields?.includes(f),
    );
    if (set.length)
      throw new DomainError(
        'forbidden',
        set
          .map(([f, flag]) => `${f}: only the operator decides it, on the store's command line or with serve ${flag}`)
          .join('; '),
        set.map(([path, flag]) => ({ path, message: `only the operator may set it (serve ${flag})` })),
      );
  }

  const keyed = async () => (opts.keys ? (await opts.keys.activeCount()) > 0 : false);

  async function preflight(req: IncomingMessage, res: ServerResponse, parts: string[], ip: string): Promise<number> {
    // a refused preflight carries no CORS header at all: the browser reads it as a plain refusal
    res.removeHeader('access-control-allow-origin');
    res.removeHeader('access-control-expose-headers');
    if (await keyed()) limit(perIp, ip, res);
    const origin = header(req, 'origin');
    const wanted = (header(req, 'access-control-request-method') ?? '').toUpperCase();
    const m = wanted ? router.match(wanted, parts) : undefined;
    const publishable = m?.kind === 'route' && !m.route.op.public && neededScope(m.route.op) === 'publishable';
    if (!publishable || !(await allowedOrigin(origin)))
      throw new DomainError(
        'forbidden',
        publishable
          ? `origin ${origin ?? '(none)'} is not listed for any publishable key`
          : `no cross-origin ${wanted || 'request'} on this path: browsers may only call the routes of publishable keys`,
      );
    res.writeHead(204, {
      'access-control-allow-origin': origin!,
      'access-control-allow-methods': wanted,
      'access-control-allow-headers': CORS_ALLOW_HEADERS,
      'access-control-max-age': String(CORS_MAX_AGE),
      'content-length': 0,
    });
    res.end();
    return 204;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, seen: Seen): Promise<number> {
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
      // media that cannot be reached fail their own routes only (503): the health says so and stays 200; where
      // they live and why they fail are for `db status`, not for anyone who asks
      const media = opts.store?.mediaObjects ? await mediaHealthWithin(opts.store, HEALTH_TIMEOUT_MS) : undefined;
      send(res, 200, media ? { ...health, media: media.status } : health);
      return 200;
    }
    const origin = header(req, 'origin');
    if (await allowedOrigin(origin)) {
      res.setHeader('access-control-allow-origin', origin!);
      res.setHeader('access-control-expose-headers', CORS_EXPOSE_HEADERS);
    }
    if (method === 'OPTIONS' && origin !== undefined) return preflight(req, res, parts, seen.ip);
    // the website banner's script: public, like the health check (banner-script.ts)
    if (parts.length === 1 && parts[0] === 'banner.js' && (method === 'GET' || method === 'HEAD'))
      return sendBannerScript(req, res);
    // HEAD asks for the headers alone: answered where they are known without doing the work, as for a stored file
    // (its size and Accept-Ranges, for a player or a download manager); anywhere else a 405 names what the path takes
    const asGet = method === 'HEAD' ? router.match('GET', parts) : undefined;
    const m = asGet?.kind === 'route' && asGet.route.op.responseKind === 'file' ? asGet : router.match(method, parts);
    const op = m.kind === 'route' ? m.route.op : undefined;
    // the routes anyone or any browser may call are limited per address before any key is looked up; a server
    // without keys listens on 127.0.0.1 only and is not limited
    const limited = op !== undefined && (op.public || neededScope(op) === 'publishable') && (await keyed());
    if (limited) limit(perIp, seen.ip, res);
    const caller: Caller = op?.public ? { principal: 'public' } : await authenticate(opts.keys, req, new Date());
    seen.principal = caller.principal;
    if (limited && caller.grant) limit(perKey, caller.grant.id, res);
    if (method === 'GET' && parts.length === 1 && parts[0] === 'openapi.json') {
      authorize(caller, { scope: 'publishable', method, origin }, new Date());
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
    seen.tenant = tenant;
    if (!route.op.public) {
      authorize(
        caller,
        {
          scope: neededScope(route.op),
          method: route.op.method,
          tenant: route.op.tenant === 'none' ? undefined : tenant,
          origin,
        },
        new Date(),
      );
      if (caller.grant) opts.keys?.touch?.(caller.grant);
    }
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
      body = text.trim() === '' ? {} : parseJson(text);
    }
    refuseOperatorFields(route.op, body);
    // a browser (a publishable key; on a server without keys, any page) records a choice now: an Origin says browser,
    // and a secret key with one was refused above
    if (origin !== undefined && route.op.serverDecides) body = decidedByServer(route.op.serverDecides, body, req);
    const raw: RawRequest = {
      tenant,
      actor: actorFrom(req),
      principal: caller.principal,
      origin: ownUrl(req),
      keyTenants: caller.grant?.tenants,
      params,
      query,
      body,
      stream,
    };
    const area = (opts.backend as unknown as Record<string, Record<string, (r: RawRequest) => Promise<unknown>>>)[
      route.area
    ]!;
    let result = await area[route.name]!(raw);
    // a browser's key reads published records only
    if (caller.grant?.scope === 'publishable' && route.op.publishedOnly) {
      result = route.op.publishedOnly(result as never);
      if (result === undefined) throw new DomainError('not_found', `${url.pathname} not found`);
    }
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
    if (route.op.responseKind === 'file') return sendFile(req, res, route.op.status, result as FilePayload);
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
    const status = route.op.statusOf?.(result as never) ?? route.op.status;
    send(res, status, result);
    return status;
  }

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    const seen: Seen = { id: requestId(header(req, 'x-request-id')), ip: clientIp(req) };
    res.setHeader('x-request-id', seen.id);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('vary', 'Origin');
    handle(req, res, seen)
      .catch((raw: unknown) => {
        // a body the handler stopped reading part way (an upload past its limit) is not read to its end, so the
        // connection ends with the answer: a client must not send its next request after it (a body never begun is
        // read and dropped by node:http, and its connection kept)
        if (req.destroyed && !req.complete && !res.headersSent) res.setHeader('connection', 'close');
        const e = opts.store ? opts.store.mapError(raw) : raw;
        if (e instanceof DomainError) {
          const status = e instanceof TransportError ? e.status : STATUS_BY_CODE[e.code];
          if (status >= 500) log(`error: ${e.message} (request ${seen.id})`);
          send(res, status, errorBody(e));
          return status;
        }
        log(`internal error on ${req.method} ${req.url} (request ${seen.id}): ${(e as Error)?.stack ?? String(e)}`);
        send(res, 500, { error: 'internal server error', code: 'internal', details: [] });
        return 500;
      })
      .then((status) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const path = logFormat === 'json' ? (req.url ?? '/').split('?')[0]! : (req.url ?? '/');
        log(
          logLine(logFormat, {
            time: new Date().toISOString(),
            request_id: seen.id,
            method: req.method ?? 'GET',
            path,
            status,
            duration_ms: Math.round(ms * 10) / 10,
            principal: seen.principal ?? null,
            tenant: seen.tenant ?? null,
            ip: seen.ip,
          }),
        );
      });
  });
  // bytes the HTTP parser refuses never reach `handle`: answer them with the same JSON error body, not a bare socket close
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const id = requestId(undefined);
    const text = JSON.stringify({
      error: `malformed HTTP request (${err.code ?? 'parse error'}): ${err.message}`,
      code: 'bad_request',
      details: [],
    });
    const record = { time: new Date().toISOString(), request_id: id, method: '-', path: '-', status: 400 };
    log(
      logFormat === 'json'
        ? JSON.stringify({ ...record, duration_ms: 0, principal: null, tenant: null, error: err.code ?? err.message })
        : `${record.time} ${id} malformed request refused by the HTTP parser: ${err.code ?? err.message} 400`,
    );
    const headers = Object.entries({
      ...JSON_HEADERS,
      'content-length': String(Buffer.byteLength(text)),
      'x-request-id': id,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      vary: 'Origin',
      connection: 'close',
    });
    // an answer to HEAD has no body: a client would read those bytes as the start of the next answer
    const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(
      `HTTP/1.1 400 Bad Request\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${head ? '' : text}`,
    );
  });
  // a bulk import streams for as long as its file lasts: no limit on receiving a whole body (headers keep theirs)
  server.requestTimeout = 0;
  return server;
}
