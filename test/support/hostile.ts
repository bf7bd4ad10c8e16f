import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { journalAfter } from './journal.js';

/** The answer of a raw request: its status and its body (JSON where it is). */
export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** A request to a server's /sdk/v1 as any client could send it: a key, a tenant, a body of any shape. */
export async function call(
  url: string,
  method: string,
  path: string,
  o: { key?: string; tenant?: string; body?: unknown; raw?: string | Buffer; type?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.tenant) headers['x-tenant-id'] = o.tenant;
  let body: string | Buffer | undefined;
  if (o.raw !== undefined) {
    body = o.raw;
    headers['content-type'] = o.type ?? 'application/octet-stream';
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${url}/sdk/v1${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text as it came
  }
  return { status: res.status, body: parsed, text };
}

/** A push of raw items (each as a client could write it) by store `replica`. */
export const push = (url: string, key: string, tenant: string, items: unknown[], replica = 'laptop-1') =>
  call(url, 'POST', '/sync/push', { key, tenant, body: { replica, items, dry_run: false } });

/** The folder a tenant's media live in: the first 16 hex digits of the SHA-256 of its id. */
export const mediaFolder = (tenant: string) => createHash('sha256').update(tenant).digest('hex').slice(0, 16);

/**
 * Everything a tenant holds, as one text to compare: every record of every table that travels, in key order, and
 * the hashes of its journal. Equal before and after an attempt: the attempt changed nothing.
 */
export async function tenantState(b: LocalBackend, tenant: string): Promise<string> {
  const { tables, journal } = await tenantRecords(b, tenant);
  return JSON.stringify({ tables, journal });
}

/** A tenant's records per table and the hashes of its journal. */
export async function tenantRecords(
  b: LocalBackend,
  tenant: string,
): Promise<{ tables: Record<string, unknown[]>; journal: string[] }> {
  const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
  const tables: Record<string, unknown[]> = {};
  await forTenant(tenant, async () => {
    for (const entity of uow.read.replica.entities) {
      const list: unknown[] = [];
      for await (const page of uow.read.replica.rows(tenant, entity)) list.push(...page);
      tables[entity] = list;
    }
  });
  const journal = (await journalAfter(b, tenant)).map((e) => e.hash);
  return { tables, journal };
}

/** The tenant's chain verified end to end, as `audit verify` does it. */
export async function expectIntact(b: LocalBackend, tenant: string): Promise<void> {
  const reports = await (await b.auditor()).verify(tenant);
  expect(reports.map((r) => ({ tenant: r.tenant, ok: r.ok, problem: r.problem }))).toEqual([
    { tenant, ok: true, problem: undefined },
  ]);
}

/** The row a record has on the server, as a push would send it. */
export async function heldRow(b: LocalBackend, tenant: string, entity: string, id: string) {
  const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
  return forTenant(tenant, () => uow.read.replica.read(tenant, entity, id));
}

/** The version of a row as sync names it (SHA-256 of its canonical JSON). */
export function versionOf(row: Record<string, unknown> | null): string | null {
  if (!row) return null;
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(row).sort()) sorted[k] = row[k] === undefined ? null : row[k];
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}
