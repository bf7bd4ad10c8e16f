import { DomainError } from './errors.js';

/** Shortest id prefix that is looked up as a prefix; shorter inputs are taken as whole ids. */
export const MIN_ID_PREFIX = 8;
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = /^[0-9a-f-]+$/i;

/**
 * Resolves a unique id prefix (at least 8 characters) to the whole id, for any area: `candidates` returns up to
 * `limit` ids of the tenant that start with the prefix. An id that is whole, too short or matches nothing is returned
 * unchanged (so the caller answers "not found"); more than one match is a usage error listing them.
 */
export async function resolveIdPrefix(
  input: string,
  what: string,
  candidates: (prefix: string, limit: number) => Promise<string[]>,
): Promise<string> {
  if (FULL_ID.test(input) || input.length < MIN_ID_PREFIX || !PREFIX.test(input)) return input;
  const found = await candidates(input.toLowerCase(), 11);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) return input;
  const shown = found.slice(0, 10);
  throw new DomainError(
    'bad_request',
    `${what} id prefix ${input} is ambiguous: ${shown.join(', ')}${found.length > shown.length ? ', …' : ''}`,
    shown.map((id) => ({ path: 'id', message: `candidate ${id}` })),
  );
}
