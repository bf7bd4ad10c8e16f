import * as z from 'zod';
import type { ErrorCode } from '../domain/errors.js';
import type { IdKind } from '../domain/short-id.js';
import type { KeyScope } from '../domain/api-keys/api-key.rules.js';
import type { ByteRange } from '../domain/byte-range.js';

export type { ByteRange };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where an operation reads its tenant from: DSFA takes the `tenant_id` query parameter (falling back to the
 * X-Tenant-ID header, default `default`); every other area requires the X-Tenant-ID header. `none`: the operation
 * is the store's, not a tenant's (API keys); it runs with the empty tenant id of the store's own journal chain.
 */
export type TenantPlacement = 'query' | 'header' | 'signed' | 'none';

export type { KeyScope };

/** One row of the /sdk/v1 contract: everything the server, the HTTP client and the OpenAPI generator need. */
export interface Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Relative to /sdk/v1, with `{name}` path parameters. */
  path: string;
  summary: string;
  tenant: TenantPlacement;
  params?: P;
  query?: Q;
  body?: B;
  output: O;
  /** Success status. */
  status: 200 | 201;
  /**
   * The success status of a given output, where it depends on what the operation did (a POST that found its
   * decision recorded already creates nothing: 200). Both statuses are in the OpenAPI document.
   */
  statusOf?: (output: never) => 200 | 201;
  /**
   * `json` (default): the body is JSON, validated with `body`. `stream`: the raw body is handed to the handler as a
   * stream with its content type (bulk import of CSV or NDJSON); `body` is then not used.
   */
  requestKind?: 'json' | 'stream';
  /**
   * `json` (default). `binary`: the output is a BinaryPayload sent as raw bytes (a PDF, an audio file).
   * `redirect`: the output is `{ location }` and the server answers 307 with a Location header.
   * `stream`: the output is a StreamBody sent as it is produced (exports of millions of rows).
   * `file`: the output is a FilePayload, a stored file of known size sent a piece at a time, whole or the byte range a
   * `Range` header asks for (206; 416 for a range that starts past its end), as a video player seeks in it.
   */
  responseKind?: 'json' | 'binary' | 'redirect' | 'stream' | 'file';
  /** The least key scope the operation needs; default `read` for GET, `write` otherwise. */
  scope?: KeyScope;
  /**
   * What a publishable key (a browser) sees of the output of a `scope: 'publishable'` read that secret keys share:
   * published records only. `undefined` answers 404, as for an id that does not exist.
   */
  publishedOnly?: (output: never) => unknown;
  /** No API key: the request carries its own proof (a signed URL with the tenant in its `tenant` parameter). */
  public?: boolean;
  /**
   * Body fields only the operator of the store decides, such as whether a webhook may reach private addresses: the
   * command line on the store sets them, while through the API a request that sets one (to anything but false) is a
   * 403 naming it, unless `serve` was started allowing it (ApiServerOptions.operatorFields). Each field names the
   * `serve` flag that allows it.
   */
  operatorFields?: Readonly<Record<string, string>>;
  /**
   * For a browser's request (a publishable key; on a server without keys, any request with an Origin header): the
   * body fields the server decides itself, because a page could claim anything there (when, by which channel, from
   * which address). A request that sends one is a 422 naming it, and the server records `values` in their place,
   * from what it sees of the request.
   */
  serverDecides?: {
    fields: readonly string[];
    values: (seen: { userAgent?: string }) => Record<string, unknown>;
  };
  /**
   * Domain errors the handler raises beyond those the operation's shape implies (`errorCodesOf` adds those: a
   * parameter that names no record, a body that fails validation, ...): `not_found` for an id inside the body,
   * `conflict` for a refused transition. The OpenAPI document lists exactly these statuses.
   */
  raises?: readonly ErrorCode[];
  /**
   * The path parameters, query parameters and body fields that hold an id, and of which record: the local backend
   * resolves a short id given there (the id's end or start, domain/short-id.ts) to the whole id, tenant-scoped, before
   * the handler runs, so every face takes the same short ids.
   */
  ids?: Partial<Record<'params' | 'query' | 'body', Record<string, IdKind>>>;
  /** Media types of a `stream` request body, or of a `binary`, `stream` or `file` response. */
  requestTypes?: readonly string[];
  responseTypes?: readonly string[];
}

