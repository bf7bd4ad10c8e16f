import { DomainError } from '../domain/errors.js';

/**
 * How deep a JSON request body (or an NDJSON line) may nest: arrays and objects inside one another. The deepest body
 * the API takes nests about 6 levels (a sync push of a DSFA with AI modules and their risks); 64 leaves room and keeps
 * every schema, hash and serialiser that walks a value recursively far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, counted in one pass without recursion, so a body of
 * 100,000 brackets is refused before a parser, a schema or a serialiser recurses into it. Brackets inside strings do
 * not count; the text need not be valid JSON (the parser judges that afterwards).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}

/**
 * A JSON request body as a value: malformed JSON, or JSON nested deeper than MAX_JSON_DEPTH, is a 400 (`bad_request`)
 * saying which. `what` names the text in the message (`JSON body`, `line 3`).
 */
export function parseJson(text: string, what = 'JSON body'): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw new DomainError(
      'bad_request',
      `${what} nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects inside one another): refused`,
    );
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new DomainError('bad_request', `malformed ${what}: ${(e as Error).message}`);
  }
}
