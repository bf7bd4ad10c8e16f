import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, useServer, freePort, startServer, tmp, tmpDb } from '../support/helpers.js';
import { requirePrograms } from '../support/programs.js';

const aiModules = [
  {
    use_case_type: 'adm_scoring',
    name: 'Bewerber-Scoring',
    ai_act_risk_class: 'high',
    risks: [{ title: 'Diskriminierung', severity: 'high' }],
  },
];

describe('dsfa commands on the embedded store', () => {
  const db = tmpDb();
  const run = (args: string[], stdin?: string) => cli(['--db', db, ...args], { stdin });

  it('creates from flags and prints the wire shape with --json', async () => {
    const r = await run([
      'dsfa',
      'create',
      '--json',
      '--title',
      'Mitarbeiterüberwachung',
      '--risk-level',
      'high',
      '--data-category',
      'Bewerbungsunterlagen (Lebenslauf, Zeugnisse)',
      '--data-category',
      'Arbeitszeiten',
      '--measure',
      'Pseudonymisierung',
    ]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({
      title: 'Mitarbeiterüberwachung',
      risk_level: 'high',
      data_categories: ['Bewerbungsunterlagen (Lebenslauf, Zeugnisse)', 'Arbeitszeiten'],
      measures: ['Pseudonymisierung'],
      created_by: 'tester',
    });
    expect(r.stderr).toBe('');
    // piped output shows a list as JSON, so a comma inside an item stays visible
    const piped = await run(['dsfa', 'get', d.id]);
    expect(piped.stdout).toContain('data_categories\t["Bewerbungsunterlagen (Lebenslauf, Zeugnisse)","Arbeitszeiten"]');
  });

  it('adds and removes single list items without retyping the others', async () => {
    const own = tmpDb();
    const run = (args: string[]) => cli(['--db', own, ...args]);
    const id = JSON.parse(
      (await run(['dsfa', 'create', '--json', '--title', 'Listen', '--recipient', 'Steuerberater, extern'])).stdout,
    ).id;
    const add = ['--add-recipient', 'Lohnbüro', '--add-measure', 'TLS, mindestens 1.2', '--add-recipient', 'Lohnbüro'];
    const r = await run(['dsfa', 'update', id, '--json', ...add]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      recipients: ['Steuerberater, extern', 'Lohnbüro'],
      measures: ['TLS, mindestens 1.2'],
    });
    const removed = await run(['dsfa', 'update', id, '--json', '--remove-recipient', 'Steuerberater, extern']);
    expect(JSON.parse(removed.stdout).recipients).toEqual(['Lohnbüro']);
    const typo = await run(['dsfa', 'update', id, '--remove-recipient', 'Lohnburo']);
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringContaining('"Lohnburo": not in the list')]);
    const both = await run(['dsfa', 'update', id, '--recipient', 'x', '--add-recipient', 'y']);
    expect(both.code).toBe(2);
  });

  it('creates from a JSON body on stdin, flags override it', async () => {
    const body = { title: 'aus Datei', description: 'von stdin', ai_use_case_modules: aiModules };
    const r = await run(['dsfa', 'create', '--json', '-f', '-', '--status', 'in-review'], JSON.stringify(body));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      title: 'aus Datei',
      status: 'in-review',
      ai_use_case_modules: [{ name: 'Bewerber-Scoring' }],
    });
  });

  it('prints tab-separated lines without a header when piped', async () => {
    const r = await run(['dsfa', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toHaveLength(6);
    expect(lines[1]).toContain('Mitarbeiterüberwachung');
  });

  it('refuses to prompt without a terminal: create without --title is a usage error', async () => {
    const r = await run(['dsfa', 'create']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--title/);
    expect(r.stdout).toBe('');
  });

  it.each([
    [
      ['dsfa', 'create', '--title', 'x', '--status', 'closed'],
      2,
      /allowed values: draft, in-review, approved, needs-update/,
    ],
    [['dsfa', 'create', '--title', 'x', '--risk-level', 'huge'], 2, /allowed values: low, medium, high, critical/],
    [['dsfa', 'create', '--title', ''], 2, /title: must not be empty/],
    [['dsfa', 'list', '--limit', '0'], 2, /limit: must be at least 1/],
    [['dsfa', 'list', '--limit', '501'], 2, /limit: must be at most 500/],
    [['dsfa', 'list', '--limit', 'ten'], 2, /limit: expected number/],
    [['dsfa', 'get', '0190f4c2-0000-7000-8000-000000000000'], 3, /not found/],
    [['dsfa', 'set-status', '0190f4c2-0000-7000-8000-000000000000', 'approved'], 3, /not found/],
    [['dsfa', 'delete', 'abc'], 2, /--yes/],
    [['dsfa', 'frobnicate'], 2, /unknown command/],
    [['dsfa', 'list', '--colour'], 2, /unknown option/],
  ])('%j exits %i with a clear message', async (args, code, message) => {
    const before = (await run(['dsfa', 'stats', '--json'])).stdout;
    const r = await run(args as string[]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await run(['dsfa', 'stats', '--json'])).stdout).toBe(before);
  });

  it('reports malformed JSON files and missing files with exit 2', async () => {
    const bad = join(tmp(), 'bad.json');
    writeFileSync(bad, '{"title": ');
    let r = await run(['dsfa', 'create', '-f', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/malformed JSON/);
    r = await run(['dsfa', 'create', '-f', join(tmp(), 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file/);
  });

  it('prints errors as JSON on stderr with --json', async () => {
    const r = await run(['dsfa', 'create', '--json', '--title', 'x', '--status', 'closed']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'validation', details: [{ path: 'status' }] });
  });

  it('walks the status workflow, updates, deletes with --yes, and keeps the audit trail', async () => {
    const id = JSON.parse((await run(['dsfa', 'create', '--json', '--title', 'Workflow'])).stdout).id as string;
    expect((await run(['dsfa', 'update', id, '--description', 'neu', '--json'])).code).toBe(0);
    const approved = JSON.parse(
      (await run(['dsfa', 'set-status', id, 'approved', '--approved-by', 'dpo@example.com', '--json'])).stdout,
    );
    expect(approved).toMatchObject({ status: 'approved', approved_by: 'dpo@example.com' });
    const del = await run(['dsfa', 'delete', id, '--yes']);
    expect(del.stdout).toContain(id);
    const log = JSON.parse((await run(['dsfa', 'audit-log', '--dsfa', id, '--json'])).stdout) as Array<{
      action: string;
    }>;
    expect(log.map((e) => e.action)).toEqual(['DELETE', 'STATUS_CHANGE', 'UPDATE', 'CREATE']);
  });

  it('chooses the strict review workflow per tenant and names the allowed transitions when refusing', async () => {
    const t = ['--tenant', 'strenge-gmbh', '--user', 'autorin'];
    expect((await run([...t, 'dsfa', 'workflow', '--json'])).stdout).toContain('"workflow": "open"');
    expect((await run([...t, 'dsfa', 'workflow', 'strict'])).code).toBe(0);
    const bad = await run([...t, 'dsfa', 'workflow', 'lenient']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('open, strict')]);
    const id = JSON.parse((await run([...t, 'dsfa', 'create', '--title', 'Streng', '--json'])).stdout).id;
    const skip = await run([...t, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'dsb']);
    expect(skip.code).toBe(5);
    expect(skip.stderr).toContain('from draft it allows in-review');
    expect((await run([...t, 'dsfa', 'set-status', id, 'in-review'])).code).toBe(0);
    const self = await run([...t, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'autorin']);
    expect([self.code, self.stderr]).toEqual([5, expect.stringContaining('four-eyes')]);
    expect((await run([...t, 'dsfa', 'set-status', id, 'approved', '--approved-by', 'dsb'])).code).toBe(0);
    expect((await run(['dsfa', 'workflow', '--json'])).stdout).toContain('"workflow": "open"'); // other tenant
  });

  it('keeps tenants apart on the command line', async () => {
    const id = JSON.parse((await run(['dsfa', 'create', '--json', '--tenant', 't1', '--title', 'nur t1'])).stdout)
      .id as string;
    expect((await run(['dsfa', 'get', id, '--tenant', 't2'])).code).toBe(3);
    expect((await cli(['--db', db, 'dsfa', 'get', id], { env: { COMPLIANCE_TENANT: 't1' } })).code).toBe(0);
  });
});

