import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { newConsent } from '../../domain/consents/consent.service.js';
import {
  CONSENT_FIELDS, ConsentInput, REQUIRED_IMPORT_FIELDS, type ImportOptions, type ImportSummary,
} from '../../domain/consents/consent.schema.js';
import { DomainError } from '../../domain/errors.js';
import { detailsFromZod } from '../../domain/validation.js';
import type { StreamBody } from '../../contract/operation.js';
import { storageError } from './database.js';

const BATCH = 50_000;
const MAX_LISTED = 10_000;

/** Decodes UTF-8 across chunk boundaries; invalid bytes become U+FFFD, which refuses that row only. */
async function* decode(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** `a:b,c:d` → {a: 'b', c: 'd'}; fields must be consent fields. */
export function parseMap(map: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!map) return out;
  for (const pair of map.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [col, field] = pair.split(/[:=]/).map((s) => s?.trim());
    if (!col || !field || !(CONSENT_FIELDS as readonly string[]).includes(field))
      throw new DomainError('validation', `invalid map entry "${pair}": expected column=field with field one of ${CONSENT_FIELDS.join(', ')}`, [{ path: 'map', message: `allowed fields: ${CONSENT_FIELDS.join(', ')}` }]);
    out.set(col.toLowerCase(), field);
  }
  return out;
}

interface Sink {
  row(line: number, record: Record<string, unknown>): void;
  reject(line: number, reason: string): void;
}

async function readCsv(text: AsyncIterable<string>, opts: ImportOptions, map: Map<string, string>, sink: Sink): Promise<void> {
  const { default: Papa } = await import('papaparse');
  let fields: Array<string | undefined> | undefined;
  let line = 1;
  let failure: unknown;
  await new Promise<void>((resolve, reject) => {
    Papa.parse(Readable.from(text), {
      header: false,
      delimiter: opts.delimiter ?? '',
      skipEmptyLines: false,
      step: (r: { data: string[]; errors: Array<{ message: string }> }, parser: { abort(): void }) => {
        const row = r.data;
        const here = line;
        for (const v of row) for (let i = v.indexOf('\n'); i !== -1; i = v.indexOf('\n', i + 1)) line++;
        line++;
        if (failure) return;
        try {
          if (!fields) {
            const names = row.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim().toLowerCase());
            fields = names.map((h) => map.get(h) ?? ((CONSENT_FIELDS as readonly string[]).includes(h) ? h : undefined));
            const missing = REQUIRED_IMPORT_FIELDS.filter((f) => !fields!.includes(f));
            if (missing.length) {
              const hint = names.length === 1 && /[;,\t|]/.test(names[0]!) ? ' (is the delimiter right? see --delimiter)' : '';
              throw new DomainError('bad_request', `missing required column(s) ${missing.join(', ')} in the header row; found: ${names.join(', ')}${hint}; map other names with --map column=field`, missing.map((m) => ({ path: m, message: 'required column' })));
            }
            return;
          }
          if (row.length === 1 && row[0] === '') return; // blank line
          if (r.errors.length) return sink.reject(here, `malformed CSV: ${r.errors.map((e) => e.message).join('; ')}`);
          if (row.length !== fields.length) return sink.reject(here, `expected ${fields.length} fields, found ${row.length}`);
          const record: Record<string, unknown> = {};
          for (let i = 0; i < fields.length; i++) {
            const f = fields[i];
            if (f) record[f] = row[i];
          }
          sink.row(here, record);
        } catch (e) {
          failure = e;
          parser.abort();
        }
      },
      complete: () => resolve(),
      error: (e: Error) => reject(e),
    } as never);
  });
  if (failure) throw failure;
  if (!fields) throw new DomainError('bad_request', 'the file is empty: expected a header row with user_id, data_point_id, granted');
}

async function readNdjson(text: AsyncIterable<string>, map: Map<string, string>, sink: Sink): Promise<void> {
  let buf = '';
  let line = 0;
  const handle = (raw: string) => {
    line++;
    const t = raw.trim();
    if (!t) return;
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch (e) {
      return sink.reject(line, `malformed JSON: ${(e as Error).message}`);
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return sink.reject(line, 'expected a JSON object');
    const record: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) record[map.get(k.toLowerCase()) ?? k] = v;
    sink.row(line, record);
  };
  for await (const chunk of text) {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      handle(buf.slice(0, nl).replace(/^\uFEFF/, ''));
      buf = buf.slice(nl + 1);
    }
  }
  if (buf) handle(buf);
}

