import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb } from '../support/helpers.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';

const STAFF =
  'user_id,user_name,user_email,roles\nu1,Anna Schmidt,anna@example.com,R9\nu2,Ben Meier,ben@example.com,R9;R1\n';

/** A laptop store with something in every area and two tenants. */
async function filledLaptop(): Promise<string> {
  const db = tmpDb();
  const run = async (...args: string[]) => {
    const r = await cli(['--db', db, ...args]);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  await run('dsfa', 'create', '--title', 'Videoüberwachung Lager', '--risk-level', 'high', '--data-category', 'Bild');
  await run('--tenant', 'zweite', 'dsfa', 'create', '--title', 'Bewerberportal');
  await run('consents', 'import', 'fixtures/consents/sample.csv');
  await run('--tenant', 'zweite', 'consents', 'grant', '--user-id', 'x@example.com', '--data-point', 'newsletter');
  const doc = JSON.parse(
    await run('legal-docs', 'create', '--title', 'Datenschutz', '--type', 'privacy_policy', '--json'),
  );
  const md = join(tmp(), 'v1.md');
  writeFileSync(md, '# Datenschutzerklärung\n\nKontakt: dsb@example.com\n');
  await run('legal-docs', 'add-version', doc.id, '--file', md, '--summary', 'erste Fassung');
  await run('cookie-banner', 'get');
  await run('training', 'catalog', 'install');
  const staff = join(tmp(), 'staff.csv');
  writeFileSync(staff, STAFF);
  await run('training', 'assignments', 'compute', '--users', staff);
  await run('keys', 'create', '--name', 'ci');
  return db;
}

const counts = (report: { tables: Array<{ table: string; target_rows: number }> }) =>
  Object.fromEntries(report.tables.map((t) => [t.table, t.target_rows]));

describe('db copy', () => {
  let laptop = '';
  beforeAll(async () => {
    laptop = await filledLaptop();
  }, 60_000);

  it('moves a laptop store to PostgreSQL and back, every table verified by count and checksum', async () => {
    const server = await freshPostgresDatabase();
    const up = await cli(['db', 'copy', laptop, server, '--json']);
    expect(up.code, up.stderr).toBe(0);
    const report = JSON.parse(up.stdout);
    expect(report).toMatchObject({ engines: 'sqlite -> postgres', ok: true });
    expect(counts(report)).toMatchObject({ dsfa: 2, consent: 5, legal_document: 1, training_module: 32 });
    for (const t of report.tables) expect(t.source_checksum, t.table).toBe(t.target_checksum);

    // the copy answers like the original, for every tenant
    for (const args of [
      ['dsfa', 'list', '--json'],
      ['--tenant', 'zweite', 'dsfa', 'list', '--json'],
      ['consents', 'stats', '--json'],
      ['training', 'assignments', 'list', '--json'],
      ['dsfa', 'audit-log', '--json'],
    ]) {
      const [a, b] = [await cli(['--db', laptop, ...args]), await cli(['--db', server, ...args])];
      expect(b.code, b.stderr).toBe(0);
      expect(JSON.parse(b.stdout), args.join(' ')).toEqual(JSON.parse(a.stdout));
    }

    const back = tmpDb();
    const down = JSON.parse((await cli(['db', 'copy', server, back, '--json'])).stdout);
    expect(down).toMatchObject({ engines: 'postgres -> sqlite', ok: true });
    // the same contents give the same checksums on both engines
    expect(down.tables.map((t: { target_checksum: string }) => t.target_checksum)).toEqual(
      report.tables.map((t: { target_checksum: string }) => t.target_checksum),
    );
  }, 60_000);

  it('refuses a target that is not empty, leaving it untouched, and replaces it with --force', async () => {
    const target = tmpDb();
    expect((await cli(['--db', target, 'dsfa', 'create', '--title', 'schon da'])).code).toBe(0);
    const refused = await cli(['db', 'copy', laptop, target]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/is not empty \(.*dsfa: 1.*\); use --force/);
    expect(JSON.parse((await cli(['--db', target, 'dsfa', 'list', '--json'])).stdout)).toHaveLength(1);
    const forced = await cli(['db', 'copy', laptop, target, '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    const titles = JSON.parse((await cli(['--db', target, 'dsfa', 'list', '--json'])).stdout).map(
      (d: { title: string }) => d.title,
    );
    expect(titles).toEqual(['Videoüberwachung Lager']);
  }, 60_000);

  it('leaves the target unchanged when the copy fails halfway', async () => {
    const server = await freshPostgresDatabase();
    expect((await cli(['--db', server, 'dsfa', 'list'])).code).toBe(0); // creates the schema
    const database = new URL(server).pathname.slice(1);
    // the last table written refuses its rows: everything before it must be rolled back
    await asAdmin(
      `create function refuse() returns trigger language plpgsql as $$ begin raise exception 'disk on fire'; end $$;
       create trigger refuse before insert on training_quiz_attempt for each row execute function refuse();`,
      [],
      database,
    );
    const laptopWithAttempt = await filledLaptop();
    const assignments = JSON.parse(
      (await cli(['--db', laptopWithAttempt, 'training', 'assignments', 'list', '--json'])).stdout,
    );
    const a = assignments[0];
    const detail = JSON.parse(
      (await cli(['--db', laptopWithAttempt, 'training', 'modules', 'show', a.module_id, '--json'])).stdout,
    );
    const answers = join(tmp(), 'answers.json');
    writeFileSync(
      answers,
      JSON.stringify(detail.questions.map((q: { id: string }) => ({ question_id: q.id, selected_index: 0 }))),
    );
    await cli(['--db', laptopWithAttempt, 'training', 'assignments', 'start', a.id]);
    await cli(['--db', laptopWithAttempt, 'training', 'quiz', 'take', a.id, '--answers', answers]);
    const failed = await cli(['db', 'copy', laptopWithAttempt, server]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/disk on fire/);
    const { rows } = await asAdmin<{ n: number }>(
      `select (select count(*) from dsfa) + (select count(*) from consent) + (select count(*) from training_module) as n`,
      [],
      database,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  }, 90_000);

  it.each(['sqlite', 'postgres'])(
    'verifies a copy from a live %s source, written to throughout, against the snapshot it copied',
    async (engine) => {
      const source = engine === 'sqlite' ? tmpDb() : await freshPostgresDatabase();
      expect((await cli(['db', 'copy', laptop, source])).code).toBe(0);
      // another writer on the source for the whole copy, as a running server would be
      const writer = await createLocalBackend(source);
      let copying = true;
      let writes = 0;
      const writing = (async () => {
        while (copying) {
          await writer.dsfa.create({ tenant: 'default', actor: 'writer', body: { title: `live ${writes}` } });
          writes++;
        }
      })();
      const target = tmpDb();
      const copy = await cli(['db', 'copy', source, target, '--json']).finally(() => (copying = false));
      await writing;
      await writer.close();
      expect(copy.code, copy.stderr).toBe(0);
      const report = JSON.parse(copy.stdout);
      expect(report.ok).toBe(true);
      const dsfa = report.tables.find((t: { table: string }) => t.table === 'dsfa');
      // the source went on growing after its snapshot: the copy holds the snapshot, not a mix
      expect(writes).toBeGreaterThan(0);
      expect(dsfa.source_rows).toBe(dsfa.target_rows);
      const listed = JSON.parse((await cli(['--db', source, 'dsfa', 'list', '--limit', '500', '--json'])).stdout);
      expect(listed.length).toBeGreaterThan(dsfa.target_rows);
    },
    60_000,
  );

  it('names a missing source and a bad URL in one line', async () => {
    const missing = await cli(['db', 'copy', join(tmp(), 'nope.db'), tmpDb()]);
    expect(missing.code).toBe(1); // like every command that only reads a store that does not exist
    expect(missing.stderr).toMatch(/^error: no store at .*nope.db: a command that only reads creates none/);
    const typo = await cli(['db', 'copy', laptop, 'postgress://localhost/x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unsupported database URL scheme "postgress:\/\/"/);
  });
});
