import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bindHandlers } from '../../contract/bind.js';
import { bundlesContract } from '../../contract/bundles.contract.js';
import type { StreamBody } from '../../contract/operation.js';
import type { Clock } from '../../domain/clock.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import type { Store } from '../../store/store.js';
import { keepScope, type Scoped } from '../../store/tenant-scope.js';
import { exportBundle } from '../sync/bundle-export.js';
import { bundleTooLarge, importBundle } from '../sync/bundle.js';

/**
 * A bundle as the local backend receives it. In process (the CLI on a local store) the caller names the file, which
 * is read where it is; over HTTP only the stream travels, and it is kept in a temporary file while it is imported
 * (a bundle is checked whole before anything is written).
 */
export type BundleStream = StreamBody & { file?: string };

/** Each step of `source` runs in the scope `inScope` keeps: a stream the server sends after the handler returned. */
async function* within<T>(inScope: Scoped, source: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    for (;;) {
      const step = await inScope(() => source.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    // a reader that stopped early (a client that went away) ends the source too
    await inScope(() => source.return(undefined));
  }
}

/** `fn` on the file of the stream: the caller's own, or a temporary copy removed afterwards. */
async function onFile<T>(stream: BundleStream, max: number, fn: (file: string) => Promise<T>): Promise<T> {
  if (stream.file) return fn(stream.file);
  const dir = await mkdtemp(join(tmpdir(), 'compliance-bundle-'));
  try {
    const file = join(dir, 'bundle.zip');
    // a sender that goes on past what an import takes is stopped there, before the disk holds it
    let received = 0;
    const bounded = async function* (body: AsyncIterable<Uint8Array | string>) {
      for await (const chunk of body) {
        received += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
        if (received > max) throw bundleTooLarge('the bundle', 'the upload is', max);
        yield chunk;
      }
    };
    await pipeline(Readable.from(bounded(stream.body)), createWriteStream(file), { signal: stream.signal });
    return await fn(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Tenant bundles out and in, on the embedded store (and for `compliance serve`). */
export function createBundlesArea(store: Store, uow: UnitOfWork, clock: Clock, maxBytes: number) {
  return bindHandlers(bundlesContract, {
    export: async (r) => ({
      content_type: 'application/zip',
      body: within(keepScope(), exportBundle(store, uow, r.tenant, clock)),
    }),
    import: (r) => {
      const stream = r.stream as BundleStream;
      const target = { store, uow, tenant: r.tenant, rename: r.query.rename_tenant, actor: r.actor, clock, maxBytes };
      return onFile(stream, maxBytes, (file) => importBundle(target, file, stream.file ?? 'the bundle'));
    },
  });
}
