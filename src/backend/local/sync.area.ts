import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { bindHandlers } from '../../contract/bind.js';
import type { StreamBody } from '../../contract/operation.js';
import { notFound } from '../../domain/errors.js';
import { syncContract } from '../../contract/sync.contract.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { SYNC_PROTOCOL, type PushBody, type PushResult } from '../../domain/sync/sync.schema.js';
import { InsertBuffer } from '../../domain/sync/insert-buffer.js';
import { exclusiveClaim } from '../../domain/sync/merge-rules.js';
import { versionOf, type SyncRow } from '../../domain/sync/version.js';
import { KyselyJournalStore } from '../../store/journal/journal.store.js';
import type { Store } from '../../store/store.js';
import { currentRequest, forRequest } from '../../store/tenant-scope.js';
import { VERSION } from '../../version.js';

/** Thrown out of a dry run's transaction so it rolls back, carrying what the run would have answered. */
class DryRun extends Error {
  constructor(readonly result: PushResult) {
    super('dry run');
  }
}

/**
 * Applies pushed records in one transaction: a record whose version here is the one it was derived from (its base)
 * is written; one already in the pushed state counts as unchanged (a push run again after it was cut off); any other
 * is a conflict and is left as it is, as is a record whose write would break a rule of the merge. The records are
 * read a table at a time and new ones inserted together (InsertBuffer); each write is journaled on its own, as the
 * server's events follow its entries.
 */
export async function applyPush(
  uow: UnitOfWork,
  tenant: string,
  body: PushBody,
): Promise<Omit<PushResult, 'head_seq'>> {
  const key = (entity: string, id: string) => `${entity}\u0000${id}`;
  try {
    return await uow.write(tenant, async (tx) => {
      const result: PushResult = { applied: 0, unchanged: 0, conflicts: [], head_seq: 0 };
      const byEntity = new Map<string, PushBody['items']>();
      for (const item of body.items) {
        const items = byEntity.get(item.entity);
        if (items) items.push(item);
        else byEntity.set(item.entity, [item]);
      }
      const held = new Map<string, SyncRow>();
      for (const [entity, items] of byEntity) {
        const wanted = items.map((i) => ({ id: i.entity_id, hint: i.data }));
        for (const [id, row] of await tx.replica.readMany(tenant, entity, wanted)) held.set(key(entity, id), row);
      }
      const inserts = new InsertBuffer(tx.replica, tenant);
      const claimed = new Map<string, string>();
      for (const item of body.items) {
        const stored = held.get(key(item.entity, item.entity_id)) ?? null;
        const version = versionOf(stored);
        const conflict = (reason: string) =>
          result.conflicts.push({ entity: item.entity, entity_id: item.entity_id, reason, theirs: stored, version });
        if (version === versionOf(item.data)) result.unchanged++;
        else if (version !== item.base) conflict('changed on the server since the version it was derived from');
        else {
          // records of this push waiting in the buffer are not in the tables yet: their claims are checked here
          const exclusive = exclusiveClaim(item.entity, item.data);
          const holder = exclusive && claimed.get(exclusive.claim);
          const broken = holder
            ? exclusive.taken(holder)
            : await tx.replica.broken(tenant, item.entity, item.entity_id, item.data);
          if (broken) conflict(broken);
          else {
            if (exclusive) claimed.set(exclusive.claim, item.entity_id);
            if (stored === null && item.data !== null) inserts.add(item.entity, item.entity_id, item.data);
            else await tx.replica.apply(tenant, item.entity, item.entity_id, item.data);
            result.applied++;
          }
        }
      }
      await inserts.flush();
      if (body.dry_run) throw new DryRun(result);
      return result;
    });
  } catch (e) {
    if (e instanceof DryRun) return e.result;
    throw e;
  }
}

/** The sync routes: what a client checks first, and the push (the pull is `GET /journal`). */
/** Stores the streamed file of a media record of the tenant (which a push wrote before), under the record's key. */
async function receiveMedia(store: Store, uow: UnitOfWork, tenant: string, mediaId: string, body: StreamBody) {
  const media = await uow.read.replica.read(tenant, 'training_media', mediaId);
  if (!media) throw notFound('training media', mediaId);
  const dir = await mkdtemp(join(tmpdir(), 'compliance-media-'));
  try {
    const file = join(dir, 'object');
    await pipeline(Readable.from(body.body), createWriteStream(file));
    const objects = await store.mediaObjects();
    const size = await objects.put(tenant, String(media.bucket), String(media.object_key), file);
    return { media_id: mediaId, size_bytes: size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function createSyncArea(store: Store, uow: UnitOfWork) {
  const journal = new KyselyJournalStore(store.db);
  const head = async (tenant: string) => (await journal.head(tenant))?.seq ?? 0;
  return bindHandlers(syncContract, {
    info: async (r) => ({
      protocol: SYNC_PROTOCOL,
      version: VERSION,
      schema: MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!,
      tenant: r.tenant,
      head_seq: await head(r.tenant),
      entities: [...uow.read.replica.entities],
    }),
    media: (r) => receiveMedia(store, uow, r.tenant, r.params.mediaId, r.stream!),
    push: async (r) => {
      // the entries of a push name the pushing store, so it can tell them from the server's own when it pulls
      const request = {
        tenant: r.tenant,
        actor: r.actor ?? currentRequest()?.actor,
        principal: `sync:${r.body.replica}`,
      };
      const result = await forRequest(request, () => applyPush(uow, r.tenant, r.body));
      return { ...result, head_seq: await head(r.tenant) };
    },
  });
}
