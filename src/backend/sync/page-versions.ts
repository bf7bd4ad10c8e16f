import type { Worker } from 'node:worker_threads';
import { DomainError } from '../../domain/errors.js';
import { rowsIn } from '../../domain/journal/changes.js';
import type { EntryChanges, FromHasher } from './version-worker.js';

/** Row changes below which a page is hashed in this thread: starting the worker costs more than it saves. */
const WORKER_FROM_ROWS = 500;

/**
 * The versions of the records pages of a server's journal change (SHA-256 of canonical JSON, a fifth of a clone's
 * time on one thread), computed in a worker thread while this one writes the page before: whenever the module is a
 * built .js file (the CLI) and a page is large. Tests on the TypeScript sources hash in this thread.
 */
export class PageVersions {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (v: Array<Array<string | null>>) => void; reject: (e: Error) => void }
  >();

  /** The versions of each entry's records, in the order `changesOf` lists them. */
  async of(entries: EntryChanges[]): Promise<Array<Array<string | null>>> {
    const hasher = await import('./version-worker.js');
    const rows = entries.reduce((n, e) => n + rowsIn(e), 0);
    if (rows < WORKER_FROM_ROWS || !hasher.HASHER_URL.endsWith('.js')) return hasher.entryVersions(entries);
    const worker = await this.start(hasher.HASHER_URL, hasher.HASHER_ROLE);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({
        id,
        entries: entries.map(({ entity, entity_id, op, data }) => ({ entity, entity_id, op, data })),
      });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private async start(url: string, role: string): Promise<Worker> {
    if (this.worker) return this.worker;
    const { Worker } = await import('node:worker_threads');
    if (this.worker) return this.worker;
    const worker = new Worker(new URL(url), { workerData: { role } });
    worker.on('message', (m: FromHasher) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if ('error' in m) w?.reject(new DomainError('internal', `hashing a page of the server's journal: ${m.error}`));
      else w?.resolve(m.versions);
    });
    const fail = (e: Error) => {
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new DomainError('internal', 'the thread hashing pulled records stopped')));
    this.worker = worker;
    return worker;
  }
}
