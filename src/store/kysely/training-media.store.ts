import type { Kysely } from 'kysely';
import type { Media } from '../../domain/training/media.schema.js';
import type { MediaContent, MediaModule, TrainingMediaStore } from '../../domain/training/media.store.js';
import type { DB } from '../db-types.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

const URL_KEY = 'media_url_key';

/**
 * TrainingMediaStore written once with kysely's builders: the same queries on SQLite and PostgreSQL. Each write tells
 * the journal the media row it changed, as RETURNING answers it; the bytes are a MediaObjectStore's, and not journaled.
 */
export class KyselyTrainingMediaStore implements TrainingMediaStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  module(tenant: string, moduleId: string): Promise<MediaModule | undefined> {
    return this.db
      .selectFrom('training_module')
      .select(['id', 'module_code', 'title'])
      .where('tenant_id', '=', tenant)
      .where('id', '=', moduleId)
      .executeTakeFirst();
  }

  publishedContent(moduleId: string): Promise<MediaContent | undefined> {
    return this.db
      .selectFrom('training_content')
      .select(['id', 'markdown', 'language'])
      .where('module_id', '=', moduleId)
      .where('status', '=', 'published')
      .executeTakeFirst();
  }

  async insert(tenant: string, media: Media): Promise<void> {
    const rows = await this.db
      .insertInto('training_media')
      .values({ ...media, tenant_id: tenant })
      .returningAll()
      .execute();
    for (const r of rows) this.journal.put('training_media', r.id, r, 'insert');
  }

  async list(tenant: string, moduleId: string): Promise<Media[]> {
    const rows = await this.db
      .selectFrom('training_media')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(({ tenant_id: _t, ...m }) => m as Media);
  }

  async get(tenant: string, id: string): Promise<Media | undefined> {
    const r = await this.db
      .selectFrom('training_media')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r) return undefined;
    const { tenant_id: _t, ...m } = r;
    return m as Media;
  }

  async setStatus(tenant: string, id: string, status: Media['status'], publishedAt: string | null): Promise<void> {
    const rows = await this.db
      .updateTable('training_media')
      .set({ status, published_at: publishedAt })
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returningAll()
      .execute();
    for (const r of rows) this.journal.put('training_media', r.id, r, 'update');
  }

  /**
   * Not journaled, like every row of `setting`: the key belongs to the store, not to a tenant, and it is a secret
   * that signs every tenant's URLs; a tenant's journal (a change feed others read) must not carry it. Made on a
   * store's first signed URL, which is a read: it may be called outside any unit of work.
   */
  async urlKey(generate: () => string): Promise<string> {
    const read = () => this.db.selectFrom('setting').select('value').where('key', '=', URL_KEY).executeTakeFirst();
    const row = await read();
    if (row) return row.value;
    // two replicas that make one at once keep the first: the second insert does nothing, and both read it back
    await this.db
      .insertInto('setting')
      .values({ key: URL_KEY, value: generate() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await read())!.value;
  }
}
