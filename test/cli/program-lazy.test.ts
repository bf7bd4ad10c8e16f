import { describe, expect, it } from 'vitest';
import { commandOf, createProgram } from '../../src/cli/program.js';
import { quietContext } from '../support/command-reference.js';
import { cli } from '../support/helpers.js';

const ctx = quietContext;
const names = async (argv?: string[]) => (await createProgram(ctx(), argv)).commands.map((c) => c.name());

// A command line builds (and loads the module of) the command it runs only; help and anything unclear get them all.
describe('the program built for a command line', () => {
  it('finds the command past the root options and their values', async () => {
    const root = await createProgram(ctx(), ['node', 'compliance', '--help']);
    expect(commandOf(root, ['--db', 'sync', '--tenant=acme', '--json', 'dsfa', 'list'])).toBe('dsfa');
    expect(commandOf(root, ['--remote', 'http://x', '--api-key', 'k', '--user', 'u', 'sync'])).toBe('sync');
    expect(commandOf(root, ['--db=a.db', '-V'])).toBeUndefined();
    expect(commandOf(root, ['--bogus', 'x', 'dsfa'])).toBeUndefined();
    expect(commandOf(root, ['--help', 'dsfa'])).toBeUndefined();
    expect(commandOf(root, ['dsfa', '--help'])).toBe('dsfa');
    expect(commandOf(root, [])).toBeUndefined();
  });

  it('holds each command under its own name, in the order help lists them', async () => {
    const all = await names();
    expect(new Set(all).size).toBe(all.length);
    for (const name of all) expect(await names(['node', 'compliance', '--db', 'x.db', name, 'list'])).toEqual([name]);
    expect(await names(['node', 'compliance', 'dsfa', '--help'])).toEqual(['dsfa']);
    expect(await names(['node', 'compliance', '--help'])).toEqual(all);
    expect(await names(['node', 'compliance', 'dsfx'])).toEqual(all);
  });

  it('answers a typo, help and an option before the command as before', async () => {
    const typo = await cli(['dsfx', 'list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'dsfx'");
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['dsfa', 'consents', 'sync', 'import']) expect(help.stdout).toContain(name);
    const sub = await cli(['--json', 'dsfa', 'lst']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('lst');
  });
});