/**
 * Bulk import of consents from CSV or NDJSON. Streams, validates every row with the API's schema, skips rows equal to
 * a stored consent (so a second run creates nothing), writes consent and history rows with prepared statements in
 * transactions of 50,000 rows on a connection of its own, so a server sharing the file keeps answering between batches.
 * A run stopped halfway leaves whole batches; running it again completes it.
 */
export async function importConsents(
  file: string,
  tenant: string,
  input: StreamBody,
  opts: ImportOptions,
  clock: Clock,
  ids: IdSource,
): Promise<ImportSummary> {
  const started = performance.now();
  const map = parseMap(opts.map);
  const kind = /ndjson|jsonl|json/i.test(input.content_type) ? 'ndjson' : 'csv';
  const summary: ImportSummary = { read: 0, created: 0, unchanged: 0, rejected: 0, seconds: 0, dry_run: opts.dry_run, rejections: [] };

  let db: Database.Database;
  try {
    db = new Database(file, { timeout: 30_000 });
    db.pragma('synchronous = NORMAL');
    // a larger page cache keeps the index pages that random user ids touch in memory (16 MiB)
    db.pragma('cache_size = -16384');
  } catch (e) {
    throw storageError(file, e);
  }
  // INDEXED BY: without statistics SQLite may pick the statistics index here and scan a whole data point per row
  const exists = db.prepare(`select 1 from consent indexed by consent_tenant_user where tenant_id = ? and user_id = ? and data_point_id = ? and granted = ? and consent_version = ? and granted_at = ? limit 1`).pluck();
  const existsAnyTime = db.prepare(`select 1 from consent indexed by consent_tenant_user where tenant_id = ? and user_id = ? and data_point_id = ? and granted = ? and consent_version = ? limit 1`).pluck();
  const insConsent = db.prepare(`insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insHistory = db.prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  let inBatch = 0;
  let open = false;
  const begin = () => {
    if (!open && !opts.dry_run) {
      db.exec('BEGIN IMMEDIATE');
      open = true;
    }
  };
  const commit = () => {
    if (open) {
      db.exec('COMMIT');
      open = false;
    }
    inBatch = 0;
  };
  const now = isoZ(clock.now());

  const sink: Sink = {
    reject(line, reason) {
      summary.read++;
      summary.rejected++;
      if (summary.rejections.length < MAX_LISTED) summary.rejections.push({ line, reason });
    },
    row(line, record) {
      for (const v of Object.values(record)) {
        if (typeof v === 'string' && v.includes('\uFFFD')) return sink.reject(line, 'invalid UTF-8 in this row');
      }
      const parsed = ConsentInput.safeParse(record, { reportInput: true });
      if (!parsed.success) return sink.reject(line, detailsFromZod(parsed.error).map((d) => `${d.path}: ${d.message}`).join('; '));
      summary.read++;
      const c = parsed.data;
      const grantedAt = c.granted_at ? new Date(c.granted_at).toISOString() : undefined;
      const dup = grantedAt
        ? exists.get(tenant, c.user_id, c.data_point_id, c.granted ? 1 : 0, c.consent_version, grantedAt)
        : existsAnyTime.get(tenant, c.user_id, c.data_point_id, c.granted ? 1 : 0, c.consent_version);
      if (dup) {
        summary.unchanged++;
        return;
      }
      summary.created++;
      if (opts.dry_run) return;
      begin();
      const { consent: k, history } = newConsent(tenant, c, now, ids);
      insConsent.run(k.id, tenant, k.user_id, k.data_point_id, k.granted ? 1 : 0, k.granted_at, k.revoked_at, k.consent_version, k.source, k.ip_address, k.user_agent, k.created_at);
      for (const h of history) insHistory.run(h.id, tenant, h.consent_id, h.action, h.consent_version, h.ip_address, h.user_agent, h.source, h.created_at);
      if (++inBatch >= BATCH) commit();
    },
  };

  try {
    const text = decode(input.body);
    if (kind === 'ndjson') await readNdjson(text, map, sink);
    else await readCsv(text, opts, map, sink);
    commit();
    // fresh statistics keep the query planner on the right indexes after a large import
    if (summary.created > 10_000) db.exec('PRAGMA analysis_limit = 1000; ANALYZE consent;');
  } catch (e) {
    if (open) db.exec('ROLLBACK');
    throw e instanceof DomainError ? e : typeof (e as { code?: unknown }).code === 'string' && String((e as { code: string }).code).startsWith('SQLITE') ? storageError(file, e) : e;
  } finally {
    db.close();
  }
  summary.seconds = Math.round((performance.now() - started) / 10) / 100;
  return summary;
}
