import { DomainError } from '../domain/errors.js';
import type { FilePayload } from './operation.js';

/**
 * A file's bytes, whole, as its payload reads them: a reading that ends before (or runs past) the size the file was
 * announced with fails naming both, so a download cut short is never kept as the file.
 */
export async function* wholeFile(file: FilePayload, what: string): AsyncIterable<Uint8Array> {
  let received = 0;
  for await (const chunk of await file.open()) {
    received += chunk.byteLength;
    yield chunk;
  }
  if (received !== file.size)
    throw new DomainError('unavailable', `${what} arrived with ${received} bytes of ${file.size}: try again`);
}
