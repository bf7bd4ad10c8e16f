// What a test file leaves behind (temp folders, open stores) is undone when the file ends. Files share one module
// graph per worker (vitest.config.ts), so a hook a support module registers when it is first evaluated would belong
// to the first file of the worker alone: support modules hand their clean-up here instead, and the setup file
// (test/support/setup-file.ts), which vitest runs again for every test file, runs it after the file's own hooks.

const pending: Array<() => unknown> = [];

/** Runs `undo` when the current test file ends, after its own afterAll hooks (the last registered, first run). */
export function atFileEnd(undo: () => unknown): void {
  pending.push(undo);
}

/** Runs and forgets everything registered since the last file ended; one failure does not keep the rest from running. */
export async function endOfFile(): Promise<void> {
  const failures: unknown[] = [];
  for (const undo of pending.splice(0).reverse()) {
    try {
      await undo();
    } catch (e) {
      failures.push(e);
    }
  }
  if (failures.length) throw new AggregateError(failures, 'clean-up after the test file failed');
}
