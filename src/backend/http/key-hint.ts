import { DomainError } from '../../domain/errors.js';

/**
 * A 401 from the server, told in the CLI's terms: how to pass a key when none was sent, and that the one sent was
 * refused otherwise. The server's own message stays in the details.
 */
export function withKeyHint(e: DomainError, base: string, keySent: boolean): DomainError {
  const message = keySent
    ? `invalid API key for ${base} (wrong or revoked): check the key given with --api-key or COMPLIANCE_API_KEY; an administrator creates keys with \`compliance keys create\` on the server's store`
    : `${base} needs an API key: pass one with --api-key KEY or the environment variable COMPLIANCE_API_KEY (an administrator creates one with \`compliance keys create\`)`;
  return new DomainError('unauthorized', message, [{ path: 'api_key', message: e.message }, ...e.details]);
}
