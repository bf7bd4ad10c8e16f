import type { ErrorCode } from '../domain/errors.js';

/** Exit codes, documented in docs/cli.md: 0 ok · 1 unexpected or unavailable · 2 usage/validation · 3 not found · 4 unauthorized · 5 conflict · 6 check found problems · 130 Ctrl-C in a prompt. */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notFound: 3,
  unauthorized: 4,
  conflict: 5,
  checkFailed: 6,
  interrupted: 130,
} as const;

export const EXIT_BY_CODE: Record<ErrorCode, number> = {
  validation: EXIT.usage,
  bad_request: EXIT.usage,
  not_found: EXIT.notFound,
  unauthorized: EXIT.unauthorized,
  forbidden: EXIT.unauthorized,
  rate_limited: EXIT.unexpected,
  conflict: EXIT.conflict,
  unavailable: EXIT.unexpected,
  storage: EXIT.unexpected,
  internal: EXIT.unexpected,
};
