import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb, useServer } from '../support/helpers.js';

const csv = () => {
  const f = join(tmp(), 'c.csv');
  writeFileSync(f, 'user_id,data_point_id,granted\nu1,newsletter,true\n');
  return f;
};

// what a command line says, and the flag its details name; "invalid query parameter" and "invalid body" are the API's
const CASES: Array<[string[], string, string]> = [
  [
    ['consents', 'import', 'CSV', '--delimiter', ';;'],
    '--delimiter: must be exactly one character, such as , ; | or a tab',
    '--delimiter',
  ],
  [
    ['consents', 'import', 'CSV', '--date-format', 'QQ'],
    '--date-format: unknown letters "QQ" in the date format; use YYYY YY MM M DD D HH H mm ss SSS Z, and [text] for literal text',
    '--date-format',
  ],
  [
    // --timezone is another name of --time-zone, which the message names
    ['consents', 'import', 'CSV', '--timezone', 'Mars/Base'],
    '--time-zone: expected an IANA time zone such as Europe/Berlin or UTC',
    '--time-zone',
  ],
  [
    ['consents', 'import', 'CSV', '--map', 'foo'],
    '--map: invalid entry "foo": expected column=field with field one of user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent',
    '--map',
  ],
  [
    ['consents', 'import', 'CSV', '--true-values', 'ja', '--false-values', 'ja', '--dry-run'],
    '--true-values: ja cannot mean both true and false',
    '--true-values',
  ],
  [
    ['consents', 'list', '--granted', 'maybe'],
    '--granted: expected a boolean (true/false, 1/0, yes/no), got "maybe"',
    '--granted',
  ],
  [
    ['consents', 'grant', '--user-id', 'u', '--data-point', 'd', '--ip', '1.2.3'],
    '--ip: expected an IPv4 or IPv6 address',
    '--ip',
  ],
  [['dsfa', 'list', '--limit', '1000'], '--limit: must be at most 500, got 1000', '--limit'],
  [
    ['dsfa', 'create', '--title', 'T', '--risk-level', 'enormous'],
    '--risk-level: "enormous" is not allowed; allowed values: low, medium, high, critical',
    '--risk-level',
  ],
  [
    ['legal-docs', 'create', '--title', 'T', '--type', 'memo'],
    '--type: "memo" is not allowed; allowed values: privacy_policy, terms, cookie_policy, imprint, dpa',
    '--type',
  ],
  [
    ['training', 'modules', 'create', '--code', 'X-1', '--title', 'T', '--area', 'tax', '--frequency', 'micro'],
    '--area: "tax" is not allowed; allowed values: dsgvo, nis2, iso27001, ai_act, geschgehg, hinschg',
    '--area',
  ],
  [
    ['training', 'assignments', 'compute', '--user-id', 'u', '--name', 'N', '--email', 'no-mail', '--roles', 'R9'],
    '--email: expected an e-mail address such as name@example.com (no spaces or control characters)',
    '--email',
  ],
];

describe('option errors on the command line name the flag, not the API field', () => {
  const srv = useServer();
  let n = 0;

  it.each(['local', 'remote'])('%s', async (face) => {
    const db = tmpDb();
    await cli(['--db', db, 'db', 'init']);
    const tenant = ['--tenant', `flags-${++n}`];
    const run = (args: string[]) =>
      cli(face === 'local' ? ['--db', db, ...args] : ['--remote', srv.url, ...tenant, ...args]);
    const file = csv();
    // the tenant has a record: the commands below read it (a tenant the store has never seen is refused first)
    expect((await run(['consents', 'grant', '--user-id', 'u', '--data-point', 'x'])).code).toBe(0);
    for (const [template, message, flag] of CASES) {
      const args = template.map((a) => (a === 'CSV' ? file : a));
      const text = await run(args);
      expect(text.code, `${args.join(' ')}: ${text.stderr}`).toBe(2);
      expect(text.stderr, args.join(' ')).toBe(`error: ${message}\n`);
      const json = await run([...args, '--json']);
      expect(JSON.parse(json.stderr), args.join(' ')).toMatchObject({
        error: message,
        details: [{ path: flag }],
      });
    }
  });

  it.each(['local', 'remote'])(
    '%s: an unknown option that is a value of an option of the command names that option',
    async (face) => {
      const where = face === 'local' ? ['--db', tmpDb()] : ['--remote', srv.url];
      for (const [args, hint] of [
        [['training', 'overdue', '--junit'], '--format junit'],
        [['dsfa', 'report', 'x', '--pdf'], '--format pdf'],
        [['report', 'management', '--docx', '-o', 'r.docx'], '--format docx'],
        [['dsfa', 'report', 'x', '--en'], '--lang en'],
      ] as const) {
        const flag = args.find((a) => a.startsWith('--'))!;
        const r = await cli([...where, ...args]);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`error: unknown option '${flag}' (Did you mean ${hint}?)\n(add --help for usage)\n`);
        const json = await cli([...where, '--json', ...args]);
        expect(JSON.parse(json.stderr)).toMatchObject({
          code: 'bad_request',
          details: [{ path: flag, message: `unknown option; did you mean ${hint}?` }],
        });
      }
      // commander's own suggestion stays where no value fits
      const typo = await cli([...where, 'training', 'overdue', '--jsn']);
      expect(typo.stderr).toContain("unknown option '--jsn' (Did you mean --json?)");
    },
  );

  it('keeps the API field where no flag gave it (a JSON body from a file)', async () => {
    const body = join(tmp(), 'body.json');
    writeFileSync(body, JSON.stringify({ title: 'x', risk_level: 'huge' }));
    const r = await cli(['--db', tmpDb(), 'dsfa', 'create', '-f', body]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: invalid body: risk_level: "huge" is not allowed; allowed values: low, medium, high, critical\n',
    );
  });

  it('lists several flags with their problems', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'db', 'init']);
    const r = await cli(['--db', db, 'consents', 'list', '--limit', '0', '--offset', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: 2 problems: --limit, --offset\n  --limit: must be at least 1, got 0\n  --offset: must be at least 0, got -1\n',
    );
  });

  it('leaves the HTTP API speaking in its own fields', async () => {
    const res = await fetch(`${srv.url}/sdk/v1/einwilligungen/consents?granted=maybe`, {
      headers: { 'x-tenant-id': 'api' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid query parameter granted: expected a boolean (true/false, 1/0, yes/no), got "maybe"',
      details: [{ path: 'granted' }],
    });
  });
});
