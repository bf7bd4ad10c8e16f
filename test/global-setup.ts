import { execFileSync } from 'node:child_process';

/** The process-level tests run bin/compliance.js, which runs dist/: build it once before any test. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
