import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb } from '../support/helpers.js';

const body = (stderr: string) => {
  expect(stderr.endsWith('\n') && stderr.trim().split('\n').length === 1, stderr).toBe(true);
  return JSON.parse(stderr) as { error: string; code: string; details: Array<{ path: string; message: string }> };
};

describe('usage errors with --json', () => {
  const db = tmpDb();
  it.each([
    [
      ['dsfa', 'list', '--colour'],
      { error: "unknown option '--colour'", details: [{ path: '--colour', message: 'unknown option' }] },
    ],
    [
      ['dsfa', 'list', '--limt', '3'],
      {
        error: "unknown option '--limt' (Did you mean --limit?)",
        details: [{ path: '--limt', message: 'unknown option; did you mean --limit?' }],
      },
    ],
    [['dsfa', 'get'], { error: "missing required argument 'id'", details: [{ path: '<id>', message: 'required' }] }],
    [
      ['dsfa', 'report', 'x', '--format', 'odt'],
      {
        error: "option '--format <format>' argument 'odt' is invalid. Allowed choices are md, pdf, docx.",
        details: [{ path: '--format', message: '"odt" is not allowed; allowed values: md, pdf, docx' }],
      },
    ],
    [
      ['consents', 'grant', '--user-id', 'u'],
      {
        error: "required option '--data-point <id>' not specified",
        details: [{ path: '--data-point', message: 'required' }],
      },
    ],
    [
      ['dsfa', 'list', '--status'],
      {
        error: "option '--status <status>' argument missing",
        details: [{ path: '--status', message: 'needs a value' }],
      },
    ],
    [
      ['dsfa', 'list', 'extra'],
      {
        error: "too many arguments for 'list'. Expected 0 arguments but got 1.",
        details: [{ path: '<arguments>', message: 'expected 0, got 1' }],
      },
    ],
    [
      ['nope'],
      { error: "unknown command 'nope'", details: [{ path: '<command>', message: 'unknown command "nope"' }] },
    ],
    [
      ['training', 'overdue', '--format', 'xml', '-o', 'x.xml'],
      {
        error: "option '--format <format>' argument 'xml' is invalid. Allowed choices are table, json, junit.",
        details: [{ path: '--format', message: '"xml" is not allowed; allowed values: table, json, junit' }],
      },
    ],
  ])('%j is the JSON error body on stderr, exit 2', async (args, expected) => {
    for (const where of ['before', 'after']) {
      const r = await cli(where === 'before' ? ['--json', '--db', db, ...args] : ['--db', db, ...args, '--json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(body(r.stderr)).toEqual({ code: 'bad_request', ...expected });
    }
  });

  it('is the message and a hint without --json, as before', async () => {
    const r = await cli(['--db', tmpDb(), 'dsfa', 'list', '--colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown option '--colour'\n(add --help for usage)\n");
  });
});

describe('one JSON style', () => {
  it('is indented on a terminal and one line when piped, for every command', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'training', 'catalog', 'install']);
    const id = JSON.parse((await cli(['--db', db, 'dsfa', 'create', '--title', 'x', '--json'])).stdout).id;
    const backup = join(tmp(), 'b.db');
    const matrix = join(tmp(), 'matrix.csv');
    writeFileSync(matrix, 'role_code,module_code,is_mandatory,priority\nR9,DSGVO-BASIS,true,1\n');
    for (const args of [
      ['dsfa', 'get', id],
      ['dsfa', 'list'],
      ['training', 'overdue', '--as-of', '2099-01-01'],
      ['training', 'matrix', 'import', matrix],
      ['db', 'backup', backup, '--force'],
    ]) {
      const piped = (await cli(['--db', db, ...args, '--json'])).stdout;
      expect(piped.split('\n'), args.join(' ')).toHaveLength(2);
      const onTty = (await cli(['--db', db, ...args, '--json'], { tty: true })).stdout;
      expect(onTty, args.join(' ')).toBe(JSON.stringify(JSON.parse(piped), null, 2) + '\n');
    }
  });
});

describe("docs/cli.md's list envelopes", () => {
  const db = tmpDb();
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const json = async (...a: string[]) => JSON.parse((await cli(['--db', db, ...a, '--json'])).stdout);
    await cli(['--db', db, 'training', 'catalog', 'install']);
    ids.MODULE = 'DSGVO-BASIS';
    const staff = join(tmp(), 'staff.csv');
    writeFileSync(staff, 'user_id,user_name,user_email,roles\ng1,Gina,gina@example.com,R9\n');
    await cli(['--db', db, 'training', 'assignments', 'compute', '--users', staff]);
    ids.STAFF = staff;
    ids.ASSIGNMENT = (await json('training', 'assignments', 'list'))[0].id;
    ids.CONSENT = (await json('consents', 'grant', '--user-id', 'u', '--data-point', 'd')).id;
    ids.DOCUMENT = (await json('legal-docs', 'create', '--title', 'L', '--type', 'privacy_policy')).id;
    ids.BLOCK = (
      await json('training', 'blocks', 'create', '--name', 'N', '--area', 'nis2', '--prefix', 'NET', '--domain', 'NET')
    ).id;
  });

  // the table of docs/cli.md names the commands; ID stands for the id of what the command lists
  const row = (label: string) => {
    const readme = readFileSync('docs/cli.md', 'utf8');
    const line = readme.split('\n').find((l) => l.includes(`| ${label} |`));
    expect(line, label).toBeDefined();
    return [...line!.split('|')[2]!.matchAll(/`([a-z][a-z -]+(?: [A-Z]+)?)`/g)].map((m) => m[1]!);
  };
  const argsOf = (command: string): string[] => {
    const words = command.split(' ');
    const placeholder: Record<string, string> = {
      'consents history ID': ids.CONSENT!,
      'legal-docs versions ID': ids.DOCUMENT!,
      'training quiz attempts ID': ids.ASSIGNMENT!,
      'training blocks controls ID': ids.BLOCK!,
      'training media list MODULE': ids.MODULE!,
    };
    const last = words.at(-1)!;
    if (/^[A-Z]+$/.test(last)) words[words.length - 1] = placeholder[command]!;
    if (command === 'training escalation check' || command === 'training content generate-all') words.push('--dry-run');
    if (command === 'db copy') words.push(db, join(tmp(), 'copy.db'));
    if (command === 'training assignments compute') words.push('--users', ids.STAFF!);
    return words;
  };

  it('a bare array for the commands docs/cli.md lists so', async () => {
    const commands = row('a bare array of records');
    expect(commands.length).toBeGreaterThan(15);
    for (const command of commands) {
      const r = await cli(['--db', db, ...argsOf(command), '--json']);
      expect(Array.isArray(JSON.parse(r.stdout)), `${command}: ${r.stderr}`).toBe(true);
    }
  });

  it('an object holding the list for the others docs/cli.md names', async () => {
    const commands = row('an object holding the list');
    expect(commands).toContain('consents list');
    for (const command of commands) {
      const r = await cli(['--db', db, ...argsOf(command), '--json']);
      expect(r.stdout, `${command}: ${r.stderr}`).not.toBe('');
      const v = JSON.parse(r.stdout);
      expect(Array.isArray(v), `${command}: ${r.stderr}`).toBe(false);
      expect(Object.values(v).some(Array.isArray), command).toBe(true);
    }
  });
});
