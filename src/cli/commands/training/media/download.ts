import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../../../domain/errors.js';
import { openOutputFile, outputFileError } from '../../../output-file.js';

/**
 * Downloads a medium from the presigned URL of its object store straight into `output`, a piece at a time: written
 * beside it and moved over it once it is whole and of the record's size, so a broken download leaves no file.
 */
export async function downloadPresigned(url: string, output: string, size: number): Promise<number> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new DomainError('unavailable', `the media store cannot be reached: ${(e as Error).message}`);
  }
  if (!res.ok || !res.body)
    throw new DomainError('unavailable', `the media store answered ${res.status} ${res.statusText} to the download`);
  const part = `${output}.part`;
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      count,
      await openOutputFile(part),
    );
    if (received !== size)
      throw new DomainError('unavailable', `the media store sent ${received} bytes of a file of ${size}: try again`);
    await rename(part, output).catch((e: unknown) => {
      throw outputFileError(output, e);
    });
    return received;
  } finally {
    await rm(part, { force: true });
  }
}
