import { nodeCrypto } from '../node-crypto.js';

/** A row as a sync compares it: its columns as stored (lists and objects as JSON text, booleans as integers). */
export type SyncRow = Record<string, unknown>;

/** The JSON text of a row with its columns in name order, so two stores that list them differently agree. */
export function canonicalJson(row: SyncRow): string {
  const sorted: SyncRow = {};
  for (const k of Object.keys(row).sort()) sorted[k] = row[k] === undefined ? null : row[k];
  return JSON.stringify(sorted);
}

/**
 * The version of a record as both sides of a sync name it: the SHA-256 of its canonical JSON, or null when the
 * record does not exist (never created, or deleted). Two stores holding the same row hold the same version.
 */
export const versionOf = (row: SyncRow | null | undefined): string | null =>
  row ? nodeCrypto().hash('sha256', canonicalJson(row), 'hex') : null;

/** The columns whose values differ between two versions of a record (every column of the one that exists). */
export function differingFields(a: SyncRow | null, b: SyncRow | null): string[] {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...keys].filter((k) => JSON.stringify(a?.[k] ?? null) !== JSON.stringify(b?.[k] ?? null)).sort();
}

/** Whether two states of a record are one version (null: absent), without hashing either. */
export function sameRow(a: SyncRow | null, b: SyncRow | null): boolean {
  if (a === null || b === null) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
