import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tmp, tmpDb } from '../support/helpers.js';
import { BIN } from '../support/serve-process.js';

// real processes: what matters is what Node does with a real stdout that cannot be written
const db = tmpDb();
const ROWS = 30_000;

beforeAll(() => {
  const csv = join(tmp(), 'many.csv');
  const lines = ['user_id,data_point_id,granted,granted_at'];
  for (let i = 0; i < ROWS; i++) lines.push(`user${i}@example.com,newsletter,true,2026-01-01T00:00:00Z`);
  writeFileSync(csv, lines.join('\n') + '\n');
  const r = spawnSync(process.execPath, [BIN, '--db', db, 'consents', 'import', csv], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}, 60_000);

const NO_STACK = /\n\s+at |node:internal|Unhandled 'error' event/;

/** The one line on stderr: the message, or with --json the error body holding it. */
function oneLine(stderr: string, args: string[]): string {
  expect(stderr.endsWith('\n') && stderr.split('\n').length === 2, stderr).toBe(true);
  return args.includes('--json') ? `error: ${JSON.parse(stderr).error}\n` : stderr;
}

/** Runs the CLI with stdout on /dev/full. */
function intoFullDisk(args: string[]) {
  const full = openSync('/dev/full', 'w');
  try {
    return spawnSync(process.execPath, [BIN, '--db', db, ...args], {
      stdio: ['ignore', full, 'pipe'],
      encoding: 'utf8',
      timeout: 30_000,
    });
  } finally {
    closeSync(full);
  }
}

/** Runs the CLI with stdout on a pipe whose reader closes it after the first chunk, as `| head -1` does. */
function intoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string; signal: string | null }> {
  const p = spawn(process.execPath, [BIN, '--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  p.stderr.on('data', (c) => (stderr += c));
  p.stdout.once('data', () => p.stdout.destroy());
  return new Promise((resolve) => p.on('close', (code, signal) => resolve({ code, stderr, signal })));
}

describe.skipIf(!existsSync('/dev/full'))('stdout on a full disk', () => {
  it.each([[['consents', 'list', '--limit', '500']], [['consents', 'export']], [['training', 'overdue', '--json']]])(
    '%j ends with one line and exit 1',
    (args) => {
      const r = intoFullDisk(args);
      expect(r.signal).toBeNull();
      expect(r.stderr).not.toMatch(NO_STACK);
      expect(oneLine(r.stderr, args)).toBe('error: cannot write to stdout: no space left on the device\n');
      expect(r.status).toBe(1);
    },
  );

  it('prints the JSON error body with --json', () => {
    const r = intoFullDisk(['consents', 'stats', '--json']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      error: 'cannot write to stdout: no space left on the device',
      code: 'storage',
      details: [{ path: 'stdout', message: 'no space left on the device' }],
    });
  });

  it('also for --version', () => {
    const full = openSync('/dev/full', 'w');
    const r = spawnSync(process.execPath, [BIN, '--version'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
    closeSync(full);
    expect(r.stderr).toBe('error: cannot write to stdout: no space left on the device\n');
    expect(r.status).toBe(1);
  });
});

describe('stdout on a pipe closed early', () => {
  it.each([
    [['consents', 'export']],
    [['consents', 'export', '--format', 'ndjson']],
    [['consents', 'list', '--limit', '500', '--json']],
  ])('%j ends with one line and exit 1', async (args) => {
    const r = await intoClosedPipe(args);
    expect(r.signal).toBeNull();
    expect(r.stderr).not.toMatch(NO_STACK);
    expect(oneLine(r.stderr, args)).toBe('error: cannot write to stdout: the reader closed the pipe\n');
    expect(r.code).toBe(1);
  });

  it('as `| head -1` in a shell: one line of data, one line on stderr, exit 1', () => {
    const r = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" ${BIN} --db "${db}" consents export | head -1; exit \${PIPESTATUS[0]}`],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toBe(
      'user_id,data_point_id,granted,granted_at,revoked_at,consent_version,source,ip_address,user_agent\n',
    );
    expect(r.stderr).toBe('error: cannot write to stdout: the reader closed the pipe\n');
    expect(r.status).toBe(1);
  });
});
