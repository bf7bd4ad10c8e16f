import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import SlowestFirst, { committedDurations } from '../support/sequencer.js';

const root = '/project';
const spec = (path: string) => ({ moduleId: `${root}/${path}`, project: { name: 'p' } }) as TestSpecification;

/** A sequencer over a previous run's results (keyed as vitest keys them) and test/durations.json's seconds. */
function sequencer(last: Record<string, { duration: number; failed: boolean }>) {
  const ctx = { config: { root }, cache: { getFileTestResults: (key: string) => last[key] } } as unknown as Vitest;
  return new SlowestFirst(ctx);
}

describe('the order of the test files', () => {
  it('starts the slowest first: last run’s milliseconds over the recorded seconds, failed and unknown files first', async () => {
    const recorded = committedDurations();
    const known = Object.keys(recorded).sort((a, b) => recorded[a]! - recorded[b]!);
    const [fastest, slowest] = [known[0]!, known.at(-1)!];
    const files = [fastest, slowest, 'test/new-file.test.ts', 'test/failed-last.test.ts'].map(spec);
    const sorted = await sequencer({
      'p:test/failed-last.test.ts': { duration: 1, failed: true },
      [`p:${fastest}`]: { duration: (recorded[slowest]! + 1) * 1000, failed: false },
    }).sort(files);
    expect(sorted.map((s) => s.moduleId.slice(root.length + 1))).toEqual([
      'test/failed-last.test.ts',
      'test/new-file.test.ts',
      fastest, // slower than the slowest recorded, in the last run
      slowest,
    ]);
  });

  it('has a recorded duration for most test files (npm run test:durations after a full run)', () => {
    const recorded = committedDurations();
    expect(Object.keys(recorded).length).toBeGreaterThan(150);
    expect(Object.values(recorded).every((s) => Number.isFinite(s) && s >= 0)).toBe(true);
  });
});
