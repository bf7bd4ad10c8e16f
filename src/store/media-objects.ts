import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { DomainError } from '../domain/errors.js';
import { MEDIA_BUCKET, type MediaRef } from '../domain/training/media-ref.js';
import type { ByteRange } from '../domain/byte-range.js';
import type { DB } from './db-types.js';
import { makeFolder } from './make-folder.js';
import { keepScope } from './tenant-scope.js';
import { writeTransaction } from './transaction.js';

/** The bytes of a medium: a file (which the store may move away), or a stream it reads to the end. */
export type MediaSource = string | AsyncIterable<Uint8Array | string>;

/**
 * Where generated media (audio, video) live: on SQLite a folder beside the database file, as a laptop expects; on
 * PostgreSQL the database itself, so every `serve` replica can hand out any object, whichever replica made it. An
 * object is addressed by its MediaRef alone (the tenant, the module, the medium and its format, each checked as an
 * id), so no address a client sends can lead out of the store; another kind of store (an S3 bucket) keys its objects
 * the same way.
 */
export interface MediaObjectStore {
  /** Where the objects are, for messages and status (a folder, `database`, an s3:// URL). */
  readonly location: string;
  /** Stores the bytes as the object; answers its size in bytes. */
  put(ref: MediaRef, source: MediaSource): Promise<number>;
  /** The object's bytes (those of `range` alone, when given) as a stream; not_found when the store holds no such object. */
  open(ref: MediaRef, range?: ByteRange): Promise<Readable>;
  /** The object's size in bytes, or undefined when the store holds no such object. */
  size(ref: MediaRef): Promise<number | undefined>;
  /** Removes the object (nothing when there is none). */
  remove(ref: MediaRef): Promise<void>;
  /** Where the store keeps the object: its key, derived from the reference alone. */
  keyOf(ref: MediaRef): string;
  /** Resolves when the objects can be reached; an `unavailable` DomainError naming the store otherwise. */
  check(): Promise<void>;
  /** Every object the store holds, with its age (for `media gc`); absent where objects are written with their records. */
  list?(): AsyncIterable<StoredObject>;
  /** Removes an object `list` named. */
  removeKey?(key: string): Promise<void>;
  /** A URL that serves the object without this program, where the store can sign one (an object store). */
  presign?(ref: MediaRef): Promise<PresignedObject>;
}

/** An object as `list` names it. */
export interface StoredObject {
  key: string;
  size: number;
  modified: Date;
}

/** A presigned GET of an object store's object. */
export interface PresignedObject {
  bucket: string;
  key: string;
  url: string;
  expires_at: string;
}

/** An object read whole (what a check compares; anything that serves an object streams it: FilePayload). */
export async function readObject(store: MediaObjectStore, ref: MediaRef): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of await store.open(ref)) parts.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(parts);
}

/** The SHA-256 (hex) of bytes read as a stream: a stored object (`store.open(ref)`) or one being received. */
export async function sha256Of(chunks: AsyncIterable<Uint8Array | string>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/** Whether the store holds the object. */
export const holds = (store: MediaObjectStore, ref: MediaRef): Promise<boolean> =>
  store.open(ref).then(
    (s) => {
      s.destroy();
      return true;
    },
    (e: unknown) => {
      if (e instanceof DomainError && e.code === 'not_found') return false;
      throw e;
    },
  );

const missing = (ref: MediaRef) =>
  new DomainError('not_found', `the file of media ${ref.media} is not in the media store`);

/** `<root>/training-media/<tenant hash>/<module>/<medium>.<format>`: every part an id, never a text from a row. */
export class FolderMediaObjects implements MediaObjectStore {
  constructor(readonly root: string) {}

  get location(): string {
    return this.root;
  }

  path(ref: MediaRef): string {
    return join(this.root, MEDIA_BUCKET, ...ref.parts);
  }

  keyOf(ref: MediaRef): string {
    return ref.key;
  }

  async check(): Promise<void> {}

  async size(ref: MediaRef): Promise<number | undefined> {
    const s = await stat(this.path(ref)).catch(() => undefined);
    return s?.isFile() ? s.size : undefined;
  }

  async remove(ref: MediaRef): Promise<void> {
    await rm(this.path(ref), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    const base = join(this.root, MEDIA_BUCKET);
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isFile()) continue;
      const path = join(e.parentPath, e.name);
      const s = await stat(path).catch(() => undefined);
      if (s) yield { key: relative(base, path).split(sep).join('/'), size: s.size, modified: s.mtime };
    }
  }

  async removeKey(key: string): Promise<void> {
    const base = join(this.root, MEDIA_BUCKET);
    const path = resolve(base, key);
    // only what list named: a path inside the bucket's folder
    if (!path.startsWith(base + sep)) throw new DomainError('bad_request', `not a media object: ${key}`);
    await rm(path, { force: true });
  }

  async put(ref: MediaRef, source: MediaSource): Promise<number> {
    const target = this.path(ref);
    makeFolder(dirname(target));
    if (typeof source === 'string') await rename(source, target).catch(() => copyFile(source, target));
    else {
      // written beside the object and moved over it once complete: a reader never sees half a file
      const part = `${target}.${process.pid}.part`;
      try {
        await pipeline(Readable.from(source), createWriteStream(part));
        await rename(part, target);
      } finally {
        await rm(part, { force: true });
      }
    }
    return (await stat(target)).size;
  }

  async open(ref: MediaRef, range?: ByteRange): Promise<Readable> {
    const path = this.path(ref);
    const s = await stat(path).catch(() => undefined);
    if (!s?.isFile()) throw missing(ref);
    return createReadStream(path, range);
  }

  /** The object whole: small enough for a test or a bundle. */
  read(ref: MediaRef): Promise<Buffer> {
    return readFile(this.path(ref)).catch(() => {
      throw missing(ref);
    });
  }
}

