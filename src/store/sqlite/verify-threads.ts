import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { runVerifyJob, type VerifyJob, type VerifyResult, type VerifyThreads } from '../journal/verify-jobs.js';
import { nativeBinding } from './native-binding.js';
import { checkProgramFile, startsThreads, VERIFY_READER as ROLE } from './thread-roles.js';

/** The file a worker thread starts: built, the program's loader, which hands the thread its role (store/worker-threads.ts). */
const URL_OF_THIS = import.meta.url;

/**
 * A verification's reading in worker threads, each opening the store's file again, read-only (WAL lets readers run
 * beside each other and beside a writer). Undefined for a store in memory, which no other connection can open.
 */
export function sqliteVerifyThreads(file: string): VerifyThreads | undefined {
  if (file === ':memory:') return undefined;
  return {
    run: (job) => (startsThreads(URL_OF_THIS) ? runInWorker(file, job) : Promise.resolve(undefined)),
  } as VerifyThreads;
}

function runInWorker(file: string, job: VerifyJob): Promise<VerifyResult> {
  return new Promise((resolve, reject) => {
    checkProgramFile();
    const worker = new Worker(new URL(URL_OF_THIS), { workerData: { role: ROLE, file, job } });
    worker.once('message', (r: VerifyResult | { error: string }) =>
      'error' in r ? reject(new Error(r.error)) : resolve(r),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`a verification thread stopped (exit code ${code})`)));
  });
}

// Started as a worker thread: run the job's statement on a connection of its own and hand back what it found.
if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === ROLE) {
  const { file, job } = workerData as { file: string; job: VerifyJob };
  let result: VerifyResult | { error: string };
  const db = new Database(file, { readonly: true, fileMustExist: true, ...nativeBinding() });
  try {
    result = runVerifyJob(job, {
      rows: (s) => {
        const statement = db.prepare(s.sql).raw(true);
        const columns = statement.columns().map((c) => c.name);
        return { columns, rows: statement.iterate(...s.parameters) as Iterable<unknown[]> };
      },
      // a deferred transaction: its snapshot is taken at its first read, and writers go on beside it (WAL)
      snapshot: (fn) => db.transaction(fn)(),
    });
  } catch (e) {
    // a statement the engine cannot answer (a trail value stored as a blob, which JSON cannot hold): the caller
    // reads that part on its own thread
    result = { ok: false };
    if (!(e instanceof Database.SqliteError)) result = { error: (e as Error).message ?? String(e) };
  } finally {
    db.close();
  }
  parentPort.postMessage(result);
}
