import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { strFromU8, unzipSync } from 'fflate';
import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { isoZ, type Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { BUNDLE_SIDES, withRule } from '../../domain/sync/merge-rules.js';
import { refusedChanges } from '../../domain/sync/record-door.js';
import { settleDecisions } from './settle-decisions.js';
import type { ReplicaStore } from '../../domain/sync/replica-store.port.js';
import type { SyncConflict } from '../../domain/sync/sync-state.port.js';
import { versionOf, type SyncRow } from '../../domain/sync/version.js';
import { conflictFields } from '../../domain/sync/conflict-fields.js';
import { MEDIA_BUCKET, MediaRef } from '../../domain/training/media-ref.js';
import type { Stores, UnitOfWork } from '../../domain/unit-of-work.js';
import { uuidv7Source } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import { currentRequest, forRequest } from '../../store/tenant-scope.js';
import { VERSION } from '../../version.js';
import { osPrincipal } from '../local/os-principal.js';
import { DEFAULT_BUNDLE_MAX_BYTES } from '../local/bundle-max.js';
import { checkBundleTarget } from './bundle-target.js';
import { areaOf, reportOf, type ConflictReport } from './sync-engine.js';

/** The format a bundle's manifest names; a later layout gets a new number. */
export const BUNDLE_FORMAT = 'compliance-bundle/1';

/** One file of a bundle, with what it must hold. */
export interface BundlePart {
  path: string;
  sha256: string;
  bytes: number;
  /** Records of a records part. */
  count?: number;
}

/** `manifest.json`: what the bundle is, and every other part with its SHA-256. */
export interface BundleManifest {
  format: string;
  tool_version: string;
  schema: string;
  tenant: string;
  created_at: string;
  parts: BundlePart[];
}

/** Where a bundle is imported: a store, the tenant its records go to, and whether they may come from another. */
export interface BundleTarget {
  store: Store;
  /** The store's unit of work (the backend's own), which the bundle's records are written through. */
  uow: UnitOfWork;
  tenant: string;
  /** Import the records of a bundle of another tenant as `tenant` (else that is refused). */
  rename?: boolean;
  actor?: string;
  clock: Clock;
  /** The most the bundle may hold, packed and unpacked (bundleMaxBytes); its default when not given. */
  maxBytes?: number;
}

/**
 * A bundle larger than an import takes (`what`: the file holds, its parts unpack to, the upload was): the import
 * reads it whole and checks every part before it writes anything, so the limit bounds the memory one import holds.
 */
export function bundleTooLarge(label: string, what: string, max: number): DomainError {
  const limit = `${Math.round(max / 2 ** 20)} MB`;
  const message = `${what} more than the ${limit} a bundle import takes (COMPLIANCE_BUNDLE_MAX_MB): carry a tenant this large with sync, which moves it a page at a time`;
  return new DomainError('validation', `${label}: ${message}`, [{ path: 'bundle', message: `at most ${limit}` }]);
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A bundle read and checked whole: every part listed, present and with its checksum; nothing else in it. */
export async function readBundle(
  file: string,
  label = file,
  max = DEFAULT_BUNDLE_MAX_BYTES,
): Promise<{ manifest: BundleManifest; files: Record<string, Uint8Array> }> {
  const refuse = (message: string, path = 'bundle') =>
    new DomainError('validation', `${label}: ${message}`, [{ path, message }]);
  const tooLarge = (what: string) => bundleTooLarge(label, what, max);
  let files: Record<string, Uint8Array>;
  try {
    if ((await stat(file)).size > max) throw tooLarge('the file holds');
    // the sizes the parts declare bound what is unpacked (a part that holds more is cut there, and fails its
    // checksum), so a small file that would unpack to gigabytes (a ZIP bomb) is refused before it is unpacked
    let unpacked = 0;
    const filter = (f: { originalSize: number }) => {
      unpacked += f.originalSize;
      if (unpacked > max) throw tooLarge('its parts unpack to');
      return true;
    };
    files = unzipSync(new Uint8Array(await readFile(file)), { filter });
  } catch (e) {
    if (e instanceof DomainError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new DomainError('not_found', `${label} not found`);
    throw refuse('not a bundle (not a readable ZIP archive)');
  }
  if (!files['manifest.json']) throw refuse('not a bundle (no manifest.json)', 'manifest.json');
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(strFromU8(files['manifest.json'])) as BundleManifest;
  } catch {
    throw refuse('manifest.json is not JSON', 'manifest.json');
  }
  if (manifest.format !== BUNDLE_FORMAT || !Array.isArray(manifest.parts) || typeof manifest.tenant !== 'string')
    throw refuse(`manifest.json is not a manifest of ${BUNDLE_FORMAT}`, 'manifest.json');
  const schema = MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!;
  if (manifest.schema !== schema)
    throw new DomainError(
      'conflict',
      `${label} was written by compliance ${manifest.tool_version} (schema ${manifest.schema}), this is ${VERSION} (schema ${schema}): import it with the same schema`,
    );
  const listed = new Set(manifest.parts.map((p) => p.path));
  for (const path of Object.keys(files))
    if (path !== 'manifest.json' && !listed.has(path)) throw refuse(`part ${path} is not in the manifest`, path);
  for (const p of manifest.parts) {
    const data = files[p.path];
    if (!data) throw refuse(`part ${p.path} is missing`, p.path);
    if (data.length !== p.bytes || sha256(data) !== p.sha256)
      throw refuse(
        `part ${p.path} fails its checksum (SHA-256 in manifest.json): the bundle is damaged or edited`,
        p.path,
      );
    if (p.count !== undefined) {
      const lines = strFromU8(data).split('\n').filter(Boolean);
      if (lines.length !== p.count)
        throw refuse(`part ${p.path} holds ${lines.length} records, not ${p.count}`, p.path);
    }
  }
  return { manifest, files };
}

export interface ImportSummary {
  tenant: string;
  created: Record<string, number>;
  unchanged: number;
  conflicts: ConflictReport[];
}

/** A record of a bundle and what becomes of it: written, left as it is here, or a conflict with the reason. */
interface Arrival {
  id: string;
  row: SyncRow;
  mine: SyncRow | null;
  /** Why it is not written (a conflict), or undefined when it is written (or already here as it is). */
  reason?: string;
  same: boolean;
}

/**
 * Imports a bundle after checking it whole, into `t.tenant` (its own, or another when `t.rename`: each record's
 * tenant_id becomes it, and a medium's location the one this store gives it there). Into a store without the
 * tenant's records every record is written as it was exported (journaled here with the bundle as its origin); into
 * one with records they merge as a sync does: a record that is not here is written, one that is here the same is
 * left, one that differs is a conflict holding both versions (`sync resolve` settles it), as is a record that breaks
 * a rule. Every record written passes the door first (refusedChanges, the whole bundle as one batch: its rows rest on
 * each other, whatever part they are in), and a media file is stored only for a media record that passes it, where
 * the store decides (MediaRef). `label` names the bundle in messages.
 */
export async function importBundle(t: BundleTarget, file: string, label = file): Promise<ImportSummary> {
  const { manifest, files } = await readBundle(file, label, t.maxBytes);
  const tenant = t.tenant;
  await checkBundleTarget(t, manifest, files, label);
  const origin = `bundle:${sha256(files['manifest.json']!).slice(0, 16)}`;
  // the bundle's changes are journaled as made by whoever imports it (a key, or the operator on this machine)
  const principal = currentRequest()?.principal ?? osPrincipal();
  return forRequest({ tenant, actor: t.actor ?? 'system', principal }, async () => {
    const ids = uuidv7Source();
    const uow = t.uow;
    const summary: ImportSummary = { tenant, created: {}, unchanged: 0, conflicts: [] };
    const parts = new Map<string, Arrival[]>();
    for (const entity of uow.read.replica.entities) {
      const part = files[`records/${entity}.ndjson`];
      if (!part) continue;
      const rows = parseRows(strFromU8(part), `records/${entity}.ndjson`).map((row) =>
        retenant(row, entity, manifest.tenant, tenant),
      );
      const arrivals: Arrival[] = [];
      for (let i = 0; i < rows.length; i += 1000) {
        const page = rows.slice(i, i + 1000).map((row) => ({ id: idOf(uow.read.replica, tenant, entity, row), row }));
        const held = await uow.read.replica.readMany(
          tenant,
          entity,
          page.map((r) => ({ id: r.id, hint: r.row })),
        );
        for (const r of page) {
          const mine = held.get(r.id) ?? null;
          const same = versionOf(mine) === versionOf(r.row);
          arrivals.push({
            ...r,
            mine,
            same,
            reason: same || !mine ? undefined : `differs from the bundle's version (${label})`,
          });
        }
      }
      parts.set(entity, arrivals);
    }
    const fresh = [...parts].flatMap(([entity, list]) => list.filter((a) => !a.mine).map((a) => ({ entity, a })));
    const taken = new Set<string>();
    for (const [entity, list] of parts)
      for (const id of await uow.read.replica.heldElsewhere(
        tenant,
        entity,
        list.filter((a) => !a.mine).map((a) => a.id),
      ))
        taken.add(`${entity}\u0000${id}`);
    const refused = await refusedChanges(
      uow.read.replica,
      tenant,
      t.clock.now(),
      fresh
        .filter(({ entity, a }) => !taken.has(`${entity}\u0000${a.id}`))
        .map(({ entity, a }) => ({ entity, id: a.id, before: null, after: a.row })),
    );
    for (const { entity, a } of fresh) {
      const k = `${entity}\u0000${a.id}`;
      a.reason = taken.has(k) ? `${entity} ${a.id} cannot be written: the id is taken` : refused.get(k);
    }
    // files first, then their records (as the media service stores them): only those of records that pass
    const objects = await t.store.mediaObjects();
    for (const a of parts.get('training_media') ?? []) {
      if (a.mine || a.reason) continue;
      const [module, kind] = [String(a.row.module_id), String(a.row.kind)];
      const data = files[`media/${MEDIA_BUCKET}/${MediaRef.of(manifest.tenant, module, a.id, kind).key}`];
      if (data) await objects.put(MediaRef.of(tenant, module, a.id, kind), Readable.from([data]));
    }
    // a store that held consents of the tenant settles the decisions the bundle adds to them (settleDecisions)
    const decided = (await uow.read.consents.counts(tenant)).length > 0;
    const decisions: SyncRow[] = [];
    await forRequest({ tenant, actor: t.actor ?? 'system', principal, origin }, async () => {
      for (const [entity, arrivals] of parts)
        for (let i = 0; i < arrivals.length; i += 1000) {
          const page = arrivals.slice(i, i + 1000);
          await uow.write(tenant, async (tx) => {
            const writing: Array<{ id: string; row: SyncRow }> = [];
            for (const a of page) {
              if (a.same) {
                summary.unchanged++;
                continue;
              }
              const reason = a.reason ?? (await tx.replica.broken(tenant, entity, a.id, a.row)) ?? undefined;
              if (!reason) {
                writing.push(a);
                continue;
              }
              await tx.syncState.putConflict(
                await conflictOf(tx, { tenant, origin, entity, a, reason, manifest, ids, clock: t.clock }),
              );
            }
            // the new records of a page are one batch entry, named by the bundle, its part and the rows
            const rowsOfPart = `${origin}#records/${entity}.ndjson:${i + 1}-${i + page.length}`;
            if (writing.length)
              await tx.replica.asOneEntry('bundle_import', rowsOfPart, () =>
                tx.replica.insertMany(tenant, entity, writing),
              );
            for (const _ of writing) summary.created[areaOf(entity)] = (summary.created[areaOf(entity)] ?? 0) + 1;
            if (entity === 'consent' && decided) decisions.push(...writing.map((a) => a.row));
          });
        }
      // once the consents and their history are here: one decision in force per user and data point
      if (decisions.length) await uow.write(tenant, (tx) => settleDecisions(tx, tenant, decisions));
    });
    summary.conflicts = (await uow.read.syncState.conflicts(tenant, origin)).map(reportOf);
    return summary;
  });
}

/**
 * A bundle's row as the target tenant's: its tenant_id, and for a medium the location this store gives it there
 * (when the row had the one of its own tenant; any other stays, for the door to refuse).
 */
function retenant(row: SyncRow, entity: string, from: string, to: string): SyncRow {
  if (from === to || !('tenant_id' in row)) return row;
  const moved = { ...row, tenant_id: to };
  if (entity !== 'training_media') return moved;
  const [module, media, kind] = [String(row.module_id), String(row.id), String(row.kind)];
  let key: string | undefined;
  try {
    key =
      MediaRef.of(from, module, media, kind).key === row.object_key
        ? MediaRef.of(to, module, media, kind).key
        : undefined;
  } catch {
    key = undefined;
  }
  return key ? { ...moved, object_key: key } : moved;
}

/** The lines of a records part as rows; a line that is not a JSON object is refused, naming the part and line. */
function parseRows(text: string, part: string): SyncRow[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        row = undefined;
      }
      if (!row || typeof row !== 'object' || Array.isArray(row))
        throw new DomainError('validation', `${part} line ${i + 1} is not a record (a JSON object)`, [
          { path: part, message: `line ${i + 1}` },
        ]);
      return row as SyncRow;
    });
}