/** Objects are written in pieces of this size, so writing one never holds more than a piece in memory. */
export const MEDIA_CHUNK_BYTES = 1024 * 1024;

/** Media objects as rows of `media_object_chunk`, one per megabyte, inside the tenant's row-level security. */
export class DatabaseMediaObjects implements MediaObjectStore {
  readonly location = 'database';
  constructor(private readonly db: Kysely<DB>) {}

  keyOf(ref: MediaRef): string {
    return ref.key;
  }

  async check(): Promise<void> {}

  private chunks(ref: MediaRef) {
    return this.db
      .selectFrom('media_object_chunk')
      .where('tenant_id', '=', ref.tenant)
      .where('bucket', '=', MEDIA_BUCKET)
      .where('object_key', '=', ref.key);
  }

  async size(ref: MediaRef): Promise<number | undefined> {
    const row = await this.chunks(ref)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(eb.fn('length', ['data'])).as('bytes')])
      .executeTakeFirstOrThrow();
    return Number(row.n) === 0 ? undefined : Number(row.bytes);
  }

  async remove(ref: MediaRef): Promise<void> {
    await this.db
      .deleteFrom('media_object_chunk')
      .where('tenant_id', '=', ref.tenant)
      .where('bucket', '=', MEDIA_BUCKET)
      .where('object_key', '=', ref.key)
      .execute();
  }

  async put(ref: MediaRef, source: MediaSource): Promise<number> {
    if (typeof source === 'string') return this.putFile(ref, source);
    // a stream is spooled to a file first: the transaction may run again, and must read the bytes again
    const dir = await mkdtemp(join(tmpdir(), 'compliance-media-'));
    try {
      const file = join(dir, 'object');
      await pipeline(Readable.from(source), createWriteStream(file));
      return await this.putFile(ref, file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async putFile(ref: MediaRef, file: string): Promise<number> {
    const handle = await open(file, 'r');
    const where = { tenant_id: ref.tenant, bucket: MEDIA_BUCKET, object_key: ref.key };
    try {
      return await writeTransaction(this.db, async (trx) => {
        await trx
          .deleteFrom('media_object_chunk')
          .where('tenant_id', '=', where.tenant_id)
          .where('bucket', '=', where.bucket)
          .where('object_key', '=', where.object_key)
          .execute();
        let size = 0;
        for (let chunk = 0; ; chunk++) {
          const buffer = Buffer.alloc(MEDIA_CHUNK_BYTES);
          const { bytesRead } = await handle.read(buffer, 0, MEDIA_CHUNK_BYTES, size);
          if (bytesRead === 0) break;
          await trx
            .insertInto('media_object_chunk')
            .values({ ...where, chunk, data: buffer.subarray(0, bytesRead) })
            .execute();
          size += bytesRead;
        }
        return size;
      });
    } finally {
      await handle.close();
    }
  }

  async open(ref: MediaRef, range?: ByteRange): Promise<Readable> {
    // the pieces' sizes first: where each begins, and whether the object is there at all
    const pieces = await this.chunks(ref)
      .select((eb) => ['chunk', eb.fn<number>('length', ['data']).as('bytes')])
      .orderBy('chunk')
      .execute();
    if (pieces.length === 0) throw missing(ref);
    const wanted: Array<{ chunk: number; from: number; to: number }> = [];
    let at = 0;
    for (const p of pieces) {
      const bytes = Number(p.bytes);
      const from = Math.max((range?.start ?? 0) - at, 0);
      const to = Math.min((range?.end ?? Infinity) - at + 1, bytes);
      if (from < to) wanted.push({ chunk: p.chunk, from, to });
      at += bytes;
    }
    const chunks = () => this.chunks(ref);
    // the pieces are read as they are sent, after the request's handler returned: in its tenant's scope still
    const inScope = keepScope();
    // one piece at a time: a large video is never held whole
    return Readable.from(
      (async function* () {
        for (const w of wanted) {
          const row = await inScope(() => chunks().select('data').where('chunk', '=', w.chunk).executeTakeFirst());
          if (!row) throw missing(ref);
          const data = Buffer.from(row.data);
          yield w.from === 0 && w.to === data.length ? data : data.subarray(w.from, w.to);
        }
      })(),
    );
  }
}
