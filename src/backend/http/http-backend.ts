import type { Contracts } from '../../contract/index.js';
import { contractLoaders } from '../../contract/loaders.js';
import { errorFromResponse } from '../../contract/errors.js';
import { Readable } from 'node:stream';
import {
  SDK_PREFIX,
  type ByteRange,
  type Client,
  type Contract,
  type FilePayload,
  type Operation,
  type RawRequest,
} from '../../contract/operation.js';
import { DomainError } from '../../domain/errors.js';
import { withKeyHint } from './key-hint.js';
import { detailsFromZod } from '../../domain/validation.js';
import type { Backend } from '../backend.js';
import { failureOf, nodeTransport, type Answer, type Transport } from './transport.js';

export interface HttpOptions {
  /** Server root (`http://host:port`) or the API base (`http://host:port/sdk/v1`). */
  url: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Send the requests through this transport instead of a new one over `node:http` (the contract tests hand in one
   * that checks every answer against the OpenAPI document). */
  transport?: Transport;
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
  const failure = failureOf(e);
  const why =
    failure === 'refused'
      ? 'connection refused (is `compliance serve` running there?)'
      : failure === 'not-found'
        ? 'host not found'
        : failure === 'timeout'
          ? 'no answer before the timeout'
          : failure === 'tls'
            ? 'the TLS handshake failed (does the server speak https on that port?)'
            : failure;
  return new DomainError('unavailable', `cannot reach remote server ${base}: ${why}`);
}

/** One area of the API over HTTP, generated from its contract: same inputs, same outputs, same errors. */
export function httpClient<C extends Contract>(
  contract: C,
  base: string,
  opts: HttpOptions,
  transport: Transport = opts.transport ?? nodeTransport(),
): Client<C> {
  const client: Record<string, (raw: RawRequest) => Promise<unknown>> = {};
  for (const [name, o] of Object.entries(contract)) {
    /** One request; `part` asks a `file` operation for a byte range of the file its first answer named. */
    const call = async (raw: RawRequest, part?: { range: ByteRange; etag: string }): Promise<unknown> => {
      const url = new URL(base + buildPath(o, raw.params));
      for (const [k, v] of Object.entries(raw.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { accept: 'application/json' };
      if (o.tenant === 'query') url.searchParams.set('tenant_id', raw.tenant);
      else if (o.tenant === 'signed') url.searchParams.set('tenant', raw.tenant);
      else if (o.tenant === 'header') headers['x-tenant-id'] = raw.tenant;
      if (raw.actor) headers['x-user-id'] = raw.actor;
      if (opts.apiKey) headers['authorization'] = `Bearer ${opts.apiKey}`;
      // a file's size is what its download is checked against: no proxy may compress it on the way
      if (o.responseKind === 'file') headers['accept-encoding'] = 'identity';
      if (part) {
        headers['range'] = `bytes=${part.range.start}-${part.range.end}`;
        headers['if-range'] = part.etag;
      }
      let body: string | AsyncIterable<Uint8Array | string> | undefined;
      if (o.requestKind === 'stream') {
        if (!raw.stream) throw new DomainError('bad_request', 'this operation needs a request body');
        headers['content-type'] = raw.stream.content_type;
        body = raw.stream.body;
      } else if (o.body) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(raw.body === undefined ? {} : raw.body);
      }
      // bulk uploads and downloads may take long; everything else gets the normal timeout
      const long = o.requestKind === 'stream' || o.responseKind === 'stream' || o.responseKind === 'file';
      const timeout = long ? 24 * 3600_000 : (opts.timeoutMs ?? 30_000);
      const stop = raw.stream?.signal;
      const signal = stop ? AbortSignal.any([AbortSignal.timeout(timeout), stop]) : AbortSignal.timeout(timeout);
      // stopped by the caller (Ctrl-C): its reason, not a network failure
      const failed = (e: unknown) => (stop?.aborted ? stop.reason : describeNetworkError(base, e));
      let res: Answer;
      try {
        res = await transport.send(url, { method: o.method, headers, body, signal });
      } catch (e) {
        throw failed(e);
      }
      const ok = res.status >= 200 && res.status < 300;
      if (ok && o.responseKind === 'binary') {
        const data = await res.bytes().catch((e: unknown) => Promise.reject(failed(e)));
        const cd = res.header('content-disposition') ?? '';
        const filename = /filename="([^"]*)"/.exec(cd)?.[1];
        return {
          content_type: res.header('content-type') ?? 'application/octet-stream',
          data,
          ...(filename ? { filename } : {}),
        };
      }
      if (ok && o.responseKind === 'file') {
        if (part && res.status !== 206)
          throw new DomainError(
            'unavailable',
            `the file at ${url.pathname} changed since its first answer: fetch it again`,
          );
        if (part) return res.stream();
        // the size is what a download is checked against: an answer without it did not come from this server whole
        if (!/^\d+$/.test(res.header('content-length') ?? '') || res.header('content-encoding'))
          throw new DomainError(
            'internal',
            `the server at ${base} answered ${o.method} ${o.path} without the file's size (Content-Length), or compressed: is a proxy in between changing it?`,
          );
        return fileAnswer(res, (range, etag) => call(raw, { range, etag }) as Promise<Readable>);
      }
      if (ok && o.responseKind === 'stream') {
        return { content_type: res.header('content-type') ?? 'application/octet-stream', body: res.stream() };
      }
      if (res.status === 307 && o.responseKind === 'redirect') {
        const location = res.header('location') ?? '';
        return { location: new URL(location, url).toString() };
      }
      const text = await res.text().catch((e: unknown) => Promise.reject(failed(e)));
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.status === 401) throw withKeyHint(errorFromResponse(res.status, json), base, Boolean(opts.apiKey));
      if (!ok) throw errorFromResponse(res.status, json);
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
    client[name] = (raw: RawRequest) => call(raw);
  }
  return client as Client<C>;
}

