import { DomainError } from '../errors.js';

/** The one form a media URL takes, for messages. */
export const MEDIA_URL_FORM = 's3://BUCKET[/PREFIX]?endpoint=URL&region=R&path_style=true&presign_minutes=15';

/** Minutes a presigned GET is valid unless the URL says (`presign_minutes`). */
export const DEFAULT_PRESIGN_MINUTES = 15;

/** Where media live when a store keeps them in an S3-compatible object store (`--media s3://…`). */
export interface S3Location {
  kind: 's3';
  bucket: string;
  /** Folders before every key, without a slash at either end; '' for none. */
  prefix: string;
  /** The object store's address (MinIO, R2, …); absent for AWS itself. */
  endpoint?: string;
  region: string;
  pathStyle: boolean;
  presignMinutes: number;
  /** The URL as given, for messages, `db status` and the store's record of where its media live. */
  url: string;
}

export type MediaLocation = S3Location;

const PARAMS = ['endpoint', 'region', 'path_style', 'presign_minutes'] as const;
// S3's rules for a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const REGION = /^[a-z0-9-]{1,40}$/;

function refuse(field: string, problem: string, allowed: string): never {
  throw new DomainError('bad_request', `${field}: ${problem}; expected ${MEDIA_URL_FORM}`, [
    { path: field, message: allowed },
  ]);
}

/**
 * The media URL of `--media` or COMPLIANCE_MEDIA_URL (named by `field` in errors), parsed without loading the AWS
 * SDK. Credentials never travel in it: they come from the SDK's own chain (environment, profile, instance role).
 */
export function parseMediaUrl(text: string, field = '--media'): MediaLocation {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    refuse(field, `"${text}" is not a URL`, MEDIA_URL_FORM);
  }
  if (u.protocol !== 's3:') refuse(field, `unsupported scheme "${u.protocol}//"`, 'the scheme s3://');
  if (u.username || u.password)
    refuse(
      field,
      'credentials do not belong in the URL (they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile or an instance role)',
      'a URL without user:password@',
    );
  const bucket = u.hostname;
  if (!BUCKET.test(bucket) || bucket.includes('..') || u.port)
    refuse(
      field,
      `bucket "${u.host}" is not a bucket name`,
      'bucket: 3 to 63 lower-case letters, digits, dots and hyphens',
    );
  const segments = decodeURIComponent(u.pathname).split('/').filter(Boolean);
  const bad = segments.find((s) => !SEGMENT.test(s));
  if (bad !== undefined)
    refuse(field, `prefix part "${bad}" is not allowed`, 'prefix: folders of letters, digits, ., _ and -');
  if (u.hash) refuse(field, 'a URL fragment (#…) is not allowed', MEDIA_URL_FORM);
  for (const key of u.searchParams.keys())
    if (!(PARAMS as readonly string[]).includes(key))
      refuse(field, `unknown parameter "${key}"`, `parameters: ${PARAMS.join(', ')}`);
  const param = (name: (typeof PARAMS)[number]) => {
    const all = u.searchParams.getAll(name);
    if (all.length > 1) refuse(field, `parameter ${name} is given ${all.length} times`, `${name} once`);
    return all[0];
  };
  const endpoint = param('endpoint');
  if (endpoint !== undefined) {
    let e: URL | undefined;
    try {
      e = new URL(endpoint);
    } catch {
      e = undefined;
    }
    if (!e || (e.protocol !== 'http:' && e.protocol !== 'https:'))
      refuse(field, `endpoint "${endpoint}" is not an http:// or https:// URL`, 'endpoint: http(s)://host[:port]');
    if (e.username || e.password)
      refuse(
        field,
        'credentials do not belong in the endpoint',
        'endpoint: http(s)://host[:port] without user:password@',
      );
  }
  const region = param('region') ?? 'us-east-1';
  if (!REGION.test(region))
    refuse(field, `region "${region}" is not a region name`, 'region: such as eu-central-1, auto');
  const pathStyle = param('path_style') ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false')
    refuse(field, `path_style "${pathStyle}" is not true or false`, 'path_style: true or false');
  const minutes = param('presign_minutes') ?? String(DEFAULT_PRESIGN_MINUTES);
  // S3 signs a GET for at most seven days
  if (!/^\d{1,5}$/.test(minutes) || Number(minutes) < 1 || Number(minutes) > 10080)
    refuse(field, `presign_minutes "${minutes}" is out of range`, 'presign_minutes: a whole number from 1 to 10080');
  return {
    kind: 's3',
    bucket,
    prefix: segments.join('/'),
    ...(endpoint === undefined ? {} : { endpoint: endpoint.replace(/\/+$/, '') }),
    region,
    pathStyle: pathStyle === 'true',
    presignMinutes: Number(minutes),
    url: text,
  };
}

/** The word `media move --to` takes for the store's own place: the folder beside SQLite, or PostgreSQL's tables. */
export const OWN_MEDIA = 'default';
