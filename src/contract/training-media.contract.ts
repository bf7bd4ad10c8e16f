import { z } from 'zod';
import { Media, MediaPublish, MediaUrl, SignedQuery, VideoScript } from '../domain/training/media.schema.js';
import { ModuleIdParams } from '../domain/training/training.schema.js';
import type { BinaryPayload } from './operation.js';
import { op } from './operation.js';

const H = 'header' as const;
const MediaId = z.object({ mediaId: z.string().min(1) });
const Binary = z.custom<BinaryPayload>();

/** Speech, video and the media store (spec 4.5 media routes; `download` and `object` are ours). */
export const trainingMediaContract = {
  generateAudio: op({
    method: 'POST',
    path: '/training/content/{moduleId}/generate-audio',
    summary: 'Speech of the published content (AAC in .m4a)',
    tenant: H,
    params: ModuleIdParams,
    body: z.object({}),
    output: Media,
    status: 201,
    raises: ['conflict'],
  }),
  generateVideo: op({
    method: 'POST',
    path: '/training/content/{moduleId}/generate-video',
    summary: 'Narrated slide video of the published content (MP4, H.264 + AAC)',
    tenant: H,
    params: ModuleIdParams,
    body: z.object({}),
    output: Media,
    status: 201,
    raises: ['conflict'],
  }),
  previewScript: op({
    method: 'POST',
    path: '/training/content/{moduleId}/preview-script',
    summary: 'The video script of the published content',
    tenant: H,
    params: ModuleIdParams,
    body: z.object({}),
    output: VideoScript,
    status: 200,
    raises: ['conflict'],
  }),
  list: op({
    method: 'GET',
    path: '/training/media/module/{moduleId}',
    summary: 'Media of a module',
    tenant: H,
    params: ModuleIdParams,
    output: z.array(Media),
    status: 200,
  }),
  url: op({
    method: 'GET',
    path: '/training/media/{mediaId}/url',
    summary: 'Bucket, object key and a signed URL valid for 15 minutes',
    tenant: H,
    params: MediaId,
    output: MediaUrl,
    status: 200,
  }),
  publish: op({
    method: 'POST',
    path: '/training/media/{mediaId}/publish',
    summary: 'Publish (published=true) or withdraw (false)',
    tenant: H,
    params: MediaId,
    body: MediaPublish,
    output: Media,
    status: 200,
  }),
  stream: op({
    method: 'GET',
    path: '/training/media/{mediaId}/stream',
    summary: '307 to a time-limited signed URL',
    tenant: H,
    params: MediaId,
    output: z.object({ location: z.string() }),
    responseKind: 'redirect',
    status: 200,
  }),
  download: op({
    method: 'GET',
    path: '/training/media/{mediaId}/download',
    summary: 'The media file',
    tenant: H,
    params: MediaId,
    output: Binary,
    responseKind: 'binary',
    status: 200,
    responseTypes: ['audio/mp4', 'video/mp4'],
  }),
  object: op({
    method: 'GET',
    path: '/training/media/{mediaId}/object',
    summary: 'The file behind a signed URL (no API key)',
    tenant: 'signed',
    public: true,
    params: MediaId,
    query: SignedQuery,
    output: Binary,
    responseKind: 'binary',
    status: 200,
    responseTypes: ['audio/mp4', 'video/mp4'],
  }),
};
