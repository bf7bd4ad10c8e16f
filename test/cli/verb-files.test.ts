import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import * as create from '../../src/cli/commands/dsfa/create.js';
import * as operations from '../../src/cli/commands/dsfa/operations.js';
import * as setStatus from '../../src/cli/commands/dsfa/set-status.js';
import { runOperation } from '../../src/cli/operation-verb.js';
import { tmpDb } from '../support/helpers.js';

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));

describe('the command line, a verb a file', () => {
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
