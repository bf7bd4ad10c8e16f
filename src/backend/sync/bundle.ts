import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { isoZ, type Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { BUNDLE_SIDES, withRule } from '../../domain/sync/merge-rules.js';
import type { SyncConflict } from '../../domain/sync/sync-state.port.js';
import { differingFields, versionOf, type SyncRow } from '../../domain/sync/version.js';
import { uuidv7Source } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import { forRequest } from '../../store/tenant-scope.js';
import { createUnitOfWork } from '../../store/unit-of-work.js';
import { VERSION } from '../../version.js';
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
  tenant: string;
  /** Import the records of a bundle of another tenant as `tenant` (else that is refused). */
  rename?: boolean;
  actor?: string;
  clock: Clock;
  /** Folder of the media objects on SQLite (default: `media/` beside the database file). */
  mediaRoot?: string;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A bundle read and checked whole: every part listed, present and with its checksum; nothing else in it. */
export async function readBundle(
  file: string,
  label = file,
): Promise<{ manifest: BundleManifest; files: Record<string, Uint8Array> }> {
  const refuse = (message: string, path = 'bundle') =>
    new DomainError('validation', `${label}: ${message}`, [{ path, message }]);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(await readFile(file)));
  } catch (e) {
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

/**
 * Imports a bundle after checking it whole, into `t.tenant` (its own, or another when `t.rename`: each record's
 * tenant_id becomes it). Into a store without the tenant's records every record is written as it was exported
 * (journaled here with principal bundle:SHA); into one with records they merge as a sync does: a record that is not
 * here is written, one that is here the same is left, one that differs is a conflict holding both versions (`sync
 * resolve` settles it), as is a record that would break a rule of the merge. `label` names the bundle in messages.
 */
export async function importBundle(t: BundleTarget, file: string, label = file): Promise<ImportSummary> {
  const { manifest, files } = await readBundle(file, label);
  const tenant = t.tenant;
  await checkBundleTarget(t, manifest, files, label);
  const retenant = (row: SyncRow): SyncRow => ('tenant_id' in row ? { ...row, tenant_id: tenant } : row);
  const origin = `bundle:${sha256(files['manifest.json']!).slice(0, 16)}`;
  return forRequest({ tenant, actor: t.actor ?? 'system' }, async () => {
    const ids = uuidv7Source();
    const uow = createUnitOfWork(t.store, t.clock, ids);
    const summary: ImportSummary = { tenant, created: {}, unchanged: 0, conflicts: [] };
    // files first, then their records (as the media service stores them)
    const objects = await t.store.mediaObjects(t.mediaRoot);
    const dir = await mkdtemp(join(tmpdir(), 'compliance-bundle-'));
    try {
      for (const p of manifest.parts.filter((x) => x.path.startsWith('media/'))) {
        const [, bucket, ...rest] = p.path.split('/');
        const path = join(dir, String(manifest.parts.indexOf(p)));
        await writeFile(path, files[p.path]!);
        await objects.put(tenant, bucket!, rest.join('/'), path);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await forRequest({ tenant, actor: t.actor ?? 'system', principal: origin }, async () => {
      for (const entity of uow.read.replica.entities) {
        const part = files[`records/${entity}.ndjson`];
        if (!part) continue;
        const rows = strFromU8(part)
          .split('\n')
          .filter(Boolean)
          .map((l) => retenant(JSON.parse(l) as SyncRow));
        for (let i = 0; i < rows.length; i += 1000) {
          const page = rows.slice(i, i + 1000).map((row) => ({ id: uow.read.replica.idOf(tenant, entity, row), row }));
          await uow.write(tenant, async (tx) => {
            const held = await tx.replica.readMany(
              tenant,
              entity,
              page.map((r) => ({ id: r.id, hint: r.row })),
            );
            const fresh: typeof page = [];
            for (const r of page) {
              const mine = held.get(r.id) ?? null;
              if (versionOf(mine) === versionOf(r.row)) {
                summary.unchanged++;
                continue;
              }
              const broken = await tx.replica.broken(tenant, entity, r.id, r.row);
              if (mine === null && !broken) {
                fresh.push(r);
                continue;
              }
              const last = await tx.syncState.lastChange(tenant, entity, r.id);
              const open = await tx.syncState.pending(origin, tenant, entity, r.id);
              const c: SyncConflict = {
                id: open?.id ?? ids.next(),
                remote: origin,
                tenant_id: tenant,
                entity,
                entity_id: r.id,
                reason: withRule(
                  broken ?? `differs from the bundle's version (${label})`,
                  entity,
                  mine,
                  r.row,
                  BUNDLE_SIDES,
                ),
                base: null,
                ours: mine,
                theirs: r.row,
                theirs_version: versionOf(r.row),
                fields: differingFields(mine, r.row),
                our_actor: last?.actor ?? null,
                our_time: last?.time ?? null,
                their_actor: null,
                their_time: manifest.created_at,
                status: 'open',
                created_at: open?.created_at ?? isoZ(t.clock.now()),
                resolved_at: null,
                resolution: null,
              };
              await tx.syncState.putConflict(c);
            }
            // the new records of a page are one batch entry, named by the bundle, its part and the rows
            const rowsOfPart = `${origin}#records/${entity}.ndjson:${i + 1}-${i + page.length}`;
            if (fresh.length)
              await tx.replica.asOneEntry('bundle_import', rowsOfPart, () =>
                tx.replica.insertMany(tenant, entity, fresh),
              );
            for (const _ of fresh) summary.created[areaOf(entity)] = (summary.created[areaOf(entity)] ?? 0) + 1;
          });
        }
      }
    });
    summary.conflicts = (await uow.read.syncState.conflicts(tenant, origin)).map(reportOf);
    return summary;
  });
}
