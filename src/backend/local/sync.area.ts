import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { bindHandlers } from '../../contract/bind.js';
import type { StreamBody } from '../../contract/operation.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { Clock } from '../../domain/clock.js';
import { refusedChanges } from '../../domain/sync/record-door.js';
import { MediaRef } from '../../domain/training/media-ref.js';
import { syncContract } from '../../contract/sync.contract.js';
import type { Stores, UnitOfWork } from '../../domain/unit-of-work.js';
import { SYNC_PROTOCOL, type PushBody, type PushItem, type PushResult } from '../../domain/sync/sync.schema.js';
import { settleDecisions } from '../sync/settle-decisions.js';
import { InsertBuffer } from '../../domain/sync/insert-buffer.js';
import { exclusiveClaim } from '../../domain/sync/merge-rules.js';
import { versionOf, type SyncRow } from '../../domain/sync/version.js';
import { sha256Of } from '../../store/media-objects.js';
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
 * is a conflict and is left as it is. Every record written passes the door first (refusedChanges: its table's
 * schema and the rules of its area, as the API's own operation would) and the rules across records; a record that
 * breaks one is a conflict naming the rule, never written. The records are read a table at a time and new ones
 * inserted together (InsertBuffer); each write is journaled on its own, as the server's events follow its entries.
 */
export async function applyPush(
  uow: UnitOfWork,
  clock: Clock,
  tenant: string,
  body: PushBody,
): Promise<Omit<PushResult, 'head_seq'>> {
  const key = (entity: string, id: string) => `${entity}\u0000${id}`;
  try {
    return await uow.write(tenant, async (tx) => {
      const result: PushResult = { applied: 0, unchanged: 0, conflicts: [], head_seq: 0 };
      const held = new Map<string, SyncRow>();
      const travels = new Set(tx.replica.entities);
      for (const [entity, items] of byEntity(body.items.filter((i) => travels.has(i.entity))))
        for (const [id, row] of await readEach(tx, tenant, entity, items)) held.set(key(entity, id), row);
      const conflict = (item: PushItem, reason: string) => {
        const stored = held.get(key(item.entity, item.entity_id)) ?? null;
        result.conflicts.push({
          entity: item.entity,
          entity_id: item.entity_id,
          reason,
          theirs: stored,
          version: versionOf(stored),
        });
      };
      // the records whose version here is their base: the ones to write, if the rules let them
      const writing: PushItem[] = [];
      for (const item of body.items) {
        const stored = held.get(key(item.entity, item.entity_id)) ?? null;
        const version = versionOf(stored);
        if (version === versionOf(item.data)) result.unchanged++;
        else if (version !== item.base) conflict(item, 'changed on the server since the version it was derived from');
        else writing.push(item);
      }
      const taken = await takenIds(tx, tenant, writing, held);
      const refused = await refusedChanges(
        tx.replica,
        tenant,
        clock.now(),
        writing
          .filter((i) => !taken.has(key(i.entity, i.entity_id)))
          .map((i) => ({
            entity: i.entity,
            id: i.entity_id,
            before: held.get(key(i.entity, i.entity_id)) ?? null,
            after: i.data,
          })),
      );
      for (const [k, reason] of taken) refused.set(k, reason);
      const inserts = new InsertBuffer(tx.replica, tenant);
      const decisions: SyncRow[] = [];
      const claimed = new Map<string, string>();
      for (const item of writing) {
        const rule = refused.get(key(item.entity, item.entity_id));
        if (rule) {
          conflict(item, rule);
          continue;
        }
        // records of this push waiting in the buffer are not in the tables yet: their claims are checked here
        const exclusive = exclusiveClaim(item.entity, item.data);
        const holder = exclusive && claimed.get(exclusive.claim);
        const broken = holder
          ? exclusive.taken(holder)
          : await tx.replica.broken(tenant, item.entity, item.entity_id, item.data);
        if (broken) {
          conflict(item, broken);
          continue;
        }
        if (exclusive) claimed.set(exclusive.claim, item.entity_id);
        if (!held.has(key(item.entity, item.entity_id)) && item.data !== null)
          inserts.add(item.entity, item.entity_id, item.data);
        else await tx.replica.apply(tenant, item.entity, item.entity_id, item.data);
        if (item.entity === 'consent' && item.data) decisions.push(item.data);
        result.applied++;
      }
      await inserts.flush();
      // one decision in force per user and data point, as the API keeps it: a pushed refusal revokes the grant in
      // force here, a pushed grant ends with one of the two in force
      await settleDecisions(tx, tenant, decisions);
      if (body.dry_run) throw new DryRun(result);
      return result;
    });
  } catch (e) {
    if (e instanceof DryRun) return e.result;
    throw e;
  }
}

/** Records grouped by their table, in the order met. */
function byEntity(items: PushItem[]): Map<string, PushItem[]> {
  const out = new Map<string, PushItem[]>();
  for (const item of items) {
    const list = out.get(item.entity);
    if (list) list.push(item);
    else out.set(item.entity, [item]);
  }
  return out;
}

/**
 * The records of one table a push names, as held here: read together, or one by one when an id does not fit the
 * table's key (such a record is held by no one: the door refuses its row).
 */
async function readEach(tx: Stores, tenant: string, entity: string, items: PushItem[]) {
  const wanted = items.map((i) => ({ id: i.entity_id, hint: i.data }));
  try {
    return await tx.replica.readMany(tenant, entity, wanted);
  } catch (e) {
    if (!(e instanceof DomainError) || e.code !== 'validation') throw e;
    const out = new Map<string, SyncRow>();
    for (const w of wanted) {
      const row = await tx.replica.read(tenant, entity, w.id, w.hint).catch(() => null);
      if (row) out.set(w.id, row);
    }
    return out;
  }
}

/** New records whose id another tenant already holds, with the refusal: the id cannot be this tenant's. */
async function takenIds(tx: Stores, tenant: string, items: PushItem[], held: Map<string, SyncRow>) {
  const out = new Map<string, string>();
  const travels = new Set(tx.replica.entities);
  const fresh = items.filter(
    (i) => travels.has(i.entity) && i.data !== null && !held.has(`${i.entity}\u0000${i.entity_id}`),
  );
  for (const [entity, list] of byEntity(fresh))
    for (const id of await tx.replica.heldElsewhere(
      tenant,
      entity,
      list.map((i) => i.entity_id),
    ))
      out.set(`${entity}\u0000${id}`, `${entity} ${id} cannot be written: the id is taken`);
  return out;
}

/**
 * A pushed file, held to its record: exactly the `size_bytes` it says (reading stops at the first byte more), so a
 * client cannot store more, or other, than the record it pushed describes.
 */
async function* ofRecordedSize(body: AsyncIterable<Uint8Array | string>, size: number, what: string) {
  let received = 0;
  for await (const piece of body) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    received += chunk.byteLength;
    if (received > size)
      throw new DomainError('validation', `${what} is larger than the ${size} bytes its record says (size_bytes)`, [
        { path: 'body', message: `${size} bytes, as the record's size_bytes says` },
      ]);
    yield chunk;
  }
  if (received < size)
    throw new DomainError('validation', `${what} has ${received} bytes, its record says ${size} (size_bytes)`, [
      { path: 'body', message: `${size} bytes, as the record's size_bytes says` },
    ]);
}

