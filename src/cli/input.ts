import { readFile } from 'node:fs/promises';
import type { ReportLanguage } from '../domain/report-locale.js';
import { DomainError } from '../domain/errors.js';
import type { CliContext } from './context.js';

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a text file, or stdin for `-`, with a clear error when it cannot. */
export async function readText(ctx: CliContext, file: string): Promise<string> {
  if (file === '-') return readStream(ctx.io.stdin);
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw new DomainError('bad_request', `cannot read ${file}: ${why}`);
  }
}

/** Reads a JSON document from a file or stdin (`-`). */
export async function readJson(ctx: CliContext, file: string): Promise<unknown> {
  const text = await readText(ctx, file);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new DomainError('bad_request', `${file === '-' ? 'stdin' : file}: malformed JSON: ${(e as Error).message}`);
  }
}

/** Splits repeated or comma-separated flag values: `--measure a --measure b,c` gives [a, b, c]. */
export const listFlag = (values: string[] | undefined): string[] | undefined =>
  values
    ?.flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Drops undefined values, so only the flags a person gave end up in a request body. */
export const defined = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The language of texts a command writes for people (a screening, a certificate): `--lang`, else COMPLIANCE_LANG,
 * else German.
 */
export const textLanguage = (ctx: CliContext, flag: ReportLanguage | undefined): ReportLanguage =>
  flag ?? ctx.config().lang ?? 'de';

/** A commander parser for a flag that takes a whole number from `min` to `max` (exit 2 naming the flag otherwise). */
export const wholeNumber =
  (flag: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new DomainError('bad_request', `${flag} must be a whole number ${range}, not "${v}"`, [
        { path: flag, message: max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `${min} to ${max}` },
      ]);
    }
    return Number(v);
  };
