import { describe, expect, it } from 'vitest';
import { serve } from '../support/serve-process.js';

// The tests' `serve` helper kills a server that names no address in time: before, it only gave up waiting, and every
// slow start under load left a `compliance serve` process running after the test run.
describe('serve() in the tests', () => {
  it('kills a process that names no address in time, then fails', async () => {
    // a preloaded module that never finishes loading: the program never starts
    const hang = 'data:text/javascript,await%20new%20Promise(()=>setInterval(()=>{},1000))';
    let started: unknown;
    const err = await serve(['--db', ':memory:'], { NODE_OPTIONS: `--import=${hang}` }, 1_500).then(
      (s) => (started = s),
      (e: Error) => e,
    );
    expect(started).toBeUndefined();
    expect(String(err)).toMatch(/no address within 1500 ms/);
    // the process is gone: nothing of it listens or runs after the failure
    await new Promise((r) => setTimeout(r, 200));
    const { execFileSync } = await import('node:child_process');
    const running = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes('serve --port 0 --db :memory:'));
    expect(running).toEqual([]);
  });
});
