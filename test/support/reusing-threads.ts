// The pool of the mutation run (vitest.mutation.config.ts): vitest's worker threads, except that a thread which has
// only run mutants of function bodies is kept for the next such mutant instead of being ended with its run.
import { ThreadsPoolWorker, type PoolOptions, type PoolWorker, type WorkerRequest } from 'vitest/node';

/**
 * Stryker's vitest runner starts one vitest run per mutant, and vitest ends a run's worker thread when its queue is
 * empty, so every mutant paid for a fresh thread importing the rules, the store and the server again (350–450 ms of
 * the 0.5–0.7 s a mutant took). A mutant of a function body is switched on at run time (Stryker's setup file sets it
 * in `beforeAll`), so modules evaluated for an earlier mutant serve it as well as fresh ones. A mutant of module-level
 * code needs its modules evaluated with it active: such a run, and the initial run that records coverage, get a
 * thread of their own that ends with them, as before.
 *
 * A kept thread is ended after RECYCLE runs, because vitest's worker adds a listener for every run it is started for.
 */
const RECYCLE = 200;

/** The thread kept between runs of this Stryker worker process (each runs one vitest run at a time). */
let kept: { thread: ThreadsPoolWorker; runs: number } | undefined;

type Listener = (arg: unknown) => void;

export class ReusingThreadsWorker implements PoolWorker {
  readonly name = 'reusing-threads';
  private readonly reusable: boolean;
  private readonly listeners: { event: string; callback: Listener }[] = [];
  private thread: ThreadsPoolWorker | undefined;
  private runs = 0;

  constructor(private readonly options: PoolOptions) {
    const provided = options.project.getProvidedContext();
    this.reusable = provided.mode === 'mutant' && provided.mutantActivation === 'runtime';
  }

  async start(): Promise<void> {
    if (this.reusable && kept) {
      ({ thread: this.thread, runs: this.runs } = kept);
      kept = undefined;
      return;
    }
    if (kept) await kept.thread.stop();
    kept = undefined;
    this.thread = new ThreadsPoolWorker(this.options);
    await this.thread.start();
  }

  async stop(): Promise<void> {
    const thread = this.current();
    if (this.reusable && this.runs + 1 < RECYCLE) {
      for (const { event, callback } of this.listeners.splice(0)) thread.off(event, callback);
      kept = { thread, runs: this.runs + 1 };
      return;
    }
    await thread.stop();
  }

  send(message: WorkerRequest): void {
    // a kept thread is not told to tear down: vitest waits for its answer, which is given here instead
    if (this.reusable && this.runs + 1 < RECYCLE && message.type === 'stop') {
      const stopped = { type: 'stopped', __vitest_worker_response__: true };
      const onMessage = this.listeners.filter((l) => l.event === 'message');
      queueMicrotask(() => onMessage.forEach((l) => l.callback(stopped)));
      return;
    }
    this.current().send(message);
  }

  on(event: string, callback: Listener): void {
    this.listeners.push({ event, callback });
    this.current().on(event, callback);
  }

  off(event: string, callback: Listener): void {
    const i = this.listeners.findIndex((l) => l.event === event && l.callback === callback);
    if (i !== -1) this.listeners.splice(i, 1);
    this.current().off(event, callback);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private current(): ThreadsPoolWorker {
    if (!this.thread) throw new Error('reusing-threads: the worker thread was not started');
    return this.thread;
  }
}
