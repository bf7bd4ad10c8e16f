import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { changesOf } from '../../domain/journal/changes.js';
import { versionOf } from '../../domain/sync/version.js';

/** What a worker needs of a journal entry to list the records it changes. */
export type EntryChanges = { entity: string; entity_id: string; op: string; data: unknown };

/** The version of each record an entry changes, in the order `changesOf` lists them (null: deleted). */
export const entryVersions = (entries: EntryChanges[]): Array<Array<string | null>> =>
  entries.map((e) => changesOf(e).map((c) => versionOf(c.row)));

/** Messages between a pull and its hashing thread. */
export type ToHasher = { id: number; entries: EntryChanges[] };
export type FromHasher = { id: number; versions: Array<Array<string | null>> } | { id: number; error: string };

/** This module's own file, for starting it as a worker (only a built .js file can be; tests run the .ts sources). */
export const HASHER_URL = import.meta.url;
export const HASHER_ROLE = 'compliance-sync-versions';

// Started as a worker thread: one answer per page of entries, in the order they came.
if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === HASHER_ROLE) {
  const port = parentPort;
  port.on('message', (m: ToHasher) => {
    try {
      port.postMessage({ id: m.id, versions: entryVersions(m.entries) } satisfies FromHasher);
    } catch (e) {
      port.postMessage({ id: m.id, error: (e as Error).message ?? String(e) } satisfies FromHasher);
    }
  });
}
