import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb, useServer } from '../support/helpers.js';

const json = (r: { stdout: string }) => JSON.parse(r.stdout);
const tail = (id: string) => id.slice(-8);

// Tables on a terminal show the last 8 characters of an id, and every command that takes an id takes them back.
describe.each(['local', 'remote'] as const)('short ids on the command line (%s)', (face) => {
  const srv = useServer();
  const db = tmpDb();
  const run = (args: string[], opts: { tty?: boolean } = {}) =>
    cli(face === 'local' ? ['--db', db, ...args] : ['--remote', srv.url, ...args], opts);

  it('tables show the short id and piped lines the whole id; get, update and the audit log take the short one', async () => {
    const a = json(await run(['dsfa', 'create', '--title', 'Kurz A', '--json']));
    const b = json(await run(['dsfa', 'create', '--title', 'Kurz B', '--json']));
    const table = (await run(['dsfa', 'list'], { tty: true })).stdout;
    expect(table).toContain(tail(a.id));
    expect(table).not.toContain(a.id);
    expect((await run(['dsfa', 'list'])).stdout).toContain(`${a.id}\tKurz A`);
    expect(json(await run(['dsfa', 'get', tail(a.id), '--json'])).title).toBe('Kurz A');
    expect((await run(['dsfa', 'update', tail(b.id), '--description', 'neu'])).code).toBe(0);
    const trail = json(await run(['dsfa', 'audit-log', '--dsfa', tail(b.id), '--json']));
    expect(trail.map((e: { action: string; dsfa_id: string }) => [e.action, e.dsfa_id])).toEqual([
      ['UPDATE', b.id],
      ['CREATE', b.id],
    ]);
    const audit = (await run(['dsfa', 'audit-log', '--dsfa', tail(b.id)], { tty: true })).stdout;
    expect(audit).toContain(tail(b.id));
    expect(audit).not.toContain(b.id);
    // the trail of a deleted assessment stays reachable by the same short id
    expect((await run(['dsfa', 'delete', tail(b.id), '--yes'])).code).toBe(0);
    expect((await run(['dsfa', 'get', tail(b.id)])).code).toBe(3);
    const after = json(await run(['dsfa', 'audit-log', '--dsfa', tail(b.id), '--json']));
    expect(after[0]).toMatchObject({ action: 'DELETE', dsfa_id: b.id });
    // two made within a minute share their first 8 characters (a UUIDv7's first 32 bits of milliseconds, which turn
    // every 65.5 s): the start is ambiguous, the end is not. Asked of the two that are still held, a and c, since a
    // slow moment may put c past the turn that a and b shared
    const c = json(await run(['dsfa', 'create', '--title', 'Kurz C', '--json']));
    let common = 0;
    while (a.id[common] === c.id[common]) common++;
    if (common >= 8) {
      const both = await run(['dsfa', 'get', c.id.slice(0, 8)]);
      expect([both.code, both.stderr]).toEqual([
        2,
        expect.stringMatching(/^error: DSFA id \S+ is ambiguous: it fits /),
      ]);
      expect(both.stderr).toContain(a.id);
    }
  });

  it('consents, legal documents and versions by their short ids', async () => {
    const c = json(await run(['consents', 'grant', '--user-id', 'anna@example.com', '--data-point', 'nl', '--json']));
    expect((await run(['consents', 'list'], { tty: true })).stdout).toContain(tail(c.id));
    expect(json(await run(['consents', 'history', tail(c.id), '--json']))).toHaveLength(1);
    // consents get (issue 36 item 15): by its short id, with its history; another tenant's is not found
    const got = json(await run(['consents', 'get', tail(c.id), '--json']));
    expect(got).toMatchObject({ id: c.id, user_id: 'anna@example.com', data_point_id: 'nl', revoked_at: null });
    expect(got.history.map((h: { action: string }) => h.action)).toEqual(['granted']);
    const piped = (await run(['consents', 'get', tail(c.id)])).stdout;
    expect(piped).toContain(`id\t${c.id}\n`);
    expect(piped).toMatch(/^history\t\S+Z granted 1\.0$/m);
    const elsewhere = await run(['--tenant', 'elsewhere', 'consents', 'get', tail(c.id)]);
    expect([elsewhere.code, elsewhere.stderr]).toEqual([
      3,
      expect.stringMatching(/not found|unknown tenant elsewhere/),
    ]);
    expect((await run(['consents', 'revoke', tail(c.id)])).code).toBe(0);
    const doc = json(await run(['legal-docs', 'create', '--title', 'Impressum', '--type', 'imprint', '--json']));
    const file = join(tmp(), 'impressum.md');
    writeFileSync(file, '# Impressum\n');
    const v = json(await run(['legal-docs', 'add-version', tail(doc.id), '--file', file, '--json']));
    expect(v.document_id).toBe(doc.id);
    expect((await run(['legal-docs', 'versions', tail(doc.id)], { tty: true })).stdout).toContain(tail(v.id));
    expect((await run(['legal-docs', 'submit', tail(v.id)])).code).toBe(0);
    expect(json(await run(['legal-docs', 'show', tail(doc.id), '--json'])).id).toBe(doc.id);
  });

  it('training modules, assignments and certificates by their short ids', async () => {
    expect((await run(['training', 'catalog', 'install'])).code).toBe(0);
    const staff = join(tmp(), 'staff.csv');
    writeFileSync(staff, 'user_id,user_name,user_email,roles\nk1,Kim Kurz,kim@example.com,R5\n');
    expect((await run(['training', 'assignments', 'compute', '--users', staff])).code).toBe(0);
    const [a] = json(await run(['training', 'assignments', 'list', '--user-id', 'k1', '--json']));
    const listed = (await run(['training', 'assignments', 'list', '--user-id', 'k1'], { tty: true })).stdout;
    expect(listed).toContain(tail(a.id));
    expect(listed).not.toContain(a.id);
    expect(json(await run(['training', 'assignments', 'show', tail(a.id), '--json'])).id).toBe(a.id);
    const m = json(await run(['training', 'modules', 'show', tail(a.module_id), '--json']));
    expect(m.id).toBe(a.module_id);
    const byModule = json(await run(['training', 'assignments', 'list', '--module', tail(a.module_id), '--json']));
    expect(byModule.map((x: { id: string }) => x.id)).toContain(a.id);
    const answers = join(tmp(), 'answers.json');
    const right = m.questions.map((q: { id: string; correct_index: number }) => ({
      question_id: q.id,
      selected_index: q.correct_index,
    }));
    writeFileSync(answers, JSON.stringify(right));
    expect((await run(['training', 'assignments', 'start', tail(a.id)])).code).toBe(0);
    expect((await run(['training', 'quiz', 'take', tail(a.id), '--answers', answers])).code).toBe(0);
    expect((await run(['training', 'assignments', 'complete', tail(a.id)])).code).toBe(0);
    const cert = json(await run(['training', 'certificates', 'generate', tail(a.id), '--json']));
    expect((await run(['training', 'certificates', 'list'], { tty: true })).stdout).toContain(
      tail(cert.certificate_id),
    );
    expect((await run(['training', 'certificates', 'verify', tail(cert.certificate_id)])).code).toBe(0);
  });
});
