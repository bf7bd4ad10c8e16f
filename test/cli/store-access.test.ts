import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cli, tmp } from '../support/helpers.js';
import { BIN } from '../support/serve-process.js';

// every command here only reads: none of them may create the store it is pointed at
const READS = (dir: string): string[][] => [
  ['training', 'overdue'],
  ['training', 'overdue', '--format', 'junit', '-o', join(dir, 'overdue.xml')],
  ['dsfa', 'list'],
  ['dsfa', 'workflow'],
  ['consents', 'list'],
  ['cookie-banner', 'lint'],
  ['keys', 'list'],
  ['db', 'status'],
];

describe('a store that does not exist', () => {
  it('is refused by a command that only reads: exit 1, one line naming the path, nothing created', async () => {
    const dir = tmp();
    const typo = join(dir, 'no-such-folder', 'typo.db');
    for (const args of READS(dir)) {
      const r = await cli(['--db', typo, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toBe(
        `error: no store at ${typo}: a command that only reads creates none (\`compliance db init\` or a command that writes creates it)\n`,
      );
      expect(r.stdout).toBe('');
    }
    // no store file, no folder
    expect(readdirSync(dir)).toEqual([]);
    const env = await cli(['training', 'overdue'], { env: { COMPLIANCE_DB: join(dir, 'typo.db') } });
    expect(env.code).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails a CI gate run as a process, where it used to pass on a new empty store', async () => {
    const dir = tmp();
    const r = await execa(process.execPath, [BIN, '--db', join(dir, 'typo.db'), 'training', 'overdue'], {
      reject: false,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(join(dir, 'typo.db'));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is created by a command that writes, folder included', async () => {
    const db = join(tmp(), 'new', 'store.db');
    const r = await cli(['--db', db, 'dsfa', 'create', '--title', 'erste']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(db)).toBe(true);
    expect((await cli(['--db', db, 'dsfa', 'list'])).stdout).toMatch(/erste/);
  });

  it('is created by `db init`, which says so and is idempotent', async () => {
    const db = join(tmp(), 'a', 'b', 'store.db');
    const first = await cli(['--db', db, 'db', 'init']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`^created the store ${db} \\(schema \\d+\\)\\n$`));
    expect(existsSync(db)).toBe(true);
    const again = await cli(['--db', db, 'db', 'init', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ location: db, created: false, schema_version: expect.any(Number) });
    const gate = await cli(['--db', db, 'training', 'overdue']);
    expect(gate.code, gate.stderr).toBe(0);
  });

  it('reads as empty when it is the default store of a first run, and is created by the first write', async () => {
    const home = tmp();
    const env = { HOME: home, XDG_DATA_HOME: '' };
    const store = join(home, '.local', 'share', 'compliance', 'compliance.db');
    const list = await cli(['dsfa', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe('');
    expect(list.stderr).toBe(
      `no store at ${store} yet: it reads as empty and nothing is created (a command that writes creates it, as does \`compliance db init\`)\n`,
    );
    expect(existsSync(join(home, '.local'))).toBe(false);
    expect((await cli(['--json', 'consents', 'list'], { env })).stdout).toMatch(/"total": ?0/);
    expect((await cli(['training', 'overdue'], { env })).code).toBe(0);
    expect(existsSync(join(home, '.local'))).toBe(false);
    // README's first command
    const screen = await cli(
      [
        'dsfa',
        'screen',
        '--trigger',
        'high_risk_ai',
        '--criteria',
        'scoring',
        '--create',
        '--title',
        'KI-Bewerberauswahl',
      ],
      { env },
    );
    expect(screen.code, screen.stderr).toBe(0);
    expect(existsSync(store)).toBe(true);
    const after = await cli(['dsfa', 'list'], { env });
    expect(after.stdout).toMatch(/KI-Bewerberauswahl/);
    expect(after.stderr).toBe('');
  });

  it('reads as empty in a dry run, which answers as the run would on a new store and creates nothing', async () => {
    const dir = tmp();
    const db = join(dir, 'new', 'store.db');
    const dry = await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ created: expect.any(Number), unchanged: 0, rejected: 0 });
    expect(dry.stderr).toMatch(/^no store at .*store\.db yet: it reads as empty and nothing is created/);
    const escalation = await cli(['--db', db, 'training', 'escalation', 'check', '--dry-run']);
    expect(escalation.code, escalation.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    const run = await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    const counts = (stdout: string) => {
      // a dry run records no run
      const { seconds: _s, run_id: _r, ...rest } = JSON.parse(stdout);
      return rest;
    };
    expect(counts(run.stdout)).toEqual(counts(dry.stdout));
  });

  it('is still refused by `db copy` as a source, and nothing is created there', async () => {
    const dir = tmp();
    const r = await cli(['db', 'copy', join(dir, 'nope.db'), join(tmp(), 'target.db')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: no store at .*nope\.db: /);
    expect(readdirSync(dir)).toEqual([]);
  });
});
