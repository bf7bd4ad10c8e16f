import { Readable } from 'node:stream';
import { contracts, type Contracts } from '../../contract/index.js';
import { errorFromResponse } from '../../contract/errors.js';
import { SDK_PREFIX, type Client, type Contract, type Operation, type RawRequest } from '../../contract/operation.js';
import { DomainError } from '../../domain/errors.js';
import { withKeyHint } from './key-hint.js';
import { detailsFromZod } from '../../domain/validation.js';
import type { Backend } from '../backend.js';

export interface HttpOptions {
  /** Server root (`http://host:port`) or the API base (`http://host:port/sdk/v1`). */
  url: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Normalises a --remote value to the /sdk/v1 base URL, or says clearly what is wrong with it. */
export function apiBase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DomainError('bad_request', `--remote ${url} is not a URL (expected for example http://127.0.0.1:8765)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new DomainError('bad_request', `--remote ${url} must use http or https`);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${path.endsWith(SDK_PREFIX) ? path : path + SDK_PREFIX}`;
}

export function buildPath(o: Operation, params: Record<string, string> = {}): string {
  return o.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new DomainError('bad_request', `missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}

function describeNetworkError(base: string, e: unknown): DomainError {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (e as { name?: string }).name;
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused (is `compliance serve` running there?)'
      : code === 'ENOTFOUND'
        ? 'host not found'
        : code === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT'
          ? 'no answer before the timeout'
          : (cause?.message ?? (e as Error).message);
  return new DomainError('unavailable', `cannot reach remote server ${base}: ${why}`);
}

/** One area of the API over fetch, generated from its contract: same inputs, same outputs, same errors. */
export function httpClient<C extends Contract>(contract: C, base: string, opts: HttpOptions): Client<C> {
  const doFetch = opts.fetch ?? fetch;
  const client: Record<string, (raw: RawRequest) => Promise<unknown>> = {};
  for (const [name, o] of Object.entries(contract)) {
    client[name] = async (raw: RawRequest) => {
      const url = new URL(base + buildPath(o, raw.params));
      for (const [k, v] of Object.entries(raw.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { accept: 'application/json' };
      if (o.tenant === 'query') url.searchParams.set('tenant_id', raw.tenant);
      else if (o.tenant === 'signed') url.searchParams.set('tenant', raw.tenant);
      else if (o.tenant === 'header') headers['x-tenant-id'] = raw.tenant;
      if (raw.actor) headers['x-user-id'] = raw.actor;
      if (opts.apiKey) headers['authorization'] = `Bearer ${opts.apiKey}`;
      let body: RequestInit['body'];
      const init: RequestInit & { duplex?: 'half' } = { method: o.method, headers, redirect: 'manual' };
      if (o.requestKind === 'stream') {
        if (!raw.stream) throw new DomainError('bad_request', 'this operation needs a request body');
        headers['content-type'] = raw.stream.content_type;
        body = Readable.toWeb(Readable.from(raw.stream.body)) as unknown as RequestInit['body'];
        init.duplex = 'half';
      } else if (o.body) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(raw.body === undefined ? {} : raw.body);
      }
      // bulk uploads may take long; everything else gets the normal timeout
      const timeout =
        o.requestKind === 'stream' || o.responseKind === 'stream' ? 24 * 3600_000 : (opts.timeoutMs ?? 30_000);
      let res: Response;
      const stop = raw.stream?.signal;
      try {
        const timer = AbortSignal.timeout(timeout);
        res = await doFetch(url, { ...init, body, signal: stop ? AbortSignal.any([timer, stop]) : timer });
      } catch (e) {
        // stopped by the caller (Ctrl-C): its reason, not a network failure
        if (stop?.aborted) throw stop.reason;
        throw describeNetworkError(base, e);
      }
      if (res.ok && o.responseKind === 'binary') {
        const data = new Uint8Array(await res.arrayBuffer());
        const cd = res.headers.get('content-disposition') ?? '';
        const filename = /filename="([^"]*)"/.exec(cd)?.[1];
        return {
          content_type: res.headers.get('content-type') ?? 'application/octet-stream',
          data,
          ...(filename ? { filename } : {}),
        };
      }
      if (res.ok && o.responseKind === 'stream' && res.body) {
        return {
          content_type: res.headers.get('content-type') ?? 'application/octet-stream',
          body: Readable.fromWeb(res.body as never),
        };
      }
      if (res.status === 307 && o.responseKind === 'redirect') {
        const location = res.headers.get('location') ?? '';
        return { location: new URL(location, url).toString() };
      }
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.status === 401) throw withKeyHint(errorFromResponse(res.status, json), base, Boolean(opts.apiKey));
      if (!res.ok) throw errorFromResponse(res.status, json);
      const parsed = o.output.safeParse(json);
      if (!parsed.success) {
        throw new DomainError(
          'internal',
          `the server at ${base} answered ${o.method} ${o.path} with an unexpected body (is it a compliance server of the same version?)`,
          detailsFromZod(parsed.error),
        );
      }
      return parsed.data;
    };
  }
  return client as Client<C>;
}

export function createHttpBackend(opts: HttpOptions): Backend {
  const base = apiBase(opts.url);
  const make = <K extends keyof Contracts>(k: K) => httpClient(contracts[k], base, opts);
  return {
    location: base,
    dsfa: make('dsfa'),
    consents: make('consents'),
    legalDocuments: make('legalDocuments'),
    cookieBanner: make('cookieBanner'),
    training: make('training'),
    trainingContent: make('trainingContent'),
    trainingMedia: make('trainingMedia'),
    canonical: make('canonical'),
    trainingBlocks: make('trainingBlocks'),
    journal: make('journal'),
    apiKeys: make('apiKeys'),
    reports: make('reports'),
    webhooks: make('webhooks'),
    notifications: make('notifications'),
    sync: make('sync'),
    close: async () => undefined,
  };
}
