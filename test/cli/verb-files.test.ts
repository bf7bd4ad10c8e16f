import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import * as create from '../../src/cli/commands/dsfa/create.js';
import * as operations from '../../src/cli/commands/dsfa/operations.js';
import * as setStatus from '../../src/cli/commands/dsfa/set-status.js';
import { runOperation } from '../../src/cli/operation-verb.js';
import { tmpDb } from '../support/helpers.js';

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));

/**
 * The rule of `src/cli/commands` (docs/architecture.md, "to add X"): an area's `index.ts` builds its group and lists
 * its verbs (no `.action(`, at most 60 lines); every other file holds at most one verb: one `.command(` or none, one
 * `.action(` or none, and a file with an action exports one `run` function, which the action calls.
 */
const INDEX_LINES = 60;

/** The longest a function under `src/cli` may be, a command's builder included (issue 37: a verb a reader takes in). */
const FUNCTION_LINES = 60;

/** The functions of a source longer than `FUNCTION_LINES`, as `file:line (n lines)`. */
export function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const [from, to] = [line(node.getStart(source)), line(node.getEnd())];
      if (to - from + 1 > FUNCTION_LINES) long.push(`${file}:${from} (${to - from + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return long;
}

/** What breaks the rule in one file of src/cli/commands, or nothing. */
export function verbFileProblems(file: string, text: string): string[] {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const lines = text.split('\n').length - 1;
  const actions = count(/\.action\(/g);
  const runs = count(/^export (async )?function run\(/gm);
  if (file.endsWith('/index.ts'))
    return [
      ...(actions ? [`an area index runs no verb itself (${actions} .action)`] : []),
      ...(lines > INDEX_LINES ? [`an area index of ${lines} lines (at most ${INDEX_LINES})`] : []),
    ];
  return [
    ...(count(/\.command\(/g) > 1 ? [`${count(/\.command\(/g)} verbs (.command)`] : []),
    ...(actions > 1 ? [`${actions} verbs (.action)`] : []),
    ...(actions !== runs ? [`${actions} .action and ${runs} exported run functions`] : []),
  ];
}

describe('the command line, a verb a file', () => {
  it('holds one verb in each file of src/cli/commands, and area indexes that only list theirs', () => {
    const broken = files('src/cli/commands')
      .map((f) => [f, verbFileProblems(f, readFileSync(f, 'utf8'))] as const)
      .filter(([, p]) => p.length > 0);
    expect(broken, 'split these (docs/architecture.md)').toEqual([]);
  });

  it('tells a file of two verbs, a verb without run and a long index', () => {
    const verb = (name: string) => `  group.command('${name}').action((o) => run(ctx, o));\n`;
    expect(verbFileProblems('a/grant.ts', verb('grant') + 'export async function run(ctx, o) {}\n')).toEqual([]);
    expect(verbFileProblems('a/two.ts', verb('a') + verb('b') + 'export async function run(ctx, o) {}\n')).toEqual([
      '2 verbs (.command)',
      '2 verbs (.action)',
      '2 .action and 1 exported run functions',
    ]);
    expect(verbFileProblems('a/inline.ts', "  group.command('x').action(async () => {});\n")).toEqual([
      '1 .action and 0 exported run functions',
    ]);
    expect(verbFileProblems('a/index.ts', 'x\n'.repeat(61))).toEqual(['an area index of 61 lines (at most 60)']);
    expect(verbFileProblems('a/index.ts', verb('x'))).toEqual(['an area index runs no verb itself (1 .action)']);
  });

  it('keeps every function under src/cli, builders included, at 60 lines or fewer', () => {
    const long = files('src/cli').flatMap((f) => longFunctions(f, readFileSync(f, 'utf8')));
    expect(long, 'split these (a helper of the verb, or a verb a file)').toEqual([]);
    const body = (n: number) => '  x();\n'.repeat(n);
    expect(longFunctions('a.ts', `function f() {\n${body(58)}}\n`)).toEqual([]);
    expect(longFunctions('a.ts', `const g = () => {\n${body(59)}};\n`)).toEqual(['a.ts:1 (61 lines)']);
  });

  it('keeps every file under src/cli at 250 lines or fewer', () => {
    const long = files('src/cli')
      .map((f) => [f, readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > 250);
    expect(long, 'split these by verb (docs/architecture.md, "to add a verb")').toEqual([]);
  });

  it("runs a verb's run function, and a generated verb, without the parser", async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c) => (out += String(c)));
    const quiet = new PassThrough();
    const io = { stdin: quiet, stdout, stderr: quiet, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
    const ctx = createContext({ ...io, color: false }, {});
    await ctx.configure({ db: tmpDb(), json: true, tenant: 'acme', user: 'tester' }, 'write', 'starts');
    try {
      await create.run(ctx, { title: 'Video surveillance', riskLevel: 'high' });
      const created = JSON.parse(out) as { id: string; title: string; risk_level: string; created_by: string };
      expect(created).toMatchObject({ title: 'Video surveillance', risk_level: 'high', created_by: 'tester' });
      out = '';
      await setStatus.run(ctx, { id: created.id, status: 'in-review' });
      expect(JSON.parse(out)).toMatchObject({ id: created.id, status: 'in-review' });
      out = '';
      await runOperation(ctx, operations.list, { query: { status: 'in-review' } });
      expect((JSON.parse(out) as Array<{ id: string }>).map((d) => d.id)).toEqual([created.id]);
      out = '';
      await runOperation(ctx, operations.list, { query: { status: 'draft' } });
      expect(JSON.parse(out)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
