/**
 * Runs work of one key at a time, in arrival order, within this process; work of other keys runs alongside. The
 * journal takes it before a database connection, so writers of one busy tenant queue here without holding
 * connections of the pool that other tenants need.
 */
export class KeyedMutex {
  /** Per key, the last work queued: it settles with its failure (undefined when it succeeded). */
  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `fn` once the work queued before it has ended. When that work failed and `passOn` turns its failure (which
   * may be an error `passOn` made for the work before it) into an error, `fn` is not run and fails with that error:
   * work that waited behind a database that does not answer answers when the work before it does, instead of
   * waiting out a timeout of its own after it.
   */
  async run<T>(key: string, fn: () => Promise<T>, passOn?: (failure: unknown) => Error | undefined): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve(undefined);
    const mine = before.then((failure) => {
      const passed = failure === undefined ? undefined : passOn?.(failure);
      if (passed) throw passed;
      return fn();
    });
    const tail = mine.then(
      () => undefined,
      (e: unknown) => e ?? new Error('failed'),
    );
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
