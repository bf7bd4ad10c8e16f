import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and no whitespace: the same value gives the same text whatever order
 * its keys were built or stored in, so a hash or a signature over it can be recomputed anywhere.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 of a text's UTF-8 bytes, hexadecimal. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
