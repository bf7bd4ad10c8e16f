import type * as z from 'zod';
import { DomainError, type ErrorCode, type ErrorDetail } from './errors.js';

const describe = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v)));

/** Turns zod issues into details that name the field and, for enumerations, list the allowed values. */
export const detailsFromZod = (error: z.ZodError, prefix = ''): ErrorDetail[] =>
  error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    let message = issue.message;
    const i = issue as unknown as {
      code: string;
      values?: unknown[];
      input?: unknown;
      expected?: string;
      keys?: string[];
      minimum?: number | bigint;
      maximum?: number | bigint;
      origin?: string;
      inclusive?: boolean;
    };
    if (i.code === 'invalid_value' && Array.isArray(i.values)) {
      const got = i.input === undefined ? '' : `${describe(i.input)} is not allowed; `;
      message = `${got}allowed values: ${i.values.map(String).join(', ')}`;
    } else if (i.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
      // zod's own wording; a schema's own message (which lists accepted spellings) stays
      message = i.input === undefined ? `required (${i.expected})` : `expected ${i.expected}, got ${describe(i.input)}`;
    } else if (
      (i.code === 'too_small' || i.code === 'too_big') &&
      i.origin === 'number' &&
      !issue.message.startsWith('must')
    ) {
      const bound = i.code === 'too_small' ? i.minimum : i.maximum;
      const word =
        i.code === 'too_small'
          ? i.inclusive === false
            ? 'greater than'
            : 'at least'
          : i.inclusive === false
            ? 'less than'
            : 'at most';
      message = `must be ${word} ${String(bound)}${i.input === undefined ? '' : `, got ${describe(i.input)}`}`;
    } else if (i.code === 'unrecognized_keys' && i.keys && !issue.message.startsWith('unknown field')) {
      // a schema's own message (which names the accepted fields) stays
      message = `unknown field(s): ${i.keys.join(', ')}`;
    }
    return { path, message };
  });

/** One line for one problem; a count when there are several (the details list them). */
export const summarize = (details: ErrorDetail[]): string =>
  details.length === 1
    ? `${details[0]!.path}: ${details[0]!.message}`
    : `${details.length} problems: ${details.map((d) => d.path).join(', ')}`;

/** Parses `value` with `schema` or throws a DomainError whose message names every failing field. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  opts: { what?: string; prefix?: string; code?: ErrorCode } = {},
): z.output<S> {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  const details = detailsFromZod(r.error, opts.prefix);
  throw new DomainError(opts.code ?? 'validation', `invalid ${opts.what ?? 'input'}: ${summarize(details)}`, details);
}

export const NUL_RULE = 'must not contain the NUL character (U+0000)';

/**
 * Where a value holds the NUL character, in strings or object keys however deep, as field paths (`title`,
 * `ai_use_case_modules.0.name`). No text the product stores may hold it: PostgreSQL cannot store it at all, so it is
 * refused where input arrives, alike on every engine and face.
 */
export function nulPaths(value: unknown, prefix = ''): string[] {
  const at = (k: string | number) => (prefix ? `${prefix}.${k}` : String(k));
  if (typeof value === 'string') return value.includes('\u0000') ? [prefix || '(value)'] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => nulPaths(v, at(i)));
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value))
    return Object.entries(value).flatMap(([k, v]) => [...(k.includes('\u0000') ? [at(k)] : []), ...nulPaths(v, at(k))]);
  return [];
}

/** The details of a value that holds NUL anywhere, one per place (empty when it holds none). */
export const nulDetails = (value: unknown): ErrorDetail[] =>
  nulPaths(value).map((path) => ({ path, message: NUL_RULE }));
