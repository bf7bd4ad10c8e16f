import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb } from '../support/helpers.js';

const db = tmpDb();
const run = (...args: string[]) => cli(['--db', db, ...args]);
const STAFF = 'user_id,user_name,user_email,roles\ng1,Gina,gina@example.com,R9\n';
let dsfa = '';

beforeAll(async () => {
  dsfa = JSON.parse((await run('dsfa', 'create', '--title', 'Videoüberwachung Lager', '--json')).stdout).id;
  await run('training', 'catalog', 'install');
  const staff = join(tmp(), 'staff.csv');
  writeFileSync(staff, STAFF);
  await run('training', 'assignments', 'compute', '--users', staff, '--deadline-days', '1');
});

const head = (file: string, n = 8) => readFileSync(file).subarray(0, n).toString('latin1');
const file = (name: string) => join(tmp(), name);

describe('-o decides the format when --format is absent', () => {
  it('dsfa report: .pdf is a PDF, .docx a Word file, .md and names without a known extension Markdown', async () => {
    const pdf = file('report.pdf');
    expect((await run('dsfa', 'report', dsfa, '-o', pdf)).code).toBe(0);
    expect(head(pdf, 5)).toBe('%PDF-');
    const docx = file('report.DOCX');
    expect((await run('dsfa', 'report', dsfa, '-o', docx)).code).toBe(0);
    expect(head(docx, 2)).toBe('PK');
    for (const name of ['report.md', 'report.markdown', 'report.txt', 'report']) {
      const md = file(name);
      expect((await run('dsfa', 'report', dsfa, '-o', md)).code).toBe(0);
      expect(readFileSync(md, 'utf8')).toMatch(/^# /);
    }
  });

  it('training overdue: .xml is JUnit, .json JSON, and every other name the table, written to the file', async () => {
    const at = ['--as-of', '2099-01-01'];
    const xml = file('overdue.xml');
    const r = await run('training', 'overdue', ...at, '-o', xml);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(readFileSync(xml, 'utf8')).toMatch(/^<\?xml .*\n<testsuites /);
    const json = file('overdue.json');
    expect((await run('training', 'overdue', ...at, '-o', json)).code).toBe(6);
    expect(JSON.parse(readFileSync(json, 'utf8'))[0]).toMatchObject({ user_name: 'Gina' });
    // the table format wrote no file and printed to stdout
    for (const args of [
      ['-o', file('overdue.txt')],
      ['-o', file('overdue')],
      ['--format', 'table', '-o', file('t')],
    ]) {
      const t = await run('training', 'overdue', ...at, ...args);
      expect(t.code, t.stderr).toBe(6);
      expect(t.stdout).toBe('');
      const text = readFileSync(args.at(-1)!, 'utf8');
      expect(text).toMatch(/USER.*MODULE.*DEADLINE.*DAYS.*LEVEL.*ID/);
      expect(text).toMatch(/Gina/);
    }
    const none = file('none.txt');
    expect((await run('training', 'overdue', '-o', none)).code).toBe(0);
    expect(readFileSync(none, 'utf8')).toBe('no overdue trainings\n');
  });

  it('consents export: .ndjson and .jsonl are NDJSON, .csv CSV', async () => {
    await run('consents', 'grant', '--user-id', 'u1', '--data-point', 'newsletter');
    for (const name of ['c.ndjson', 'c.JSONL']) {
      const f = file(name);
      expect((await run('consents', 'export', '-o', f)).code).toBe(0);
      expect(JSON.parse(readFileSync(f, 'utf8').split('\n')[0]!)).toMatchObject({ user_id: 'u1' });
    }
    const csv = file('c.csv');
    expect((await run('consents', 'export', '-o', csv)).code).toBe(0);
    expect(readFileSync(csv, 'utf8')).toMatch(/^user_id,data_point_id,/);
  });
});

describe('a contradiction between --format and -o', () => {
  it('is exit 2 naming both, and leaves an existing file as it was', async () => {
    const pdf = file('keep.pdf');
    expect((await run('dsfa', 'report', dsfa, '-o', pdf)).code).toBe(0);
    const before = readFileSync(pdf);
    const r = await run('dsfa', 'report', dsfa, '--format', 'md', '-o', pdf);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --format md contradicts -o ${pdf}, which names a PDF file: drop --format to write pdf, or name the file for md\n`,
    );
    expect(readFileSync(pdf).equals(before)).toBe(true);
    const json = await run('--json', 'dsfa', 'report', dsfa, '--format', 'pdf', '-o', file('x.md'));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({
      code: 'bad_request',
      details: [
        { path: '--format', message: expect.stringMatching(/^pdf, but -o .*x\.md names a Markdown file \(md\)$/) },
      ],
    });
  });

  it.each([
    [
      ['dsfa', 'report', 'ID', '-o', 'r.html'],
      /-o .*r\.html names an HTML file, but dsfa report writes md \(\.md, \.markdown\), pdf \(\.pdf\), docx \(\.docx\)/,
    ],
    [
      ['training', 'overdue', '--format', 'junit', '-o', 'o.json'],
      /--format junit contradicts -o .*o\.json, which names a JSON file/,
    ],
    [
      ['training', 'overdue', '-o', 'o.pdf'],
      /-o .*o\.pdf names a PDF file, but training overdue writes table, json \(\.json\), junit \(\.xml\)/,
    ],
    [['consents', 'export', '--format', 'csv', '-o', 'c.ndjson'], /--format csv contradicts -o .*c\.ndjson/],
    [
      ['consents', 'export', '-o', 'c.json'],
      /-o .*c\.json names a JSON file, but consents export writes csv \(\.csv\), ndjson \(\.ndjson, \.jsonl\)/,
    ],
    [
      ['training', 'certificates', 'pdf', 'ID', '-o', 'cert.docx'],
      /-o .*cert\.docx names a Word file, but certificates pdf writes pdf \(\.pdf\)/,
    ],
    [
      ['training', 'matrix', 'export', '-o', 'matrix.xlsx'],
      /-o .*matrix\.xlsx names an Excel file, but matrix export writes csv/,
    ],
  ])('%j is exit 2 before the store is opened, writing nothing', async (args, message) => {
    const dir = tmp();
    const inDir = args.map((a) => (/\.\w+$/.test(a) && a !== 'ID' ? join(dir, a) : a));
    const r = await cli(['--db', join(dir, 'missing.db'), ...inDir]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
    for (const a of inDir) if (a.startsWith(dir)) expect(existsSync(a)).toBe(false);
  });
});
