import { DomainError, type ErrorCode, type ErrorDetail } from '../domain/errors.js';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation: 422,
  bad_request: 400,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
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
  422: 'validation',
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
