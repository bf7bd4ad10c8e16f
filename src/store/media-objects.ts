import { copyFile, open, readFile, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from './db-types.js';
import { makeFolder } from './make-folder.js';
import { writeTransaction } from './transaction.js';

/**
 * Where generated media (audio, video) live. On SQLite a folder beside the database file, as a laptop expects; on
 * PostgreSQL the database itself, so every `serve` replica can hand out any object, whichever replica made it.
 */
export interface MediaObjectStore {
  /** Takes the file at `file` (which may be moved away) as the object; answers its size in bytes. */
  put(tenant: string, bucket: string, key: string, file: string): Promise<number>;
  read(tenant: string, bucket: string, key: string): Promise<Buffer>;
}

/** `<root>/<bucket>/<object key>`; the key already carries a hash of the tenant. */
export class FolderMediaObjects implements MediaObjectStore {
  constructor(readonly root: string) {}

  path(bucket: string, key: string): string {
    return join(this.root, bucket, ...key.split('/'));
  }

  async put(_tenant: string, bucket: string, key: string, file: string): Promise<number> {
    const target = this.path(bucket, key);
    makeFolder(dirname(target));
    await rename(file, target).catch(() => copyFile(file, target));
    return (await stat(target)).size;
  }

  read(_tenant: string, bucket: string, key: string): Promise<Buffer> {
    return readFile(this.path(bucket, key));
  }
}

/** Objects are written in pieces of this size, so writing one never holds more than a piece in memory. */
export const MEDIA_CHUNK_BYTES = 1024 * 1024;

/** Media objects as rows of `media_object_chunk`, one per megabyte, inside the tenant's row-level security. */
export class DatabaseMediaObjects implements MediaObjectStore {
  constructor(private readonly db: Kysely<DB>) {}

  async put(tenant: string, bucket: string, key: string, file: string): Promise<number> {
    const handle = await open(file, 'r');
    try {
      return await writeTransaction(this.db, async (trx) => {
        const where = { tenant_id: tenant, bucket, object_key: key };
        await trx
          .deleteFrom('media_object_chunk')
          .where('tenant_id', '=', tenant)
          .where('bucket', '=', bucket)
          .where('object_key', '=', key)
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

  async read(tenant: string, bucket: string, key: string): Promise<Buffer> {
    const rows = await this.db
      .selectFrom('media_object_chunk')
      .select('data')
      .where('tenant_id', '=', tenant)
      .where('bucket', '=', bucket)
      .where('object_key', '=', key)
      .orderBy('chunk')
      .execute();
    if (rows.length === 0) throw new Error(`media object ${bucket}/${key} is missing from the database`);
    return Buffer.concat(rows.map((r) => Buffer.from(r.data)));
  }
}