describe('dsfa screen', () => {
  const db = tmpDb();
  it('explains a required verdict and creates a draft recording the answers', async () => {
    const r = await cli([
      '--db',
      db,
      'dsfa',
      'screen',
      '--criteria',
      'scoring,vulnerable_subjects',
      '--create',
      '--title',
      'Bewerberauswahl',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/DSFA required: yes/);
    expect(r.stdout).toMatch(/2 of the 9 WP248 criteria/);
    const list = JSON.parse((await cli(['--db', db, 'dsfa', 'list', '--json'])).stdout);
    expect(list[0]).toMatchObject({ title: 'Bewerberauswahl', status: 'draft', risk_level: 'high' });
    expect(list[0].description).toContain('[x] Evaluation or scoring');
  });

  it.each([
    [['--criteria', 'large_scale'], false],
    [['--trigger', 'high_risk_ai'], true],
    [[], null],
  ])('answers %j', async (flags, required) => {
    const r = await cli(['--db', db, 'dsfa', 'screen', '--json', ...flags]);
    if (required === null) {
      expect(r.code).toBe(2);
      return;
    }
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).required).toBe(required);
  });

  it('refuses unknown criteria, listing the allowed ones', async () => {
    const r = await cli(['--db', db, 'dsfa', 'screen', '--criteria', 'cloud']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scoring, automated_decision/);
  });
});

