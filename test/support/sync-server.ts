import { afterAll, beforeAll } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { freshStore, startServer } from './helpers.js';

/** The server the sync tests sync with: its backend (to arrange and compare records), its URL and a key. */
export interface SyncServer {
  server: LocalBackend;
  url: string;
  key: string;
  /** The requests the server answered, one log line each (see startServer). */
  logs: string[];
}

/**
 * Before the suite's tests, starts a real server on 127.0.0.1 over a fresh store of `engine`, with a key, and hands it
 * to `use`; after them, stops it.
 */
export function withSyncServer(engine: 'sqlite' | 'postgres', use: (s: SyncServer) => void): void {
  let server: LocalBackend | undefined;
  let srv: Awaited<ReturnType<typeof startServer>> | undefined;
  beforeAll(async () => {
    server = await createLocalBackend(await freshStore(engine));
    srv = await startServer(server);
    use({ server, url: srv.url, key: (await (await server.keys()).create('sync')).key, logs: srv.logs });
  });
  afterAll(async () => {
    await srv?.close();
    await server?.close();
  });
}

/** Works on a laptop's store while no command has it open. */
export async function onLaptop<R>(db: string, fn: (b: LocalBackend) => Promise<R>): Promise<R> {
  const b = await createLocalBackend(db);
  try {
    return await fn(b);
  } finally {
    await b.close();
  }
}