/**
 * `POST /sync/media/{id}`: the file of a media record the client pushed (which a push wrote before). Where it goes is
 * the store's to decide, from the record's ids (MediaRef), never from its row's location columns. A medium's file is
 * written once: the same bytes again (a push that is retried) are taken, other bytes for a file the
 * store holds are a conflict, whoever made it.
 */
async function receiveMedia(store: Store, uow: UnitOfWork, tenant: string, mediaId: string, body: StreamBody) {
  const media = await uow.read.replica.read(tenant, 'training_media', mediaId);
  if (!media) throw notFound('training media', mediaId);
  const ref = MediaRef.of(tenant, String(media.module_id), String(media.id), String(media.kind));
  const what = `the file of media ${mediaId}`;
  const sent = ofRecordedSize(body.body, Number(media.size_bytes), what);
  const objects = await store.mediaObjects();
  if ((await objects.size(ref)) === undefined) return { media_id: mediaId, size_bytes: await objects.put(ref, sent) };
  const [theirs, ours] = [await sha256Of(sent), await sha256Of(await objects.open(ref))];
  if (theirs !== ours)
    throw new DomainError(
      'conflict',
      `${what} is stored already, with other bytes: a medium's file is written once (a new rendering is a new medium)`,
    );
  return { media_id: mediaId, size_bytes: Number(media.size_bytes) };
}

/** The sync routes: what a client checks first, the push and the files of media records (the pull is `GET /journal`). */
export function createSyncArea(store: Store, uow: UnitOfWork, clock: Clock) {
  const journal = uow.read.journal;
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
      // who pushed is the key (the principal of the request, as for any change through the API); the pushing
      // store's replica id is the entries' origin, so it can tell them from the server's own when it pulls
      const scope = currentRequest();
      const request = {
        tenant: r.tenant,
        actor: r.actor ?? scope?.actor,
        principal: scope?.principal,
        origin: `sync:${r.body.replica}`,
      };
      const result = await forRequest(request, () => applyPush(uow, clock, r.tenant, r.body));
      return { ...result, head_seq: await head(r.tenant) };
    },
  });
}
