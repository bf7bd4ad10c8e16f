import * as z from 'zod';
import { MediaUploaded, PushBody, PushResult, SyncInfo } from '../domain/sync/sync.schema.js';
import { op } from './operation.js';

/**
 * Sync (our addition): a client pulls the tenant's changes from `GET /journal` and pushes its own here, each record
 * with the version it was derived from; the server applies what did not change meanwhile, in one transaction per
 * request, journaled like any change (principal sync:REPLICA), and answers the rest as conflicts.
 */
export const syncContract = {
  info: op({
    method: 'GET',
    path: '/sync/info',
    summary: 'What a sync client checks first: protocol, version and schema of the server, head of the journal',
    tenant: 'header',
    output: SyncInfo,
    status: 200,
  }),
  push: op({
    method: 'POST',
    path: '/sync/push',
    summary: 'Apply records changed on a client whose version here is the one they were derived from (our addition)',
    tenant: 'header',
    body: PushBody,
    output: PushResult,
    status: 200,
    scope: 'write',
    raises: ['conflict', 'not_found'],
  }),
  media: op({
    method: 'POST',
    path: '/sync/media/{mediaId}',
    summary:
      "The file behind a media record a client pushed, streamed: exactly the record's size_bytes, written once (our addition)",
    tenant: 'header',
    params: z.object({ mediaId: z.string().min(1) }),
    requestKind: 'stream',
    requestTypes: ['audio/mp4', 'video/mp4'],
    output: MediaUploaded,
    status: 200,
    scope: 'write',
    raises: ['conflict'],
  }),
};
