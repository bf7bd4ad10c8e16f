import { createReadStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ByteRange } from '../domain/byte-range.js';
import { DomainError } from '../domain/errors.js';
import type { MediaRef } from '../domain/training/media-ref.js';
import type { MediaObjectStore, MediaSource, PresignedObject, StoredObject } from './media-objects.js';
import type { S3Location } from '../domain/training/media-url.js';

const CONTENT_TYPES: Record<string, string> = { m4a: 'audio/mp4', mp4: 'video/mp4' };

/** Parts of a multipart upload: an upload holds at most `QUEUE` of them in memory, never the whole file. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE = 2;

const NOT_THERE = new Set(['NotFound', 'NoSuchKey']);

/**
 * Media in an S3-compatible object store (AWS S3, MinIO, Ceph, R2, …), through the AWS SDK: uploads stream in
 * parts (lib-storage), downloads are presigned GETs. A key is `PREFIX/<tenant hash>/media/<medium>.<format>`, made
 * from the MediaRef alone, so each tenant's objects sit under a prefix of their own and no row chooses one.
 */
export class S3MediaObjects implements MediaObjectStore {
  private readonly client: S3Client;

  constructor(private readonly at: S3Location) {
    // the SDK warns on every run under Node 20 about its releases of 2027; the pinned release runs here, and stderr
    // stays for this program's own messages (an operator may still turn the warning on)
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: at.region,
      ...(at.endpoint ? { endpoint: at.endpoint } : {}),
      forcePathStyle: at.pathStyle,
      // checksums only where S3 demands them: MinIO, R2 and older S3 servers refuse the newer trailing checksums
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      // a store that does not answer is an error within seconds, not a request that hangs
      requestHandler: { connectionTimeout: 3000, requestTimeout: 30000 },
    });
  }

  get location(): string {
    return `s3://${this.at.bucket}${this.at.prefix ? `/${this.at.prefix}` : ''}`;
  }

  keyOf(ref: MediaRef): string {
    const [tenant, , file] = ref.parts;
    return [this.at.prefix, tenant, 'media', file].filter(Boolean).join('/');
  }

  /** An SDK failure as the store's error: a missing object is not_found, anything else leaves the store unavailable. */
  private failure(e: unknown, what: string): DomainError {
    if (e instanceof DomainError) return e;
    const err = e as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const why = err.code ?? err.name ?? 'error';
    const detail = err.message && err.message !== why && err.message !== 'UnknownError' ? `: ${err.message}` : '';
    return new DomainError(
      'unavailable',
      `the media store ${this.location} cannot be used (${what}): ${why}${detail}`,
      [{ path: 'media', message: `${this.location}: ${why}` }],
    );
  }

  private missing(ref: MediaRef) {
    return new DomainError('not_found', `the file of media ${ref.media} is not in the media store`);
  }

  private isMissing(e: unknown): boolean {
    const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
    return NOT_THERE.has(err.name ?? '') || err.$metadata?.httpStatusCode === 404;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.at.bucket }));
    } catch (e) {
      const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (this.isMissing(e) || err.name === 'NoSuchBucket')
        throw new DomainError(
          'unavailable',
          `the media store ${this.location}: bucket ${this.at.bucket} does not exist`,
          [{ path: 'media', message: `bucket ${this.at.bucket} does not exist` }],
        );
      throw this.failure(e, `bucket ${this.at.bucket}`);
    }
  }

  async put(ref: MediaRef, source: MediaSource): Promise<number> {
    const body = typeof source === 'string' ? createReadStream(source) : Readable.from(source);
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (c: Buffer) => (size += c.length));
    const feeding = pipeline(body, counted);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.at.bucket,
        Key: this.keyOf(ref),
        Body: counted,
        ContentType: CONTENT_TYPES[ref.format] ?? 'application/octet-stream',
      },
      partSize: PART_BYTES,
      queueSize: QUEUE,
      // a failed or interrupted upload is aborted whole: no part stays behind, and no object is made
      leavePartsOnError: false,
    });
    try {
      // a source that fails ends the upload too, before anything is completed
      await Promise.all([upload.done(), feeding.catch(async (e: unknown) => Promise.reject(await abort(upload, e)))]);
    } catch (e) {
      throw this.failure(e, `storing ${this.keyOf(ref)}`);
    }
    return size;
  }

  async open(ref: MediaRef, range?: ByteRange): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.at.bucket,
          Key: this.keyOf(ref),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body as Readable;
    } catch (e) {
      if (this.isMissing(e)) throw this.missing(ref);
      throw this.failure(e, `reading ${this.keyOf(ref)}`);
    }
  }

  async size(ref: MediaRef): Promise<number | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.at.bucket, Key: this.keyOf(ref) }));
      return out.ContentLength ?? 0;
    } catch (e) {
      if (this.isMissing(e)) return undefined;
      throw this.failure(e, `reading ${this.keyOf(ref)}`);
    }
  }

  async remove(ref: MediaRef): Promise<void> {
    await this.removeKey(this.keyOf(ref));
  }

  async removeKey(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.at.bucket, Key: key }));
    } catch (e) {
      throw this.failure(e, `removing ${key}`);
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.at.bucket,
            ...(this.at.prefix ? { Prefix: `${this.at.prefix}/` } : {}),
            ContinuationToken: token,
          }),
        );
      } catch (e) {
        throw this.failure(e, 'listing objects');
      }
      for (const o of page.Contents ?? [])
        if (o.Key) yield { key: o.Key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async presign(ref: MediaRef): Promise<PresignedObject> {
    const key = this.keyOf(ref);
    // the object must be there (and the store reachable): a redirect to a missing object helps nobody
    if ((await this.size(ref)) === undefined) throw this.missing(ref);
    const seconds = this.at.presignMinutes * 60;
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.at.bucket, Key: key }), {
      expiresIn: seconds,
    });
    return { bucket: this.at.bucket, key, url, expires_at: new Date(Date.now() + seconds * 1000).toISOString() };
  }
}

async function abort(upload: Upload, e: unknown): Promise<unknown> {
  await upload.abort().catch(() => undefined);
  return e;
}