/** The journal id of a bundle's row; a row that does not name one is refused, naming its table. */
function idOf(replica: ReplicaStore, tenant: string, entity: string, row: SyncRow): string {
  const id = replica.idOf(tenant, entity, row);
  if (id === 'undefined' || id.includes('null'))
    throw new DomainError('validation', `records/${entity}.ndjson holds a row without its key`, [
      { path: `records/${entity}.ndjson`, message: 'every row names its key columns' },
    ]);
  return id;
}

/** The conflict of a bundle's record that is not written here (or an update of the one still open for it). */
async function conflictOf(
  tx: Stores,
  o: {
    tenant: string;
    origin: string;
    entity: string;
    a: Arrival;
    reason: string;
    manifest: BundleManifest;
    ids: { next(): string };
    clock: Clock;
  },
): Promise<SyncConflict> {
  const { tenant, origin, entity, a } = o;
  const last = await tx.syncState.lastChange(tenant, entity, a.id);
  const open = await tx.syncState.pending(origin, tenant, entity, a.id);
  return {
    id: open?.id ?? o.ids.next(),
    remote: origin,
    tenant_id: tenant,
    entity,
    entity_id: a.id,
    reason: withRule(o.reason, entity, a.mine, a.row, BUNDLE_SIDES),
    base: null,
    ours: a.mine,
    theirs: a.row,
    theirs_version: versionOf(a.row),
    fields: conflictFields(entity, a.mine, a.row),
    our_actor: last?.actor ?? null,
    our_time: last?.time ?? null,
    their_actor: null,
    their_time: o.manifest.created_at,
    status: 'open',
    created_at: open?.created_at ?? isoZ(o.clock.now()),
    resolved_at: null,
    resolution: null,
  };
}
