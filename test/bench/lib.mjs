// Small helpers shared by the benchmarks: timing of whole processes and a temp folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'compliance.js');
export const tmp = (p = 'compliance-bench-') => mkdtempSync(join(tmpdir(), p));

/** Median wall time in ms of running a command `runs` times (after one warm-up). */
export function timeProcess(cmd, args, { runs = 15, env = process.env, ok = [0] } = {}) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (!ok.includes(r.status)) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export const ratio = (x, ref) => `${(x / ref).toFixed(2)}x`;
export const row = (label, value, extra = '') => console.log(`${label.padEnd(58)} ${value.padStart(12)}  ${extra}`);
