import type { Kysely } from 'kysely';
import { DomainError } from '../domain/errors.js';
import type { DB } from './db-types.js';
import type { MediaObjectStore } from './media-objects.js';
import { OWN_MEDIA, parseMediaUrl, type MediaLocation } from '../domain/training/media-url.js';

/** The `setting` that records where a store's media live once `media move` has moved them (absent: its own place). */
export const MEDIA_URL_SETTING = 'media.url';

/** The media stores of an open store: where its media live, and any other place `media move` names. */
export interface MediaPlaces {
  /** Where media live: `--media`, else where `media move` last moved them, else the engine's own place. */
  objects(): Promise<MediaObjectStore>;
  /**
   * Where `media move` takes media from: `--media`, else the recorded home, else the engine's own place, with the
   * URL that names it (`default` for the own place); unlike `objects`, a --media the record contradicts is taken.
   */
  from(): Promise<{ url: string; objects: MediaObjectStore }>;
  /** The media store at `target` (an s3:// URL, or `default` for the engine's own place). */
  at(target: string, field: string): Promise<MediaObjectStore>;
  /** The URL the store records as the home of its media (undefined: its own place). */
  recorded(): Promise<string | undefined>;
  /** Records the new home of the store's media; a later command without --media finds them there. */
  record(url: string | undefined): Promise<void>;
}

/**
 * Chooses where media objects live, in one place for both engines: `own` is the engine's place (a folder, or
 * PostgreSQL's tables); an s3:// location loads the AWS SDK, only then.
 */
export function mediaPlaces(
  admin: Kysely<DB>,
  configured: MediaLocation | undefined,
  own: () => Promise<MediaObjectStore>,
): MediaPlaces {
  const opened = new Map<string, Promise<MediaObjectStore>>();
  const s3 = (at: MediaLocation) => {
    let p = opened.get(at.url);
    if (!p) {
      p = import('./s3-media-objects.js').then((m) => new m.S3MediaObjects(at));
      opened.set(at.url, p);
    }
    return p;
  };
  const recorded = async () =>
    (await admin.selectFrom('setting').select('value').where('key', '=', MEDIA_URL_SETTING).executeTakeFirst())?.value;
  return {
    async objects() {
      const home = await recorded().catch(() => undefined);
      if (configured && home !== undefined && home !== configured.url)
        throw new DomainError(
          'conflict',
          `the media of this store live in ${home} (moved there by media move), but --media / COMPLIANCE_MEDIA_URL says ${configured.url}: drop it, or move them with \`compliance media move --to ${configured.url}\``,
          [{ path: 'media', message: `this store's media live in ${home}` }],
        );
      if (configured) return s3(configured);
      if (home !== undefined) return s3(parseMediaUrl(home, 'the recorded media URL'));
      return own();
    },
    async from() {
      const url = configured?.url ?? (await recorded());
      return url === undefined
        ? { url: OWN_MEDIA, objects: await own() }
        : { url, objects: await this.at(url, '--media') };
    },
    async at(target, field) {
      return target === OWN_MEDIA ? own() : s3(parseMediaUrl(target, field));
    },
    recorded,
    async record(url) {
      if (url === undefined) await admin.deleteFrom('setting').where('key', '=', MEDIA_URL_SETTING).execute();
      else
        await admin
          .insertInto('setting')
          .values({ key: MEDIA_URL_SETTING, value: url })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: url }))
          .execute();
    },
  };
}

/** Whether a store's media can be reached, as `db status` and the health route report it. */
export interface MediaHealth {
  location: string;
  status: 'ok' | 'unavailable';
  message?: string;
}

/** Where the store's media live and whether they can be reached now (never throws for an unreachable store). */
export async function mediaHealth(store: { mediaObjects(): Promise<MediaObjectStore> }): Promise<MediaHealth> {
  let objects: MediaObjectStore | undefined;
  try {
    objects = await store.mediaObjects();
    await objects.check();
    return { location: objects.location, status: 'ok' };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { location: objects?.location ?? 'unknown', status: 'unavailable', message: e.message };
  }
}
