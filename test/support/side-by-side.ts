import { getCurrentSuite } from 'vitest/suite';

/**
 * Called first in a describe block: the block runs at the same time as its sibling blocks that call it too, while its
 * own tests and hooks keep their order. For `describe.each(BACKEND_NAMES)` blocks, each on a store of its own: one
 * backend's tests wait on PostgreSQL, a server or a program while another's run (vitest's `describe.concurrent` would
 * run the tests inside a block at the same time as well, and they build on each other).
 */
export function sideBySide(): void {
  const suite = getCurrentSuite().suite;
  if (!suite) throw new Error('sideBySide() is called inside a describe block');
  suite.concurrent = true;
}