/** Bytes with their media type, for operations whose response is a file. */
export interface BinaryPayload {
  content_type: string;
  filename?: string;
  data: Uint8Array;
}

/**
 * A stored file (responseKind `file`): its size is known before its first byte is read, and it is read as it is
 * sent, whole or a range of it, so no face holds a large file in memory.
 */
export interface FilePayload {
  content_type: string;
  filename?: string;
  /** The whole file's size in bytes. */
  size: number;
  /** Names this file's bytes (they never change under its id): a `Range` with an `If-Range` of another is sent whole. */
  etag: string;
  /** The file's bytes, or those of `range`; each call reads them anew. */
  open(range?: ByteRange): Promise<AsyncIterable<Uint8Array>>;
}

/** A request body handed over as a stream (responseKind `stream`). */
export interface StreamBody {
  body: AsyncIterable<Uint8Array | string>;
  content_type: string;
  /**
   * Aborted when the sender stops (Ctrl-C in the CLI, a client that went away from the server): the operation stops
   * after the work in hand and fails with the signal's reason; the HTTP client cancels the request with it.
   */
  signal?: AbortSignal;
}

/**
 * The body of a POST that takes none (an action on the record its path names): every such POST declares this one
 * schema, so each reads its body as every JSON operation does (absent or empty is `{}`, fields are ignored, a body
 * that is not JSON is a 400, `null` or `[]` a 422) and the document shows the same optional, empty object for all.
 */
export const NoBody = z.object({});

export const op = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, O extends z.ZodType>(
  o: Operation<P, Q, B, O>,
): Operation<P, Q, B, O> => o;

export type Contract = Record<string, Operation>;

/** The request as a caller hands it over, before validation: query values may still be text. */
export interface RawRequest {
  tenant: string;
  actor?: string;
  /**
   * What made the request, recorded in the journal beside the actor: `key:PREFIX` for an API key (set by the
   * server), `os:NAME` for the operating-system user of a local command (the local backend's default).
   */
  principal?: string;
  /** The /sdk/v1 URL of the server as the client reached it (set by the server; absent in-process). */
  origin?: string;
  /** The tenants the calling API key opens (set by the server); absent or null: every tenant. */
  keyTenants?: string[] | null;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  stream?: StreamBody;
}

type Out<S> = [NonNullable<S>] extends [z.ZodType] ? z.output<NonNullable<S>> : undefined;

/** The request after validation, as a handler receives it. */
export interface Req<O extends Operation> {
  tenant: string;
  actor?: string;
  /** What made the request (RawRequest.principal); the local backend fills in its own when the caller gave none. */
  principal?: string;
  origin?: string;
  keyTenants?: string[] | null;
  params: Out<O['params']>;
  query: Out<O['query']>;
  body: Out<O['body']>;
  stream?: StreamBody;
}

export type Result<O extends Operation> = z.output<O['output']>;

/** What a backend offers for one area: each operation takes a raw request and resolves to its typed output. */
export type Client<C extends Contract> = { [K in keyof C]: (req: RawRequest) => Promise<Result<C[K]>> };

/** Resolves what a caller gave for an id of `kind` (a whole id or a short one) to the whole id, for one tenant. */
export type IdResolver = (kind: IdKind, tenant: string, given: string) => Promise<string>;

/** What the local backend implements for one area: each operation receives a validated request. */
export type Handlers<C extends Contract> = { [K in keyof C]: (req: Req<C[K]>) => Promise<Result<C[K]>> };

export const SDK_PREFIX = '/sdk/v1';
