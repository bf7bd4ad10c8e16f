import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SDK_PREFIX, type FilePayload } from '../../contract/operation.js';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { conflict, DomainError, notFound } from '../../domain/errors.js';
import type { Media } from '../../domain/training/media.schema.js';
import type { Speech } from '../../services/speech/speech.js';
import type { TrainingMediaStore } from '../../domain/training/media.store.js';
import type { MediaObjectStore } from '../../store/media-objects.js';
import { keepScope } from '../../store/tenant-scope.js';
import { MEDIA_BUCKET, MediaRef } from '../../domain/training/media-ref.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

const URL_LIFETIME_S = 15 * 60;

/**
 * Audio and video of training modules, and time-limited signed URLs that the server serves itself. A medium's record
 * is written in a unit of work (journaled); its bytes are stored before, outside it: a unit of work may run more
 * than once, and an object whose record never committed is only unreachable.
 */
export class TrainingMediaService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: MediaObjectStore,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    private readonly speech: () => Promise<Speech>,
  ) {}

  /** The media records for reads outside a unit of work. */
  private get records(): TrainingMediaStore {
    return this.uow.read.trainingMedia;
  }

  private async module(tenant: string, moduleId: string) {
    const m = await this.records.module(tenant, moduleId);
    if (!m) throw notFound('training module', moduleId);
    return m;
  }

  private async published(tenant: string, moduleId: string) {
    const m = await this.module(tenant, moduleId);
    const c = await this.records.publishedContent(moduleId);
    if (!c) throw conflict(`module ${m.module_code} has no published content: generate and publish content first`);
    return { module: m, content: c };
  }

  async script(tenant: string, moduleId: string) {
    const { module, content } = await this.published(tenant, moduleId);
    const { videoScript } = await import('../../services/speech/video.js');
    return videoScript(content.markdown, module.title);
  }

  async generate(tenant: string, moduleId: string, kind: 'audio' | 'video'): Promise<Media> {
    const { module, content } = await this.published(tenant, moduleId);
    const language = content.language === 'en' ? 'en' : 'de';
    const work = await mkdtemp(join(tmpdir(), 'compliance-media-'));
    try {
      const speech = await this.speech();
      const { probe } = await import('../../services/speech/tools.js');
      let file: string;
      let contentType: string;
      if (kind === 'audio') {
        const { encodeAudio, speakableText } = await import('../../services/speech/speech.js');
        const wav = join(work, 'speech.wav');
        await speech.synthesize(speakableText(content.markdown), language, wav);
        file = join(work, 'audio.m4a');
        await encodeAudio(wav, file);
        contentType = 'audio/mp4';
      } else {
        const { renderVideo, videoScript } = await import('../../services/speech/video.js');
        file = join(work, 'video.mp4');
        await renderVideo(videoScript(content.markdown, module.title), language, speech, work, file);
        contentType = 'video/mp4';
      }
      const { duration } = await probe(file);
      const id = this.ids.next();
      const ref = MediaRef.of(tenant, module.id, id, kind);
      const size = await this.store.put(ref, file);
      const media: Media = {
        id,
        module_id: module.id,
        content_id: content.id,
        kind,
        bucket: MEDIA_BUCKET,
        object_key: ref.key,
        content_type: contentType,
        size_bytes: size,
        duration_seconds: Math.round(duration * 100) / 100,
        status: 'draft',
        created_at: isoZ(this.clock.now()),
        published_at: null,
      };
      await this.uow.write(tenant, async ({ trainingMedia }) => {
        // the module may have gone while the medium was made: no record then (its object stays unreachable)
        if (!(await trainingMedia.module(tenant, module.id))) throw notFound('training module', module.id);
        await trainingMedia.insert(tenant, media);
      });
      return media;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async list(tenant: string, moduleId: string): Promise<Media[]> {
    const rows = await this.records.list(tenant, moduleId);
    // no media: an unknown module is a 404, like on the other module routes
    if (rows.length === 0) await this.module(tenant, moduleId);
    return rows;
  }

  async get(tenant: string, id: string): Promise<Media> {
    const m = await this.records.get(tenant, id);
    if (!m) throw notFound('media', id);
    return m;
  }

  async setPublished(tenant: string, id: string, published: boolean): Promise<Media> {
    return this.uow.write(tenant, async ({ trainingMedia }) => {
      if (!(await trainingMedia.get(tenant, id))) throw notFound('media', id);
      const at = published ? isoZ(this.clock.now()) : null;
      await trainingMedia.setStatus(tenant, id, published ? 'published' : 'withdrawn', at);
      return (await trainingMedia.get(tenant, id))!;
    });
  }

  private async key(): Promise<Buffer> {
    return Buffer.from(await this.records.urlKey(() => randomBytes(32).toString('hex')), 'hex');
  }

  private async sign(tenant: string, id: string, expires: number): Promise<string> {
    return createHmac('sha256', await this.key())
      .update(`${tenant}\n${id}\n${expires}`)
      .digest('hex');
  }

  /**
   * A URL that needs no API key: a presigned GET of the object store where media live in one (valid for its
   * `presign_minutes`, 15 by default), else one of this server, relative to it, valid for 15 minutes.
   */
  async signedUrl(tenant: string, id: string) {
    const m = await this.get(tenant, id);
    if (this.store.presign) {
      const o = await this.store.presign(MediaRef.of(tenant, m.module_id, m.id, m.kind));
      const { content_type, size_bytes } = m;
      return {
        id,
        bucket: o.bucket,
        object_key: o.key,
        content_type,
        size_bytes,
        url: o.url,
        expires_at: o.expires_at,
      };
    }
    const expires = Math.floor(this.clock.now().getTime() / 1000) + URL_LIFETIME_S;
    const sig = await this.sign(tenant, id, expires);
    const url = `${SDK_PREFIX}/training/media/${encodeURIComponent(id)}/object?tenant=${encodeURIComponent(tenant)}&expires=${expires}&sig=${sig}`;
    return {
      id,
      bucket: m.bucket,
      object_key: m.object_key,
      content_type: m.content_type,
      size_bytes: m.size_bytes,
      url,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** The bytes behind a signed URL; a wrong signature or an expired URL is refused (403). */
  async object(tenant: string, id: string, q: { expires: string; sig: string }) {
    const expires = Number(q.expires);
    const expected = Buffer.from(await this.sign(tenant, id, expires), 'hex');
    const given = Buffer.from(/^[0-9a-f]{64}$/.test(q.sig) ? q.sig : '', 'hex');
    if (!Number.isInteger(expires) || given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new DomainError('forbidden', 'the media URL is not valid (wrong signature)');
    if (expires < Math.floor(this.clock.now().getTime() / 1000))
      throw new DomainError('forbidden', 'the media URL has expired: ask for a new one');
    return this.download(tenant, id);
  }

  /**
   * The file of a medium, found by its record's ids (never by the location its row names): its size from the media
   * store, its bytes read from there as they are sent.
   */
  async download(tenant: string, id: string): Promise<FilePayload> {
    const m = await this.get(tenant, id);
    const ref = MediaRef.of(tenant, m.module_id, m.id, m.kind);
    const size = await this.store.size(ref);
    if (size === undefined) throw new DomainError('not_found', `the file of media ${m.id} is not in the media store`);
    // read as it is sent, once the handler has returned: in this request's scope (PostgreSQL's row-level security)
    const inScope = keepScope();
    return {
      content_type: m.content_type,
      filename: ref.parts[2],
      size,
      // a medium's id names one file for good: a new rendering is a new medium
      etag: `"${m.id}.${size}"`,
      open: (range) => inScope(() => this.store.open(ref, range)),
    };
  }
}
