import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, useServer, tmp, tmpDb } from '../support/helpers.js';
import { requirePrograms } from '../support/programs.js';
import { parseXml } from '../support/xml.js';

const write = (name: string, content: string) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};
const USERS =
  'user_id,user_name,user_email,roles\nu1,Anna Schmidt,anna@example.com,R9;R1\nu2,Ben Meier,ben@example.com,R9|R8\n"u3","Cem\nYılmaz",cem@example.com,R11\nu4,Dora,dora@example.com,R5\n';

describe('training on the command line', () => {
  const db = tmpDb();
  const run = (...a: string[]) => cli(['--db', db, ...a]);
  beforeAll(async () => {
    expect((await run('training', 'catalog', 'install')).code).toBe(0);
  });

  it('installs a catalogue of at least 24 modules over all six areas, idempotently', async () => {
    const mods = JSON.parse((await run('training', 'modules', 'list', '--json')).stdout);
    expect(mods.length).toBeGreaterThanOrEqual(24);
    expect(new Set(mods.map((m: { regulation_area: string }) => m.regulation_area))).toEqual(
      new Set(['dsgvo', 'nis2', 'iso27001', 'ai_act', 'geschgehg', 'hinschg']),
    );
    expect(mods.every((m: { question_count: number }) => m.question_count >= 5)).toBe(true);
    const again = JSON.parse((await run('training', 'catalog', 'install', '--json')).stdout);
    expect(again).toMatchObject({ created: 0 });
    const matrix = JSON.parse((await run('training', 'matrix', 'show', '--json')).stdout);
    expect(new Set(matrix.map((e: { role_code: string }) => e.role_code)).size).toBe(10);
  });

  it('computes for a staff list in one go and refuses bad rows with their line numbers', async () => {
    const r = await run('training', 'assignments', 'compute', '--users', write('users.csv', USERS));
    expect(r.code).toBe(6);
    // a name broken over two lines is refused too: names take no control characters (issue 13)
    expect(r.stderr).toMatch(
      /line 4: user_name: must not contain control characters; roles\.0: "R11" is not allowed; allowed values: R1, R2/,
    );
    expect(r.stdout).toMatch(/3 user\(s\), \d+ assignment\(s\) created, 1 row\(s\) refused/);
    const again = await run('training', 'assignments', 'compute', '--users', write('users.csv', USERS), '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ users: 3, created: 0, refused: 1 });
  });

  it('refuses an option every row shares once, before reading the staff list (exit 2)', async () => {
    const before = JSON.parse((await run('training', 'assignments', 'list', '--json', '--limit', '500')).stdout).length;
    for (const [flag, value, says] of [
      ['--deadline-days', '0', /^error: --deadline-days: must be at least 1, got 0\n$/],
      ['--deadline-days', 'soon', /^error: --deadline-days: /],
      ['--trigger', 'whenever', /^error: --trigger: .*onboarding/],
    ] as const) {
      const r = await run('training', 'assignments', 'compute', '--users', write('users.csv', USERS), flag, value);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      // the option is named even when the file cannot be read: it is checked first
      const missing = await run('training', 'assignments', 'compute', '--users', join(tmp(), 'none.csv'), flag, value);
      expect(missing.stderr).toMatch(says);
    }
    const after = JSON.parse((await run('training', 'assignments', 'list', '--json', '--limit', '500')).stdout).length;
    expect(after).toBe(before);
  });

  it('says which column of a staff list is missing a value', async () => {
    const staff = write('staff-missing.csv', 'user_id,user_name,user_email,roles\nx1,Xaver,,R9\n');
    const r = await run('training', 'assignments', 'compute', '--users', staff);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('line 2: user_email: required');
  });

  it('takes a deadline as a date, lasting to the end of that day, and refuses days that do not exist', async () => {
    const [a] = JSON.parse((await run('training', 'assignments', 'list', '--user-id', 'u1', '--json')).stdout);
    const r = await run('training', 'assignments', 'update', a.id, '--deadline', '2027-03-31', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).deadline).toBe('2027-03-31T23:59:59.000Z');
    const bad = await run('training', 'assignments', 'update', a.id, '--deadline', '2027-02-30');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--deadline 2027-02-30: expected a date');
  });

  it('exports the matrix as CSV and imports it back', async () => {
    const csv = (await run('training', 'matrix', 'export')).stdout;
    expect(csv.split('\n')[0]).toBe('role_code,module_code,module_title,is_mandatory,priority');
    const other = tmpDb();
    await cli(['--db', other, 'training', 'catalog', 'install']);
    const r = await cli([
      '--db',
      other,
      'training',
      'matrix',
      'import',
      write('m.csv', csv + 'R12,DSGVO-BASIS,x,true,1\n'),
    ]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/line \d+: .*role_code/);
  });

  it('gates CI on overdue trainings with exit 6 and JUnit XML', async () => {
    expect((await run('training', 'overdue')).code).toBe(0);
    const r = await run('training', 'overdue', '--as-of', '2099-01-01', '--format', 'junit');
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(/^<\?xml/);
    const count = JSON.parse((await run('training', 'assignments', 'list', '--json', '--limit', '500')).stdout).length;
    const doc = parseXml(r.stdout);
    expect(doc.name).toBe('testsuites');
    expect(doc.attrs.failures).toBe(String(count));
    const suite = doc.children[0]!;
    expect(suite).toMatchObject({ name: 'testsuite', attrs: { tests: String(count), failures: String(count) } });
    expect(suite.children).toHaveLength(count);
    for (const tc of suite.children) {
      expect(tc.name).toBe('testcase');
      expect(tc.children.map((f) => f.name)).toEqual(['failure']);
      expect(tc.children[0]!.attrs.message).toMatch(/^overdue by \d+ day\(s\), escalation level [0-4]$/);
      expect(tc.children[0]!.text).toMatch(/^assignment [0-9a-f-]{36}, deadline /);
    }
    // --no-personal-data: neither names nor e-mail addresses reach the CI log, in any format
    for (const format of ['junit', 'json', 'table']) {
      const anon = await run('training', 'overdue', '--as-of', '2099-01-01', '--format', format, '--no-personal-data');
      expect(anon.code).toBe(6);
      expect(anon.stdout).not.toMatch(/Anna|Schmidt|anna@example\.com|Dora|dora@example\.com/);
    }
    const anonymous = parseXml(
      (await run('training', 'overdue', '--as-of', '2099-01-01', '--format', 'junit', '--no-personal-data')).stdout,
    );
    expect(anonymous.children[0]!.children[0]!.attrs.name).toMatch(/^assignment [0-9a-f-]{36}: /);
    const clean = parseXml((await run('training', 'overdue', '--format', 'junit')).stdout);
    expect(clean.attrs.failures).toBe('0');
    expect(clean.children[0]!.children.map((t) => t.children.length)).toEqual([0]); // one passing case
    expect((await run('training', 'overdue', '--as-of', '2099-01-01', '--min-level', '4', '--json')).code).toBe(6);
    expect((await run('training', 'overdue', '--min-level', '9')).code).toBe(2);
    const dry = JSON.parse(
      (await run('training', 'escalation', 'check', '--as-of', '2099-01-01', '--dry-run', '--json')).stdout,
    );
    expect(dry.escalated).toBe(count);
    expect(JSON.parse((await run('training', 'stats', '--json')).stdout).total_assignments).toBe(count);
  });

  it('takes a quiz from an answers file, completes, and issues a certificate whose PDF and QR read back', async (ctx) => {
    const [a] = JSON.parse((await run('training', 'assignments', 'list', '--user-id', 'u4', '--json')).stdout);
    const detail = JSON.parse((await run('training', 'modules', 'show', a.module_id, '--json')).stdout);
    const answers = detail.questions.map((q: { id: string; correct_index: number }) => ({
      question_id: q.id,
      selected_index: q.correct_index,
    }));
    expect((await run('training', 'assignments', 'start', a.id)).code).toBe(0);
    const quiz = await run(
      'training',
      'quiz',
      'take',
      a.id,
      '--answers',
      write('answers.json', JSON.stringify(answers)),
    );
    expect(quiz.stdout).toMatch(/^Passed: 100%/);
    expect(quiz.code).toBe(0);
    // a failed attempt exits 6 and shows, per question, the chosen and the correct option
    const wrong = answers.map((x: { question_id: string; selected_index: number }, i: number) => {
      const options = detail.questions[i].options.length;
      return { ...x, selected_index: (x.selected_index + 1) % options };
    });
    const failed = await run('training', 'quiz', 'take', a.id, '--answers', write('wrong.json', JSON.stringify(wrong)));
    expect(failed.code).toBe(6);
    expect(failed.stdout).toMatch(/^Not passed: 0%/);
    const q0 = detail.questions[0];
    expect(failed.stdout).toContain(`your answer: ${q0.options[wrong[0].selected_index]}`);
    expect(failed.stdout).toContain(`correct: ${q0.options[q0.correct_index]}`);
    const failedJson = await run(
      'training',
      'quiz',
      'take',
      a.id,
      '--answers',
      write('w.json', JSON.stringify(wrong)),
      '--json',
    );
    expect([failedJson.code, JSON.parse(failedJson.stdout).passed]).toEqual([6, false]);
    expect((await run('training', 'certificates', 'generate', a.id)).code).toBe(5); // not completed yet
    expect((await run('training', 'assignments', 'complete', a.id)).code).toBe(0);
    const cert = JSON.parse((await run('training', 'certificates', 'generate', a.id, '--json')).stdout);
    const pdf = join(tmp(), 'cert.pdf');
    expect((await run('training', 'certificates', 'pdf', cert.certificate_id, '-o', pdf)).code).toBe(0);
    expect((await run('training', 'certificates', 'verify', cert.certificate_id)).code).toBe(0);
    expect((await run('training', 'quiz', 'take', a.id)).code).toBe(2); // no terminal, no answers file
    requirePrograms(ctx, 'pdftotext', 'pdftoppm', 'zbarimg');
    const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString();
    const [c] = JSON.parse((await run('training', 'certificates', 'list', '--json')).stdout);
    expect(text).toContain('Dora');
    expect(text).toContain(c.module_title);
    expect(text).toContain(c.verification_code);
    expect(text).toContain(c.id);
    const png = join(tmp(), 'cert');
    execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', pdf, png]);
    const zbar = spawnSync('zbarimg', ['--raw', '-q', `${png}.png`], { encoding: 'utf8' });
    expect(zbar.stdout.trim()).toBe(c.verification_code);
    expect(text).toMatch(/Ergebnis\s+100 %/);
    expect(text).toContain(c.valid_until.slice(0, 10).split('-').reverse().join('.'));
  });
});

