/** Machine codes of every error the domain can raise; HTTP statuses and exit codes are derived from them. */
export type ErrorCode =
  | 'validation' // a value fails its schema (422 / exit 2)
  | 'bad_request' // malformed JSON, missing header, unparseable query (400 / exit 2)
  | 'not_found' // unknown id, or an id of another tenant (404 / exit 3)
  | 'unauthorized' // missing or wrong API key (401 / exit 4)
  | 'forbidden' // an API key used beyond its scope, tenants or origins; a bad or expired signed URL (403 / exit 4)
  | 'rate_limited' // too many requests from one key or address on the public routes (429 with Retry-After / exit 1)
  | 'conflict' // state conflict or refused transition (409 / exit 5)
  | 'unavailable' // an external service (remote server, LLM, speech tool) cannot be reached (503 / exit 1)
  | 'storage' // the database file cannot be used (500 / exit 1)
  | 'internal'; // a bug (500 / exit 1)

/** One problem with one field: `path` names the field, `message` says what is wrong and what is allowed. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The only error type that crosses layers: services throw it, the server and the CLI translate it. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  constructor(code: ErrorCode, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}

export const notFound = (what: string, id: string): DomainError =>
  new DomainError('not_found', `${what} ${id} not found`);

export const conflict = (message: string, details: ErrorDetail[] = []): DomainError =>
  new DomainError('conflict', message, details);

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
