import { DomainError } from '../domain/errors.js';
import type { FilePayload } from './operation.js';

/**
 * A file's bytes, whole, as its payload reads them: a reading that is cut off, or ends before (or runs past) the size
 * the file was announced with, fails saying how far it got, so a download cut short is never kept as the file.
 */
export async function* wholeFile(file: FilePayload, what: string): AsyncIterable<Uint8Array> {
  let received = 0;
  const upTo = () => `after ${received} bytes of ${file.size}`;
  try {
    for await (const chunk of await file.open()) {
      received += chunk.byteLength;
      yield chunk;
    }
  } catch (e) {
    // how far it got, before what stopped it (the connection, the store), with that failure's code
    const code = e instanceof DomainError ? e.code : 'unavailable';
    const why = e instanceof DomainError ? e.message : `the connection closed (${(e as Error)?.message ?? String(e)})`;
    throw new DomainError(code, `${what} was cut off ${upTo()}: ${why}`);
  }
  if (received !== file.size) throw new DomainError('unavailable', `${what} ended ${upTo()}: try again`);
}
