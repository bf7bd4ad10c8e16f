import { DomainError, type ErrorCode, type ErrorDetail } from '../domain/errors.js';
import type { Operation } from './operation.js';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation: 422,
  bad_request: 400,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  conflict: 409,
  unavailable: 503,
  storage: 500,
  internal: 500,
};

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'bad_request',
  409: 'conflict',
  413: 'bad_request',
  415: 'bad_request',
  416: 'bad_request',
  422: 'validation',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The JSON error body of every non-2xx response (decisions.md). */
export interface ErrorBody {
  error: string;
  code: string;
  details: ErrorDetail[];
}

export const errorBody = (e: DomainError): ErrorBody => ({ error: e.message, code: e.code, details: e.details });

/** Turns an error response back into the DomainError the server raised, so clients fail exactly like the local store. */
export function errorFromResponse(status: number, body: unknown): DomainError {
  const b = (body ?? {}) as Partial<ErrorBody>;
  const code = (
    typeof b.code === 'string' && b.code in STATUS_BY_CODE ? b.code : (CODE_BY_STATUS[status] ?? 'internal')
  ) as ErrorCode;
  const message = typeof b.error === 'string' ? b.error : `HTTP ${status}`;
  const details = Array.isArray(b.details) ? (b.details as ErrorDetail[]) : [];
  return new DomainError(code, message, details);
}

/**
 * Every domain error an operation can raise, derived from its shape plus what it declares in `raises`, so the
 * OpenAPI document and the server cannot disagree: any request can be malformed (a bad tenant, broken JSON) and
 * meet a store that is down; an API key is needed unless the URL is signed; parameters and bodies are validated.
 */
export function errorCodesOf(o: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['bad_request', 'unavailable']);
  // a key can be missing or wrong, expired (401), or used beyond its scope, tenants or origins (403)
  if (!o.public) codes.add('unauthorized').add('forbidden');
  if (o.tenant === 'signed') codes.add('forbidden');
  // the routes a browser or anyone may call are rate-limited per key and per address
  if (o.public || o.scope === 'publishable') codes.add('rate_limited');
  if (o.params) codes.add('not_found');
  if (o.body || o.query || o.requestKind === 'stream') codes.add('validation');
  for (const c of o.raises ?? []) codes.add(c);
  return [...codes];
}

/**
 * Statuses the HTTP exchange itself adds: a method the path does not have, a JSON body over the size limit, a byte
 * range past a file's end.
 */
export function transportStatusesOf(o: Operation): number[] {
  const statuses = o.body && o.requestKind !== 'stream' ? [405, 413] : [405];
  return o.responseKind === 'file' ? [...statuses, 416] : statuses;
}

/** Every error status an operation can answer, ascending. */
export const errorStatusesOf = (o: Operation): number[] =>
  [...new Set([...errorCodesOf(o).map((c) => STATUS_BY_CODE[c]), ...transportStatusesOf(o)])].sort((a, b) => a - b);