describe('dsfa report', () => {
  const db = tmpDb();
  let id = '';
  beforeAll(async () => {
    id = JSON.parse(
      (
        await cli([
          '--db',
          db,
          'dsfa',
          'create',
          '--json',
          '--title',
          'Gesundheitsdaten-Plattform für Ärzte',
          '--measure',
          'Verschlüsselung (AES-256)',
          '--ai-modules',
          writeJson(aiModules),
        ])
      ).stdout,
    ).id;
    await cli(['--db', db, 'dsfa', 'set-status', id, 'in-review']);
  });
  function writeJson(v: unknown) {
    const f = join(tmp(), 'm.json');
    writeFileSync(f, JSON.stringify(v));
    return f;
  }

  it('writes Markdown with fields, AI modules and the audit trail', async () => {
    const r = await cli(['--db', db, 'dsfa', 'report', id, '--format', 'md']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Gesundheitsdaten-Plattform für Ärzte');
    expect(r.stdout).toContain('Bewerber-Scoring');
    expect(r.stdout).toMatch(/STATUS_CHANGE \| tester \| draft → in-review/);
  });

  it('writes a PDF whose text reads back with umlauts', async (ctx) => {
    const out = join(tmp(), 'report.pdf');
    const r = await cli(['--db', db, 'dsfa', 'report', id, '--format', 'pdf', '-o', out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    requirePrograms(ctx, 'pdftotext');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    expect(text).toContain('Gesundheitsdaten-Plattform für Ärzte');
    expect(text).toContain('Verschlüsselung');
    expect(text).toContain('Bewerber-Scoring');
    expect(text).toContain('STATUS_CHANGE');
  });

  it('needs -o for a PDF and refuses unknown formats', async () => {
    expect((await cli(['--db', db, 'dsfa', 'report', id, '--format', 'pdf'])).code).toBe(2);
    expect((await cli(['--db', db, 'dsfa', 'report', id, '--format', 'docx'])).code).toBe(2);
  });
});

describe('remote mode gives the same output and exit codes as the local store', () => {
  const srv = useServer();
  const localDb = tmpDb();
  const scrub = (s: string) =>
    s
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+/g, 'TS');

  it('runs the same session on both faces', async () => {
    const session: string[][] = [
      ['dsfa', 'create', '--title', 'Parität', '--risk-level', 'low'],
      ['dsfa', 'create', '--json', '--title', 'Zwei', '--status', 'approved'],
      ['dsfa', 'list'],
      ['dsfa', 'list', '--json', '--status', 'approved'],
      ['dsfa', 'stats', '--json'],
      ['dsfa', 'stats'],
      ['dsfa', 'audit-log'],
      ['dsfa', 'create', '--title', 'x', '--status', 'bad'],
      ['dsfa', 'list', '--limit', '0'],
      ['dsfa', 'list', '--limit', 'x'],
      ['dsfa', 'get', 'missing-id'],
    ];
    for (const args of session) {
      const l = await cli(['--db', localDb, ...args]);
      const r = await cli(['--remote', srv.url, ...args]);
      expect({ args, code: r.code, out: scrub(r.stdout), err: scrub(r.stderr) }).toEqual({
        args,
        code: l.code,
        out: scrub(l.stdout),
        err: scrub(l.stderr),
      });
    }
  });

  it('takes the URL from COMPLIANCE_REMOTE, with or without /sdk/v1', async () => {
    expect((await cli(['dsfa', 'list'], { env: { COMPLIANCE_REMOTE: `${srv.url}/sdk/v1/` } })).code).toBe(0);
  });

  it('names the URL when the server cannot be reached', async () => {
    const port = await freePort();
    const r = await cli(['--remote', `http://127.0.0.1:${port}`, 'dsfa', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach remote server http://127.0.0.1:${port}/sdk/v1: connection refused`);
    const bad = await cli(['--remote', 'not a url', 'dsfa', 'list']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a URL/);
  });

  it('exits 4 on a wrong API key and works with the right one', async () => {
    const l = await createLocalBackend(tmpDb());
    const db = l.location;
    const key = JSON.parse((await cli(['--db', db, 'keys', 'create', '--name', 'ci', '--json'])).stdout).key as string;
    expect(key).toMatch(/^cmp_/);
    const s = await startServer(l);
    try {
      const wrong = await cli(['--remote', s.url, '--api-key', 'cmp_000000000000_nope', 'dsfa', 'list']);
      expect(wrong.code).toBe(4);
      expect(wrong.stderr).toMatch(/invalid API key/);
      expect((await cli(['--remote', s.url, 'dsfa', 'list'])).code).toBe(4);
      expect((await cli(['--remote', s.url, 'dsfa', 'list'], { env: { COMPLIANCE_API_KEY: key } })).code).toBe(0);
      const listed = await cli(['--db', db, 'keys', 'list']);
      expect(listed.stdout).toContain('ci');
      expect(listed.stdout).not.toContain(key);
    } finally {
      await s.close();
      await l.close();
    }
  });
});

describe('the store file', () => {
  it('says clearly when the file is not an SQLite database, and leaves it alone', async () => {
    const f = join(tmp(), 'notes.db');
    writeFileSync(f, 'these are my notes, not a database\n'.repeat(100));
    const before = readFileSync(f);
    const r = await cli(['--db', f, 'dsfa', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not an SQLite database/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(f).equals(before)).toBe(true);
  });

  it('says clearly when the store cannot be created', async () => {
    const f = join(tmp(), 'plain-file');
    writeFileSync(f, 'x');
    const r = await cli(['--db', join(f, 'sub', 'store.db'), 'dsfa', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot open database/);
  });

  it('uses $XDG_DATA_HOME/compliance/compliance.db by default', async () => {
    const xdg = tmp();
    expect((await cli(['dsfa', 'create', '--title', 'x'], { env: { XDG_DATA_HOME: xdg } })).code).toBe(0);
    expect(existsSync(join(xdg, 'compliance', 'compliance.db'))).toBe(true);
  });

  it('reports status and takes an online backup that opens as a store', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'dsfa', 'create', '--title', 'gesichert']);
    const status = JSON.parse((await cli(['--db', db, 'db', 'status', '--json'])).stdout);
    expect(status).toMatchObject({
      journal_mode: 'wal',
      schema_version: status.migrations_known,
      tables: { dsfa: 1, dsfa_audit: 1 },
    });
    const target = join(tmp(), 'backup.db');
    expect((await cli(['--db', db, 'db', 'backup', target])).code).toBe(0);
    const copy = new Database(target, { readonly: true });
    expect((copy.prepare('select title from dsfa').get() as { title: string }).title).toBe('gesichert');
    copy.close();
    expect((await cli(['--db', db, 'db', 'backup', target])).code).toBe(5);
    expect((await cli(['--db', db, 'db', 'backup', target, '--force'])).code).toBe(0);
  });

  it('keeps keys and db commands local', async () => {
    const r = await cli(['--remote', 'http://127.0.0.1:9', 'keys', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/embedded store only/);
  });
});
