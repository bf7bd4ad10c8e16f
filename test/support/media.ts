import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest, forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { tmp } from './helpers.js';
import { MediaRef } from '../../src/domain/training/media-ref.js';

/**
 * A generated medium of a module as the media service leaves it, without speech or video tools: its object stored
 * first, then its record journaled (a draft). Answers the object's key.
 */
export async function storeMedium(
  b: LocalBackend,
  m: { tenant: string; moduleId: string; id: string; kind: 'audio' | 'video'; bytes: Buffer },
): Promise<string> {
  const ext = m.kind === 'audio' ? 'm4a' : 'mp4';
  const file = join(tmp(), `${m.id}.${ext}`);
  writeFileSync(file, m.bytes);
  const ref = MediaRef.of(m.tenant, m.moduleId, m.id, m.kind);
  const objectKey = ref.key;
  // in the tenant's scope, as every door stores an object: PostgreSQL's row-level security admits only its rows
  await forTenant(m.tenant, async () => (await b.store.mediaObjects()).put(ref, file));
  const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
  await forRequest({ tenant: m.tenant, actor: 'sam', principal: 'test' }, () =>
    uow.write(m.tenant, (tx) =>
      tx.replica.apply(m.tenant, 'training_media', m.id, {
        id: m.id,
        tenant_id: m.tenant,
        module_id: m.moduleId,
        content_id: null,
        kind: m.kind,
        bucket: 'training-media',
        object_key: objectKey,
        content_type: `${m.kind}/mp4`,
        size_bytes: m.bytes.length,
        duration_seconds: 1.5,
        status: 'draft',
        created_at: '2026-11-26T08:00:00.000Z',
        published_at: null,
      }),
    ),
  );
  return objectKey;
}