/**
 * A `file` answer as the FilePayload the local backend hands over: its body is read by the first `open()` without a
 * range; a range (or a second reading) is a request of its own for the same file (If-Range: its ETag).
 */
function fileAnswer(res: Answer, again: (range: ByteRange, etag: string) => Promise<Readable>): FilePayload {
  let body: Readable | undefined = res.stream();
  // a connection cut before the body is read fails its reading (the stream keeps the error), not the process
  body.on('error', () => undefined);
  const size = Number(res.header('content-length'));
  const etag = res.header('etag') ?? '';
  const filename = /filename="([^"]*)"/.exec(res.header('content-disposition') ?? '')?.[1];
  return {
    content_type: res.header('content-type') ?? 'application/octet-stream',
    ...(filename ? { filename } : {}),
    size,
    etag,
    open: async (range) => {
      const first = body;
      body = undefined;
      if (first && !range) return first;
      first?.destroy();
      // an empty file has no range to ask for
      if (size === 0) return Readable.from([]);
      return again(range ?? { start: 0, end: size - 1 }, etag);
    },
  };
}

/**
 * An area whose contract (and the schemas it holds) loads on its first call, so a command that uses one area does
 * not build the schemas of all of them at start-up.
 */
function lazy<C extends Contract>(load: () => Promise<C>, base: string, opts: HttpOptions, t: Transport): Client<C> {
  let client: Promise<Client<C>> | undefined;
  return new Proxy({} as Client<C>, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined; // never look like a promise
      return async (raw: RawRequest) => {
        client ??= load().then((contract) => httpClient(contract, base, opts, t));
        const fn = (await client)[name];
        if (!fn) throw new TypeError(`no operation ${name}`);
        return fn(raw);
      };
    },
  });
}

export function createHttpBackend(opts: HttpOptions): Backend {
  const base = apiBase(opts.url);
  const transport = opts.transport ?? nodeTransport();
  const make = <K extends keyof Contracts>(k: K) => lazy(contractLoaders[k], base, opts, transport);
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
    tenants: make('tenants'),
    bundles: make('bundles'),
    close: async () => transport.close(),
  };
}
