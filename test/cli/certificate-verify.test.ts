import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { cli, tmp, tmpDb } from '../support/helpers.js';
import { requirePrograms } from '../support/programs.js';
import { serve } from '../support/serve-process.js';

type Served = Awaited<ReturnType<typeof serve>>;

/** What the QR code of a certificate PDF holds. */
function qrOf(pdf: string): string {
  const png = join(tmp(), 'qr');
  execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', pdf, png]);
  return spawnSync('zbarimg', ['--raw', '-q', `${png}.png`], { encoding: 'utf8' }).stdout.trim();
}

describe('a certificate is verifiable by what is printed on it', () => {
  const db = tmpDb();
  const run = (...a: string[]) => cli(['--db', db, ...a]);
  let server: Served;
  let key = '';
  let cert = { id: '', code: '', assignment: '' };

  beforeAll(async () => {
    await run('training', 'catalog', 'install');
    const staff = join(tmp(), 'staff.csv');
    writeFileSync(staff, 'user_id,user_name,user_email,roles\nd1,Dora Beispiel,dora@example.com,R5\n');
    await run('training', 'assignments', 'compute', '--users', staff);
    const [a] = JSON.parse((await run('training', 'assignments', 'list', '--user-id', 'd1', '--json')).stdout);
    const detail = JSON.parse((await run('training', 'modules', 'show', a.module_id, '--json')).stdout);
    const answers = detail.questions.map((q: { id: string; correct_index: number }) => ({
      question_id: q.id,
      selected_index: q.correct_index,
    }));
    const file = join(tmp(), 'answers.json');
    writeFileSync(file, JSON.stringify(answers));
    await run('training', 'assignments', 'start', a.id);
    await run('training', 'quiz', 'take', a.id, '--answers', file);
    await run('training', 'assignments', 'complete', a.id);
    const issued = JSON.parse((await run('training', 'certificates', 'generate', a.id, '--json')).stdout);
    const [c] = JSON.parse((await run('training', 'certificates', 'list', '--json')).stdout);
    cert = { id: issued.certificate_id, code: c.verification_code, assignment: a.id };
    key = JSON.parse((await run('keys', 'create', '--name', 'staff', '--json')).stdout).key;
    server = await serve(['--db', db]);
  }, 60_000);
  afterAll(() => server?.proc.kill('SIGTERM'));

  it('prints the verification code when the certificate is issued, also with --json (again: the same one)', async () => {
    const again = await run('training', 'certificates', 'generate', cert.assignment);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`verification_code\t${cert.code}\n`);
    const json = JSON.parse((await run('training', 'certificates', 'generate', cert.assignment, '--json')).stdout);
    expect(json).toMatchObject({ certificate_id: cert.id, verification_code: cert.code });
  });

  it('writes the certificate in German by default, in English with --lang en or COMPLIANCE_LANG=en', async (ctx) => {
    requirePrograms(ctx, 'pdftotext');
    const text = async (args: string[], env: Record<string, string> = {}) => {
      const file = join(tmp(), 'c.pdf');
      const r = await cli(['--db', db, 'training', 'certificates', 'pdf', cert.id, '-o', file, ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      return execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
    };
    const base = ['--verify-url', 'https://verify.example.com/sdk/v1'];
    const de = await text(base);
    expect(de).toContain('Teilnahmezertifikat');
    expect(de).toContain('Zum Prüfen scannen: Gültigkeit, Modul, Datum und Initialen');
    expect(de).not.toMatch(/Scan to verify|Certificate|Score|Valid until/);
    const en = await text([...base, '--lang', 'en']);
    expect(en).toContain('Certificate of completion');
    expect(en).toContain('Scan to verify: validity, module, date and initials');
    expect(en).not.toMatch(/Zertifikat|Prüf|Gültig|bestätigt/);
    expect(await text(base, { COMPLIANCE_LANG: 'en' })).toContain('Scan to verify');
    expect(await text([...base, '--lang', 'de'], { COMPLIANCE_LANG: 'en' })).toContain('Zum Prüfen scannen');
    // without a verification URL the certificate names the command that checks its code, in its language
    expect(await text([])).toContain(`Prüfen mit: compliance training certificates verify ${cert.code}`);
    const bad = await cli([
      '--db',
      db,
      'training',
      'certificates',
      'pdf',
      cert.id,
      '-o',
      join(tmp(), 'x.pdf'),
      '--lang',
      'fr',
    ]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/Allowed choices are de, en/)]);
    const badEnv = await cli(['--db', db, 'training', 'certificates', 'list'], { env: { COMPLIANCE_LANG: 'fr' } });
    expect([badEnv.code, badEnv.stderr]).toEqual([
      2,
      expect.stringMatching(/COMPLIANCE_LANG=fr: allowed values are de, en/),
    ]);
  });

  it('verifies by the printed code as well as by the id', async () => {
    const byCode = await run('training', 'certificates', 'verify', cert.code, '--json');
    expect(byCode.code).toBe(0);
    expect(JSON.parse(byCode.stdout)).toMatchObject({ valid: true, certificate: { id: cert.id } });
    expect((await run('training', 'certificates', 'verify', cert.code.replaceAll('-', '').toLowerCase())).code).toBe(0);
  });

  it('verifies by the URL in the QR code, locally and remotely, and by a code or URL that is unknown exits 6', async () => {
    const url = `${server.url}/sdk/v1/training/certificates/verify/${cert.code}?tenant_id=default`;
    const remote = (...a: string[]) => cli(['--remote', server.url, '--api-key', key, ...a]);
    for (const face of [run, remote]) {
      const byUrl = await face('training', 'certificates', 'verify', url);
      expect([byUrl.code, byUrl.stdout]).toEqual([0, expect.stringMatching(/^valid: Dora Beispiel, /)]);
      const json = await face(
        'training',
        'certificates',
        'verify',
        url.replace(cert.code, cert.code.toLowerCase()),
        '--json',
      );
      expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, certificate: { id: cert.id } });
      // a code that no certificate carries: the certificate does not verify, whatever made it up
      for (const unknown of ['0000-0000-0000-0000', url.replace(cert.code, '0000-0000-0000-0000')]) {
        const r = await face('training', 'certificates', 'verify', unknown);
        expect([r.code, r.stdout]).toEqual([6, expect.stringMatching(/^NOT valid: .*0000-0000-0000-0000.* not found/)]);
        const j = await face('training', 'certificates', 'verify', unknown, '--json');
        expect([j.code, j.stdout, JSON.parse(j.stderr).code]).toEqual([6, '', 'not_found']);
      }
      expect((await face('training', 'certificates', 'verify', 'no-such-certificate')).code).toBe(6);
      // the URL of another tenant's certificate is not looked up in this one
      const other = await face(
        'training',
        'certificates',
        'verify',
        url.replace('tenant_id=default', 'tenant_id=acme'),
      );
      expect([other.code, other.stderr]).toEqual([
        2,
        expect.stringContaining(
          'the verification URL is for tenant acme, this command runs for tenant default: add --tenant acme',
        ),
      ]);
      const elsewhere = await face('training', 'certificates', 'verify', `${server.url}/sdk/v1/training/certificates`);
      expect([elsewhere.code, elsewhere.stderr]).toEqual([
        2,
        expect.stringContaining('is not the verification URL of a certificate'),
      ]);
    }
  });

  it('exits 6 for a certificate whose stored fields were edited, saying that its signature does not match', async () => {
    const copy = join(tmp(), 'copy.db');
    expect((await run('db', 'backup', copy)).code).toBe(0);
    const raw = new Database(copy);
    raw.prepare('update training_certificate set score = 55 where id = ?').run(cert.id);
    raw.close();
    const r = await cli(['--db', copy, 'training', 'certificates', 'verify', cert.code]);
    expect([r.code, r.stdout]).toEqual([
      6,
      expect.stringMatching(/^NOT valid \(the signature does not match its fields\): Dora/),
    ]);
  });

  it('exits 6 for a certificate past its validity, saying since when, as the public route does', async () => {
    const [c] = JSON.parse((await run('training', 'certificates', 'list', '--json')).stdout);
    const after = fixedClock(new Date(Date.parse(c.valid_until) + 86_400_000));
    const r = await cli(['--db', db, 'training', 'certificates', 'verify', cert.code], { clock: after });
    expect([r.code, r.stdout]).toEqual([
      6,
      expect.stringContaining(`NOT valid (expired on ${c.valid_until.slice(0, 10)}): Dora Beispiel`),
    ]);
    const json = await cli(['--db', db, 'training', 'certificates', 'verify', cert.code, '--json'], { clock: after });
    expect([json.code, JSON.parse(json.stdout)]).toEqual([
      6,
      expect.objectContaining({ valid: false, signature_valid: true, expired: true }),
    ]);
    // on its last day it still holds
    const lastDay = fixedClock(c.valid_until);
    const held = await cli(['--db', db, 'training', 'certificates', 'verify', cert.code, '--json'], { clock: lastDay });
    expect([held.code, JSON.parse(held.stdout)]).toEqual([
      0,
      expect.objectContaining({ valid: true, signature_valid: true, expired: false }),
    ]);
  });

  it('answers the public route without a key, with validity, module, dates and initials only', async () => {
    const url = `${server.url}/sdk/v1/training/certificates/verify/${cert.code}?tenant_id=default`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      valid: true,
      signature_valid: true,
      expired: false,
      module_code: expect.any(String),
      module_title: expect.any(String),
      issued_at: expect.any(String),
      valid_until: expect.any(String),
      holder_initials: 'D. B.',
    });
    expect(JSON.stringify(body)).not.toMatch(/Dora|Beispiel|dora@|d1/);
    const unknown = await fetch(`${server.url}/sdk/v1/training/certificates/verify/0000-0000-0000-0000`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${server.url}/sdk/v1/training/certificates/verify/not-a-code`)).status).toBe(400);
    // another tenant's code is not found
    expect((await fetch(`${url.replace('tenant_id=default', 'tenant_id=other')}`)).status).toBe(404);
    // the other certificate routes still need the key
    expect((await fetch(`${server.url}/sdk/v1/training/certificates`)).status).toBe(401);
  });

  it("puts the verification URL into the QR code: the server's own route remotely, --verify-url locally", async (ctx) => {
    requirePrograms(ctx, 'pdftoppm', 'zbarimg');
    const remote = join(tmp(), 'remote.pdf');
    const r = await cli([
      '--remote',
      server.url,
      '--api-key',
      key,
      'training',
      'certificates',
      'pdf',
      cert.id,
      '-o',
      remote,
    ]);
    expect(r.code).toBe(0);
    const target = qrOf(remote);
    expect(target).toBe(`${server.url}/sdk/v1/training/certificates/verify/${cert.code}?tenant_id=default`);
    expect((await fetch(target)).status).toBe(200);
    // what a phone's scanner reads off the paper is what verify takes
    expect((await run('training', 'certificates', 'verify', target)).code).toBe(0);

    const local = join(tmp(), 'local.pdf');
    const base = 'https://verify.example.com/sdk/v1';
    expect((await run('training', 'certificates', 'pdf', cert.id, '-o', local, '--verify-url', base)).code).toBe(0);
    expect(qrOf(local)).toBe(`${base}/training/certificates/verify/${cert.code}?tenant_id=default`);
    const bad = await run('training', 'certificates', 'pdf', cert.id, '-o', local, '--verify-url', 'ftp://x');
    expect(bad.code).toBe(2);
  });
});

describe('moving a deadline later', () => {
  it('recomputes the escalation level, so the gate no longer fails for an assignment that is not overdue', async () => {
    const db = tmpDb();
    const run = (...a: string[]) => cli(['--db', db, ...a]);
    await run('training', 'catalog', 'install');
    await run(
      'training',
      'assignments',
      'compute',
      '--user-id',
      'u1',
      '--name',
      'Uwe',
      '--email',
      'u@example.com',
      '--roles',
      'R5',
    );
    const [a] = JSON.parse((await run('training', 'assignments', 'list', '--json')).stdout);
    const past = new Date(Date.now() - 20 * 86_400_000).toISOString();
    await run('training', 'assignments', 'update', a.id, '--deadline', past);
    await run('training', 'escalation', 'check');
    const escalated = JSON.parse((await run('training', 'assignments', 'show', a.id, '--json')).stdout);
    expect(escalated.escalation_level).toBe(2);
    expect((await run('training', 'overdue', '--min-level', '2')).code).toBe(6);
    const later = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const moved = JSON.parse(
      (await run('training', 'assignments', 'update', a.id, '--deadline', later, '--json')).stdout,
    );
    expect(moved).toMatchObject({ escalation_level: 0, status: expect.not.stringMatching(/overdue/) });
    expect((await run('training', 'overdue', '--min-level', '1')).code).toBe(0);
  });
});
