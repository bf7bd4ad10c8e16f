import { Worker } from 'node:worker_threads';
import type { BatchResult, BatchValue, ConsentImportWriter, ImportWriterOptions } from '../consent-import-rows.js';
import type { ConsentBatchWriter, FromWriter, ToWriter, WriterOptions } from './consent-import-writer.js';
import { storageError } from './sqlite-errors.js';
import { checkProgramFile, startsThreads } from './thread-roles.js';

/** The writer in this thread (tests on the TypeScript sources): each piece is written as it comes. */
class InThreadWriter implements ConsentImportWriter {
  constructor(
    private readonly writer: ConsentBatchWriter,
    private readonly onBatch: (r: BatchResult) => void,
  ) {}
  post(rows: BatchValue[]): void {
    const r = this.writer.add(rows);
    if (r) this.onBatch(r);
  }
  ready(): Promise<void> {
    return Promise.resolve();
  }
  async finish(): Promise<void> {
    const r = this.writer.finish();
    if (r) this.onBatch(r);
  }
  async abort(): Promise<void> {
    this.writer.close();
  }
}

const writerError = (m: { message: string; code?: string }) =>
  Object.assign(new Error(m.message), m.code ? { code: m.code } : {});

/**
 * Parsing and validating (JavaScript) and writing (SQLite) take about the same time per row, so the writer runs in a
 * worker thread and the two overlap. Rows travel as flat arrays of primitives, cheap to copy between threads.
 */
class WorkerWriter implements ConsentImportWriter {
  private inflight = 0;
  private closed = false;
  private error: unknown;
  private waiters: Array<() => void> = [];
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    private readonly batchPieces: number,
    onBatch: (r: BatchResult) => void,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (m: FromWriter) => {
      if (m.type === 'done') {
        this.inflight -= m.pieces;
        const { type: _t, ...result } = m;
        try {
          onBatch(result);
        } catch (e) {
          this.error ??= e;
        }
      } else if (m.type === 'error') this.error ??= writerError(m);
      else if (m.type === 'closed') this.closed = true;
      this.wake();
    });
    worker.on('error', (e) => {
      this.error ??= e;
      this.wake();
    });
    void this.exited.then(() => {
      if (!this.closed) this.error ??= new Error('the import writer stopped unexpectedly');
      this.wake();
    });
  }

  static async start(
    url: string,
    role: string,
    options: WriterOptions,
    onBatch: (r: BatchResult) => void,
  ): Promise<WorkerWriter> {
    // small heap limits make the writer collect garbage early (rows arrive in pieces and die young); a transaction
    // holds at most 10 pieces of 256K characters, far below the limit (measured: 172 MB peak for 1M rows, 207 MB without)
    const worker = new Worker(new URL(url), {
      workerData: { role, options },
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 48 },
    });
    const first = await new Promise<FromWriter | Error>((resolve) => {
      worker.once('message', resolve);
      worker.once('error', resolve);
    });
    if (first instanceof Error || first.type === 'error') {
      await worker.terminate();
      throw first instanceof Error ? first : writerError(first);
    }
    return new WorkerWriter(worker, options.batchPieces, onBatch);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  post(rows: BatchValue[]): void {
    if (this.error) throw this.error;
    this.inflight++;
    this.worker.postMessage({ type: 'rows', rows } satisfies ToWriter);
  }

  async ready(): Promise<void> {
    while (!this.error && this.inflight >= 2 * this.batchPieces) await new Promise<void>((r) => this.waiters.push(r));
    if (this.error) throw this.error;
  }

  async finish(): Promise<void> {
    this.worker.postMessage({ type: 'end' } satisfies ToWriter);
    await this.exited;
    if (this.error) throw this.error;
  }

  async abort(): Promise<void> {
    // the writer finishes the transaction in hand (one is never left half done), then closes the database
    this.worker.postMessage({ type: 'abort' } satisfies ToWriter);
    const timer = setTimeout(() => void this.worker.terminate(), 60_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The SQLite import writer: in a worker thread (the built CLI and server) or in this thread (tests on the sources). */
export async function openSqliteImportWriter(
  file: string,
  options: ImportWriterOptions,
  onBatch: (r: BatchResult) => void,
): Promise<ConsentImportWriter> {
  const { ConsentBatchWriter, WRITER_ROLE, WRITER_URL } = await import('./consent-import-writer.js');
  const sqliteOptions: WriterOptions = { ...options, file };
  const threaded = startsThreads(WRITER_URL);
  // before the store's own errors: a program file replaced under this process is no storage error
  if (threaded) checkProgramFile();
  try {
    return threaded
      ? await WorkerWriter.start(WRITER_URL, WRITER_ROLE, sqliteOptions, onBatch)
      : new InThreadWriter(new ConsentBatchWriter(sqliteOptions), onBatch);
  } catch (e) {
    throw storageError(file, e);
  }
}
