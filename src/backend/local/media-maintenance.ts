import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../domain/errors.js';
import { MediaRef } from '../../domain/training/media-ref.js';
import { sha256Of, type MediaObjectStore } from '../../store/media-objects.js';
import type { Store } from '../../store/store.js';
import { OWN_MEDIA } from '../../domain/training/media-url.js';
import { forTenant } from '../../store/tenant-scope.js';

/** An object without a record is removed by `media gc` once it is this old (an upload in progress is younger). */
export const GC_MIN_AGE_MS = 60 * 60 * 1000;

/** Every medium of every tenant as its reference and recorded size (a row whose ids are not ids is passed over). */
async function everyMedium(store: Store): Promise<Array<{ ref: MediaRef; size: number }>> {
  const rows = await store.admin
    .selectFrom('training_media')
    .select(['tenant_id', 'module_id', 'id', 'kind', 'size_bytes'])
    .orderBy('tenant_id')
    .orderBy('id')
    .execute();
  const out: Array<{ ref: MediaRef; size: number }> = [];
  for (const r of rows) {
    try {
      out.push({ ref: MediaRef.of(r.tenant_id, r.module_id, r.id, r.kind), size: Number(r.size_bytes) });
    } catch {
      // not an address of this store: nothing of it can be stored or moved
    }
  }
  return out;
}

export interface GcResult {
  location: string;
  dry_run: boolean;
  /** Objects without a record, older than an hour: removed, or (with --dry-run) to be removed. */
  orphans: Array<{ key: string; size_bytes: number; modified: string }>;
  /** Objects without a record that are younger: an upload whose record may still commit. */
  young: number;
  removed: number;
}

/** `media gc`: objects of the media store that no record names, older than an hour, listed and (unless a dry run) removed. */
export async function collectMedia(store: Store, o: { dryRun: boolean; now: Date }): Promise<GcResult> {
  const objects = await store.mediaObjects();
  if (!objects.list || !objects.removeKey)
    throw new DomainError(
      'bad_request',
      `media gc works on a folder or an object store; ${objects.location} writes an object and its record one after the other in the database`,
    );
  // the objects first, then the records: a record that commits meanwhile keeps its object
  const listed = [];
  for await (const obj of objects.list()) listed.push(obj);
  const known = new Set((await everyMedium(store)).map((m) => objects.keyOf(m.ref)));
  const result: GcResult = { location: objects.location, dry_run: o.dryRun, orphans: [], young: 0, removed: 0 };
  for (const obj of listed) {
    if (known.has(obj.key) || obj.key.endsWith('.part')) continue;
    if (o.now.getTime() - obj.modified.getTime() < GC_MIN_AGE_MS) {
      result.young++;
      continue;
    }
    result.orphans.push({ key: obj.key, size_bytes: obj.size, modified: obj.modified.toISOString() });
    if (!o.dryRun) {
      await objects.removeKey(obj.key);
      result.removed++;
    }
  }
  return result;
}

export interface MoveResult {
  from: string;
  to: string;
  media: number;
  copied: number;
  /** Already at the target with the same size and SHA-256 (a move that is run again after an interruption). */
  already_there: number;
  /** Records whose object is in neither store. */
  missing: string[];
  bytes: number;
  removed: number;
}

const digestOf = async (objects: MediaObjectStore, ref: MediaRef) => sha256Of(await objects.open(ref));

/**
 * `media move --to URL`: every medium copied from where the store's media live to `to`, each verified by size and
 * SHA-256 read back from the target; then the store records the new home (every command and replica finds them
 * there); only then are the old copies removed. Run again after an interruption, it copies only what is not there yet.
 */
export async function moveMedia(
  store: Store,
  to: string,
  progress: (line: string) => void = () => undefined,
): Promise<MoveResult> {
  const source = await store.media.from();
  const target = await store.media.at(to, '--to');
  if (source.url === to)
    throw new DomainError('bad_request', `--to ${to}: the media of this store already live there`, [
      { path: '--to', message: 'another place than the one the media live in' },
    ]);
  await target.check();
  const media = await everyMedium(store);
  const result: MoveResult = {
    from: source.objects.location,
    to: target.location,
    media: media.length,
    copied: 0,
    already_there: 0,
    missing: [],
    bytes: 0,
    removed: 0,
  };
  const present: MediaRef[] = [];
  const copy = async (i: number, ref: MediaRef) => {
    const [from, there] = [await source.objects.size(ref), await target.size(ref)];
    if (from === undefined) {
      // moved by a run that was interrupted while removing the old copies
      if (there !== undefined) result.already_there++;
      else result.missing.push(ref.media);
      return;
    }
    present.push(ref);
    if (there === from && (await digestOf(source.objects, ref)) === (await digestOf(target, ref))) {
      result.already_there++;
      return;
    }
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const feeding = pipeline(await source.objects.open(ref), hashing);
    const [size] = await Promise.all([target.put(ref, hashing), feeding]);
    const digest = hash.digest('hex');
    if (size !== from || (await target.size(ref)) !== from || (await digestOf(target, ref)) !== digest)
      throw new DomainError(
        'unavailable',
        `media ${ref.media}: the copy at ${target.location} differs from the original (size or SHA-256); nothing was removed, run the move again`,
      );
    result.copied++;
    result.bytes += from;
    progress(`${i + 1}/${media.length} ${ref.media} (${from} bytes) copied and verified`);
  };
  // each medium in its tenant's scope: on PostgreSQL row-level security shows a tenant only its own objects
  for (const [i, { ref }] of media.entries()) await forTenant(ref.tenant, () => copy(i, ref));
  // the records point at the new home before any old copy goes
  await store.media.record(to === OWN_MEDIA ? undefined : to);
  for (const ref of present) {
    await forTenant(ref.tenant, () => source.objects.remove(ref));
    result.removed++;
  }
  return result;
}
