import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorBody } from '../contract/errors.js';
import type { FilePayload } from '../contract/operation.js';
import { DomainError } from '../domain/errors.js';
import { requestedRange } from './byte-range.js';
import { send } from './json-answer.js';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Sends a stored file a piece at a time, whole (`status`) or the one byte range its `Range` header asks for (206
 * with Content-Range); a range that starts past the end is a 416 saying the file's size. The file is opened before
 * the status line is written, so a file that is gone is still a 404 with its JSON body.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  file: FilePayload,
): Promise<number> {
  const asked = requestedRange(one(req.headers.range), one(req.headers['if-range']), file.size, file.etag);
  const common = {
    'accept-ranges': 'bytes',
    etag: file.etag,
    ...(file.filename ? { 'content-disposition': `attachment; filename="${file.filename.replace(/"/g, '')}"` } : {}),
  };
  if (asked.kind === 'unsatisfiable') {
    const e = new DomainError(
      'bad_request',
      `the range ${one(req.headers.range)} lies outside the file: it has ${file.size} bytes (the first is byte 0)`,
      [{ path: 'Range', message: `expected bytes=FIRST-LAST, bytes=FIRST- or bytes=-COUNT within ${file.size} bytes` }],
    );
    send(res, 416, errorBody(e), { 'content-range': `bytes */${file.size}`, ...common });
    return 416;
  }
  const range = asked.kind === 'part' ? asked.range : undefined;
  const head = req.method === 'HEAD';
  // HEAD: the headers alone, the file not read
  const body = head ? undefined : await file.open(range);
  const length = range ? range.end - range.start + 1 : file.size;
  res.writeHead(range ? 206 : status, {
    'content-type': file.content_type,
    'content-length': length,
    ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${file.size}` } : {}),
    ...common,
  });
  if (!body) {
    res.end();
    return range ? 206 : status;
  }
  try {
    await pipeline(Readable.from(body), res);
  } catch (e) {
    // the client went away, or the store failed after the status line was sent: all that is left is to cut it short
    res.destroy(e as Error);
  }
  return range ? 206 : status;
}
