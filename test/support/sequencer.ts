import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where `npm run test:durations` keeps each test file's seconds, for a clone that has never run the tests. */
export const DURATIONS_FILE = 'test/durations.json';

/** Seconds per test file (paths relative to the project, with forward slashes), or none when the file is missing. */
export function committedDurations(file = DURATIONS_FILE): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Starts the slowest test files first, so that the long ones do not start last and run alone at the end.
 *
 * vitest does this itself from the durations of the previous run (node_modules/.vite), but a fresh clone, as in CI, has
 * none, and then it starts the largest files first: a slow small file (one that waits on PostgreSQL or a browser) can
 * start last. Here a file's duration is the previous run's when there is one, else the one recorded in
 * test/durations.json; a file in neither (a new one) starts first, as in vitest. A file that failed last time still
 * starts first of all.
 */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const committed = committedDurations();
    const root = this.ctx.config.root;
    const facts = new Map(
      files.map((spec) => {
        const path = relative(root, spec.moduleId).split('\\').join('/');
        const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
        const seconds = last ? last.duration / 1000 : committed[path];
        return [spec, { failed: last?.failed ?? false, seconds: seconds ?? Number.MAX_VALUE }];
      }),
    );
    const fact = (spec: TestSpecification) => facts.get(spec)!;
    return [...files].sort(
      (a, b) => Number(fact(b).failed) - Number(fact(a).failed) || fact(b).seconds - fact(a).seconds,
    );
  }
}
