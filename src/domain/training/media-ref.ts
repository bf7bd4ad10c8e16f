import { nodeCrypto } from '../node-crypto.js';
import { DomainError } from '../errors.js';

/** The bucket every training medium is stored in. */
export const MEDIA_BUCKET = 'training-media';

/** The file format of each kind of medium. */
export const MEDIA_FORMATS = { audio: 'm4a', video: 'mp4' } as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[keyof typeof MEDIA_FORMATS];

/** An id as the stores make them (UUIDs): letters, digits, `-` and `_`; never a dot or a slash. */
const ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

/**
 * Where a medium's bytes live, made from ids the store holds and checked as ids: the tenant (hashed), the module and
 * the medium, and the format of its kind. A media store is addressed by this alone, never by a text from a row or a
 * request, so no address can lead out of the store.
 */
export class MediaRef {
  private constructor(
    readonly tenant: string,
    readonly module: string,
    readonly media: string,
    readonly format: MediaFormat,
  ) {}

  /** The reference of a medium, or a validation error naming the id that is not one. */
  static of(tenant: string, module: string, media: string, kind: string): MediaRef {
    const format = Object.hasOwn(MEDIA_FORMATS, kind) ? MEDIA_FORMATS[kind as keyof typeof MEDIA_FORMATS] : undefined;
    const bad = !ID.test(module)
      ? ['module_id', module]
      : !ID.test(media)
        ? ['id', media]
        : !format
          ? ['kind', kind]
          : null;
    if (bad)
      throw new DomainError(
        'validation',
        `training media: ${bad[0]} ${JSON.stringify(bad[1])} is not an id of this store`,
        [{ path: bad[0]!, message: bad[0] === 'kind' ? 'one of audio, video' : 'letters, digits, - and _' }],
      );
    return new MediaRef(tenant, module, media, format!);
  }

  /** The folder of the tenant's media: the first 16 hex digits of the SHA-256 of its id. */
  get tenantFolder(): string {
    return nodeCrypto().hash('sha256', this.tenant, 'hex').slice(0, 16);
  }

  /** The object's key inside the bucket, as a medium's record names it (`object_key`). */
  get key(): string {
    return `${this.tenantFolder}/${this.module}/${this.media}.${this.format}`;
  }

  /** The key's parts, each a single folder or file name. */
  get parts(): [string, string, string] {
    return [this.tenantFolder, this.module, `${this.media}.${this.format}`];
  }
}
