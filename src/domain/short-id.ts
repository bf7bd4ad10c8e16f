import { DomainError } from './errors.js';

/**
 * Short ids. Ids are UUIDv7, whose first twelve hex digits are the time of creation: records made within a minute
 * share their first eight characters, those of one transaction even more. The end of an id is random, so commands
 * show its last 8 hex digits (`3f9a2c71`), as git shows the start of a hash, and take them back: wherever an id is
 * taken, its end of 8 characters or more, or its start of 8 or more (as before), stands for the whole id when one
 * record of the tenant has it.
 */
export const SHORT_ID_LENGTH = 8;
/** Shortest input looked up by its start or end; shorter inputs are taken as whole ids. */
export const MIN_ID_PART = 8;
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID_PART = /^[0-9a-f-]+$/i;

/** A webhook delivery's id (the `webhook-id` header): `msg_` and a UUID's 32 hex digits. */
const MESSAGE_ID = /^msg_[0-9a-f]{32}$/i;

/** The short form commands show of an id: its last 8 hex digits; an id that is no UUID (nor `msg_…`) stays as it is. */
export const shortId = (id: string): string =>
  FULL_ID.test(id) || MESSAGE_ID.test(id) ? id.slice(-SHORT_ID_LENGTH) : id;

/** A part of an id to look up: its start or its end, lower case. */
export type IdMatch = { prefix: string } | { suffix: string };

/** The records whose ids commands and routes take, with the word a message names each by. */
export const ID_KINDS = {
  dsfa: 'DSFA',
  /** An assessment, also one deleted: its audit trail outlives it (Art. 17). */
  dsfa_trail: 'DSFA',
  consent: 'consent',
  legal_document: 'legal document',
  legal_document_version: 'version',
  training_module: 'training module',
  training_assignment: 'assignment',
  training_certificate: 'certificate',
  training_content: 'content',
  training_media: 'media',
  training_block: 'training block',
  consent_import_run: 'import run',
  webhook_endpoint: 'webhook endpoint',
  /** `msg_…`: its end as any id's, its start as the hex digits after `msg_`. */
  webhook_delivery: 'webhook delivery',
} as const;
export type IdKind = keyof typeof ID_KINDS;

/** Looks up up to `limit` ids of one kind and tenant by their start or end (each lookup uses an index). */
export type IdFinder = (match: IdMatch, limit: number) => Promise<string[]>;

/**
 * Resolves an id, or the start or end of one (8 characters or more, any case), to the whole id, for any kind of
 * record: `find` returns the tenant's ids that start or end with it. A whole id, a shorter input, text that is not
 * hex, or a part that matches nothing is returned unchanged (so the caller answers "not found"); a part that fits
 * several records is a usage error listing them.
 */
export async function resolveId(input: string, what: string, find: IdFinder): Promise<string> {
  if (FULL_ID.test(input) || input.length < MIN_ID_PART || input.length > 36 || !ID_PART.test(input)) return input;
  const part = input.toLowerCase();
  const byStart = await find({ prefix: part }, 11);
  const byEnd = await find({ suffix: part }, 11);
  const found = [...new Set([...byStart, ...byEnd])].sort();
  if (found.length === 1) return found[0]!;
  if (found.length === 0) return input;
  const shown = found.slice(0, 10);
  throw new DomainError(
    'bad_request',
    `${what} id ${input} is ambiguous: it fits ${shown.join(', ')}${found.length > shown.length ? ', …' : ''}; give more of it`,
    shown.map((id) => ({ path: 'id', message: `candidate ${id}` })),
  );
}
