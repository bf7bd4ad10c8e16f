import { createHash } from 'node:crypto';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { isoZ, type Clock } from '../../domain/clock.js';
import type { SyncRow } from '../../domain/sync/version.js';
import { MEDIA_BUCKET, MediaRef } from '../../domain/training/media-ref.js';
import { holds } from '../../store/media-objects.js';
import type { Store } from '../../store/store.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { VERSION } from '../../version.js';
import { BUNDLE_FORMAT, type BundleManifest, type BundlePart } from './bundle.js';

/** A JSON Schema of a table's rows as stored (JSON lists and objects are text, booleans integers). */
async function schemasOf(store: Store, entities: string[]): Promise<Record<string, unknown>> {
  const tables = await store.db.introspection.getTables();
  const out: Record<string, unknown> = {};
  for (const entity of entities) {
    const table = tables.find((t) => t.name === entity);
    if (!table) continue;
    const type = (dataType: string) =>
      /int/i.test(dataType) ? 'integer' : /real|double|float|numeric/i.test(dataType) ? 'number' : 'string';
    out[entity] = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: entity,
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        table.columns.map((c) => [c.name, { type: c.isNullable ? [type(c.dataType), 'null'] : type(c.dataType) }]),
      ),
      required: table.columns.filter((c) => !c.isNullable).map((c) => c.name),
    };
  }
  return out;
}

/** A ZIP archive written as it is read: what the entries added so far came to, handed out by `take`. */
class ZipStream {
  private readonly chunks: Uint8Array[] = [];
  private failure: Error | null = null;
  private readonly zip = new Zip((err, data) => {
    if (err) this.failure = err;
    else this.chunks.push(data);
  });
  readonly parts: BundlePart[] = [];

  /** A part of the bundle: its bytes deflated into the archive as they come, with its size and SHA-256. */
  part(path: string) {
    const file = new ZipDeflate(path, { level: 6 });
    this.zip.add(file);
    const hash = createHash('sha256');
    let bytes = 0;
    return {
      push: (data: Uint8Array) => {
        hash.update(data);
        bytes += data.length;
        file.push(data);
      },
      end: (count?: number) => {
        file.push(new Uint8Array(0), true);
        this.parts.push({ path, sha256: hash.digest('hex'), bytes, ...(count === undefined ? {} : { count }) });
      },
    };
  }

  /** Adds a file that is not a part (the manifest) and ends the archive. */
  finish(path: string, data: Uint8Array): void {
    const file = new ZipDeflate(path, { level: 6 });
    this.zip.add(file);
    file.push(data, true);
    this.zip.end();
  }

  /** The archive's bytes produced since the last call. */
  *take(): Generator<Uint8Array> {
    if (this.failure) throw this.failure;
    while (this.chunks.length) yield this.chunks.shift()!;
  }
}

/**
 * Every record of a tenant as one bundle, produced while it is sent: a ZIP archive (fflate) of
 * `records/<table>.ndjson` (one row as stored per line), `media/<bucket>/<object key>` (the files behind media
 * records), `schemas/<table>.schema.json`, and last `manifest.json`, naming every other part with its size, SHA-256
 * and number of records. A page of rows (or one media file) is in memory at a time, never the bundle. The reads run
 * in the scope of the caller's request (the tenant's row-level security on PostgreSQL): the caller iterates it there.
 */
export async function* exportBundle(
  store: Store,
  uow: UnitOfWork,
  tenant: string,
  clock: Clock,
): AsyncGenerator<Uint8Array> {
  const zip = new ZipStream();
  const entities = [...uow.read.replica.entities];
  const media: SyncRow[] = [];
  for (const entity of entities) {
    const part = zip.part(`records/${entity}.ndjson`);
    let count = 0;
    for await (const rows of uow.read.replica.rows(tenant, entity)) {
      part.push(strToU8(rows.map((r) => `${JSON.stringify(r)}\n`).join('')));
      count += rows.length;
      if (entity === 'training_media') for (const r of rows) media.push(r);
      yield* zip.take();
    }
    part.end(count);
  }
  const objects = await store.mediaObjects();
  for (const m of media) {
    // where the store keeps the file is its own to know (MediaRef), never the location a row names
    const ref = MediaRef.of(tenant, String(m.module_id), String(m.id), String(m.kind));
    if (!(await holds(objects, ref))) continue;
    const part = zip.part(`media/${MEDIA_BUCKET}/${ref.key}`);
    for await (const chunk of await objects.open(ref)) {
      part.push(chunk as Uint8Array);
      yield* zip.take();
    }
    part.end();
    yield* zip.take();
  }
  for (const [entity, schema] of Object.entries(await schemasOf(store, entities))) {
    const part = zip.part(`schemas/${entity}.schema.json`);
    part.push(strToU8(JSON.stringify(schema, null, 2) + '\n'));
    part.end();
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    tool_version: VERSION,
    schema: MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!,
    tenant,
    created_at: isoZ(clock.now()),
    parts: zip.parts,
  };
  zip.finish('manifest.json', strToU8(JSON.stringify(manifest, null, 2) + '\n'));
  yield* zip.take();
}
