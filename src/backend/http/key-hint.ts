import { DomainError } from '../../domain/errors.js';

/** What the server answers for a key it does not know (wrong, or revoked): it says no more, so the hint does. */
const UNKNOWN_KEY = 'invalid API key';

/**
 * A 401 from the server, told in the CLI's terms: how to pass a key when none was sent; for a key the server does not
 * know, that it is wrong or revoked; otherwise the server's own reason (`API key cmp_… expired at …`) with what to do.
 * The server's message stays in the details.
 */
export function withKeyHint(e: DomainError, base: string, keySent: boolean): DomainError {
  const create = "an administrator creates keys with `compliance keys create` on the server's store";
  const message = !keySent
    ? `${base} needs an API key: pass one with --api-key KEY or the environment variable COMPLIANCE_API_KEY (an administrator creates one with \`compliance keys create\`)`
    : e.message === UNKNOWN_KEY
      ? `invalid API key for ${base} (wrong or revoked): check the key given with --api-key or COMPLIANCE_API_KEY; ${create}`
      : `${e.message} (${base}): use a new key with --api-key or COMPLIANCE_API_KEY; ${create}`;
  return new DomainError('unauthorized', message, [{ path: 'api_key', message: e.message }, ...e.details]);
}