describe('training in remote mode', () => {
  const srv = useServer();

  it('installs the catalogue, computes and gates overdue the same way', async () => {
    expect((await cli(['--remote', srv.url, 'training', 'catalog', 'install'])).code).toBe(0);
    const r = await cli([
      '--remote',
      srv.url,
      'training',
      'assignments',
      'compute',
      '--users',
      write('u.csv', USERS),
      '--json',
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ users: 3, refused: 1 });
    expect((await cli(['--remote', srv.url, 'training', 'overdue', '--as-of', '2099-01-01'])).code).toBe(6);
    const res = await fetch(`${srv.url}/sdk/v1/training/modules`);
    expect(res.status).toBe(400);
  });
});

describe('canonical controls on the command line', () => {
  it('lists, aggregates and imports an own catalogue, refusing bad rows with their line numbers', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'db', 'init']);
    const list = JSON.parse(
      (await cli(['--db', db, 'training', 'canonical', 'list', '--domain', 'AUTH', '--severity', 'critical', '--json']))
        .stdout,
    );
    expect(list.length).toBeGreaterThan(0);
    expect(
      list.every((c: { domain: string; severity: string }) => c.domain === 'AUTH' && c.severity === 'critical'),
    ).toBe(true);
    const meta = JSON.parse((await cli(['--db', db, 'training', 'canonical', 'meta', '--json'])).stdout);
    expect(meta.total).toBeGreaterThanOrEqual(150);
    const csv =
      'id,title,objective,domain,category,severity,target_audience,iso27001\n' +
      'ORG-001,Eigene Regel,"Zweck\nüber zwei Zeilen",ORG,own,high,all,A.5.1;A.5.2\n' +
      'ORG-001,Doppelt,Zweck,ORG,own,high,all,\n' +
      'ORG-002,Ohne Zweck,,ORG,own,low,all,\n';
    const r = await cli(['--db', db, 'training', 'canonical', 'import', write('own.csv', csv)]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/line 4 \(ORG-001\): duplicate id ORG-001 \(first on line 2\)/);
    expect(r.stderr).toMatch(/line 5 \(ORG-002\): objective/);
    expect(r.stdout).toMatch(/created 1, updated 0, unchanged 0, rejected 2/);
    const again = await cli(['--db', db, 'training', 'canonical', 'import', write('own.csv', csv), '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, unchanged: 1, rejected: 2 });
    const own = JSON.parse(
      (await cli(['--db', db, 'training', 'canonical', 'list', '--domain', 'ORG', '--json'])).stdout,
    );
    expect(own).toEqual([
      expect.objectContaining({
        id: 'ORG-001',
        objective: 'Zweck\nüber zwei Zeilen',
        references: { iso27001: ['A.5.1', 'A.5.2'], nis2: [], bsi: [], nist: [] },
      }),
    ]);
  });
});

describe('compliance redact', () => {
  it('prints the redacted text on stdout and the counts on stderr', async () => {
    const r = await cli(['redact', '-', '--names', 'Erika Mustermann'], {
      stdin: 'Erika Mustermann, erika@example.com, Tel. 0171 2345678',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[PERSON_1], [EMAIL_1], Tel. [PHONE_1]');
    expect(r.stderr).toMatch(/redacted: email 1, phone 1, person 1/);
    const j = await cli(['redact', '-', '--json'], { stdin: 'a@b.de' });
    expect(JSON.parse(j.stdout)).toEqual({ text: '[EMAIL_1]', counts: { email: 1 } });
  });
});
