import * as z from 'zod';
import { DomainError } from '../errors.js';
import { before, storedRow, storedTime, type RowRule } from '../sync/row-rule.js';
import type { SyncRow } from '../sync/version.js';
import { Content } from './content.schema.js';
import { Media } from './media.schema.js';
import { MEDIA_BUCKET, MediaRef } from './media-ref.js';

const ContentRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  module_id: z.string(),
  version: z.int().min(1),
  language: z.string().max(35),
  markdown: z.string().max(2_000_000),
  status: Content.shape.status,
  created_at: storedTime,
  published_at: storedTime.nullable(),
});

const s = Media.shape;
const MediaRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  module_id: z.string(),
  content_id: z.string().nullable(),
  kind: s.kind,
  bucket: z.string(),
  object_key: z.string(),
  content_type: z.string().regex(/^(audio|video)\/[0-9a-z.+-]+$/, 'an audio/… or video/… media type'),
  size_bytes: z.int().min(0),
  duration_seconds: z.number().min(0),
  status: s.status,
  created_at: storedTime,
  published_at: storedTime.nullable(),
});

/** A module's records go with the module only (TrainingStore.deleteModule): the module is gone after the batch. */
const withModule =
  (what: string): RowRule['deletion'] =>
  ({ id, before: b }, f) =>
    f.row('training_module', String(b.module_id)) === null
      ? null
      : `${what} ${id} cannot be deleted: it is deleted with its module only`;

/**
 * Why a medium's row does not say where the store keeps its bytes (null: it does): the location is the store's,
 * made from the tenant, the module, the medium and its kind (MediaRef), never one a client chooses.
 */
export function locationProblem(tenant: string, r: SyncRow): string | null {
  let ref: MediaRef;
  try {
    ref = MediaRef.of(tenant, String(r.module_id), String(r.id), String(r.kind));
  } catch (e) {
    return (e as DomainError).message;
  }
  return r.bucket === MEDIA_BUCKET && r.object_key === ref.key
    ? null
    : `its location is the store's to choose: bucket ${MEDIA_BUCKET}, object_key ${ref.key}`;
}

/** Whether a row's publication fits its status: published (or archived, content only) since published_at. */
const publishedProblem = (r: SyncRow, archived: boolean): string | null => {
  const published = r.status === 'published' || (archived && r.status === 'archived');
  if (published !== (r.published_at !== null))
    return published
      ? `it is ${String(r.status)} without published_at`
      : `it is ${String(r.status)} but carries published_at`;
  return before(r.published_at, r.created_at) ? 'published_at lies before created_at' : null;
};

export const CONTENT_ROW_RULES: Record<string, RowRule> = {
  training_content: {
    schema: ContentRow,
    fixed: ['module_id', 'version', 'language', 'markdown', 'created_at'],
    times: ['created_at', 'published_at'],
    refs: [{ column: 'module_id', entity: 'training_module' }],
    deletion: withModule('training content'),
    needs: (c) => (c.after ? {} : { rows: [['training_module', String(c.before!.module_id)]] }),
    check: ({ id, before: b, after: r }) => {
      if (b && b.status !== 'draft' && r.status === 'draft')
        return `training content ${id} was published: it is no draft again`;
      const problem = publishedProblem(r, true);
      return problem ? `training content ${id}: ${problem}` : null;
    },
  },
  training_media: {
    schema: MediaRow,
    fixed: ['module_id', 'content_id', 'kind', 'bucket', 'object_key', 'content_type', 'size_bytes', 'created_at'],
    times: ['created_at', 'published_at'],
    refs: [
      { column: 'module_id', entity: 'training_module' },
      { column: 'content_id', entity: 'training_content' },
    ],
    deletion: withModule('training media'),
    needs: (c) => (c.after ? {} : { rows: [['training_module', String(c.before!.module_id)]] }),
    check: ({ id, after: r }) => {
      const problem = locationProblem(String(r.tenant_id), r) ?? publishedProblem(r, false);
      return problem ? `training media ${id}: ${problem}` : null;
    },
  },
};
