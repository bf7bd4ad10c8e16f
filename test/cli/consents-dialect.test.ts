import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORT_BATCH } from '../../src/backend/local/import-batch-rows.js';
import { cli, tmp, tmpDb, useServer } from '../support/helpers.js';

const file = (name: string, content: string | Buffer) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};
const summaryOf = (stdout: string) =>
  JSON.parse(stdout) as { read: number; created: number; unchanged: number; rejected: number };

const srv = useServer();
let tenants = 0;

/** The CLI on a local store, and the same CLI against `compliance serve` (a fresh tenant per face). */
const faces = [
  {
    name: 'local',
    open: () => {
      const db = tmpDb();
      return (args: string[]) => cli(['--db', db, ...args]);
    },
  },
  {
    name: 'remote',
    open: () => {
      const tenant = `dialect-${++tenants}`;
      return (args: string[]) => cli(['--remote', srv.url, '--tenant', tenant, ...args]);
    },
  },
];

/**
 * The consents stored; 0 also when a refused import created no store or no tenant at all (a read refuses a missing
 * store, and a tenant without a record).
 */
const total = async (run: (a: string[]) => ReturnType<typeof cli>) => {
  const r = await run(['consents', 'stats', '--json']);
  if (r.code === 1 && /no store at/.test(r.stderr)) return 0;
  if (r.code === 3 && /unknown tenant/.test(r.stderr)) return 0;
  return JSON.parse(r.stdout).total_consents as number;
};
const listed = async (run: (a: string[]) => ReturnType<typeof cli>) =>
  JSON.parse((await run(['consents', 'list', '--json', '--limit', '500'])).stdout).consents as Array<
    Record<string, unknown>
  >;

/** More ASCII rows than one write batch, then a row in windows-1252: a streaming import would have written the rows before it. */
const lateUmlaut = () => {
  const lines = ['user_id,data_point_id,granted'];
  for (let i = 0; i < IMPORT_BATCH + 500; i++) lines.push(`u${i},newsletter,true`);
  return Buffer.concat([Buffer.from(lines.join('\n') + '\n'), Buffer.from('M\xfcller,newsletter,true\n', 'latin1')]);
};

describe.each(faces)('consents import of files as other systems write them ($name)', ({ open }) => {
  it('refuses a file that is not UTF-8 before writing anything, naming the line and the likely encoding', async () => {
    const run = open();
    const r = await run(['consents', 'import', file('late.csv', lateUmlaut())]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/not valid UTF-8 \(byte 0xFC on line 10502\); 0xFC is "ü" in windows-1252/);
    expect(r.stderr).toMatch(/--encoding windows-1252/);
    // locally the store is not even created; remotely the tenant holds nothing
    await run(['consents', 'grant', '--user-id', 'probe', '--data-point', 'probe']);
    expect(await total(run)).toBe(1);
  });

  it('reads windows-1252, latin1 and UTF-16 with a byte order mark', async () => {
    const run = open();
    const text = (user: string) => `user_id,data_point_id,granted,source\n${user},newsletter,true,Straße €\n`;
    const cp1252 = Buffer.from(text('müller').replace('€', '\x80'), 'latin1');
    const w = await run(['consents', 'import', file('w.csv', cp1252), '--encoding', 'windows-1252']);
    expect(w.code, w.stderr).toBe(0);
    const latin1 = Buffer.from(text('jörg').replace(' €', ''), 'latin1');
    expect((await run(['consents', 'import', file('l.csv', latin1), '--encoding', 'latin1'])).code).toBe(0);
    const u = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text('jürgen'), 'utf16le')]);
    const u16 = await run(['consents', 'import', file('u.csv', u)]);
    expect(u16.code, u16.stderr).toBe(0);
    const rows = await listed(run);
    expect(Object.fromEntries(rows.map((c) => [c.user_id, c.source]))).toEqual({
      müller: 'Straße €',
      jörg: 'Straße',
      jürgen: 'Straße €',
    });
    const contradicts = await run(['consents', 'import', file('u2.csv', u), '--encoding', 'windows-1252']);
    expect(contradicts.code).toBe(2);
    expect(contradicts.stderr).toMatch(/utf-16le byte order mark/);
  });

  it('names an Excel workbook instead of reading it as text', async () => {
    const run = open();
    const r = await run([
      'consents',
      'import',
      file('c.xlsx', Buffer.from('PK\x03\x04\x14\x00\x06\x00rest', 'latin1')),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Excel workbook \(\.xlsx/);
    expect(r.stderr).toMatch(/CSV UTF-8/);
  });

  it('takes the words of the file for yes and no', async () => {
    const run = open();
    const f = file('ja.csv', 'user_id,data_point_id,granted\na,x,Ja\nb,x,nein\nc,x,vielleicht\nd,x,true\n');
    const r = await run(['consents', 'import', f, '--true-values', 'ja,j', '--false-values', 'nein,n', '--json']);
    expect(r.code).toBe(6);
    expect(summaryOf(r.stdout)).toMatchObject({ created: 3, rejected: 1 });
    expect(r.stderr).toMatch(/line 4: granted: expected one of .*ja, j.*nein, n; got "vielleicht"/);
    const rows = await listed(run);
    expect(Object.fromEntries(rows.map((c) => [c.user_id, c.granted]))).toEqual({ a: true, b: false, d: true });
    const both = await run(['consents', 'import', f, '--true-values', 'ja', '--false-values', 'ja']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/ja cannot mean both true and false/);
  });

  it('reads timestamps in a date format and a time zone, and refuses times without a zone', async () => {
    const run = open();
    const f = file(
      'de.csv',
      'user_id,data_point_id,granted,granted_at\nw,x,true,01.03.2026 10:00\ns,x,true,01.07.2026 10:00\n',
    );
    const noZone = await run(['consents', 'import', f, '--date-format', 'DD.MM.YYYY HH:mm']);
    expect(noZone.code).toBe(2);
    expect(noZone.stderr).toMatch(/has no time zone: .*--time-zone Europe\/Berlin/);
    const r = await run([
      'consents',
      'import',
      f,
      '--date-format',
      'DD.MM.YYYY HH:mm',
      '--timezone',
      'Europe/Berlin',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const at = Object.fromEntries((await listed(run)).map((c) => [c.user_id, c.granted_at]));
    expect(at).toEqual({ w: '2026-03-01T09:00:00.000Z', s: '2026-07-01T08:00:00.000Z' });
    const iso = file('iso.csv', 'user_id,data_point_id,granted,granted_at\nn,x,true,2026-03-01T10:00:00\n');
    const refused = await run(['consents', 'import', iso]);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(
      /line 2: granted_at: "2026-03-01T10:00:00" has no time zone; .*--time-zone Europe\/Berlin/,
    );
    expect((await run(['consents', 'import', iso, '--timezone', 'Europe/Berlin'])).code).toBe(0);
    expect((await listed(run)).find((c) => c.user_id === 'n')?.granted_at).toBe('2026-03-01T09:00:00.000Z');
    const badZone = await run(['consents', 'import', iso, '--timezone', 'Mars/Olympus']);
    expect(badZone.code).toBe(2);
    expect(badZone.stderr).toMatch(/--time-zone: .*IANA time zone/);
  });

  it('refuses headers and options a person has to fix, naming what is wrong', async () => {
    const run = open();
    const dup = await run(['consents', 'import', file('d.csv', 'user_id,data_point_id,granted,Granted\nu,x,1,0\n')]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/names column "granted" twice \(columns 3 and 4\)/);
    const f = file('m.csv', 'Email,data_point_id,granted\nu,x,1\n');
    const map = await run(['consents', 'import', f, '--map', 'Mail=user_id']);
    expect(map.code).toBe(2);
    expect(map.stderr).toMatch(/no column "mail" to map .*its columns are: email, data_point_id, granted/);
    const delim = await run(['consents', 'import', f, '--delimiter', ';;']);
    expect(delim.code).toBe(2);
    expect(delim.stderr).toMatch(/delimiter.*exactly one character/);
    expect(await total(run)).toBe(0);
  });

  it('refuses every physical line an unterminated quote swallowed, and writes the row once to fix', async () => {
    const run = open();
    const rejects = join(tmp(), 'sub', 'rejects.csv');
    const header = 'user_id,data_point_id,granted,source';
    const f = file('q.csv', `${header}\nok,x,true,a\nbad,x,true,"open\nlost1,x,true,b\nlost2,x,true,c\n`);
    const r = await run(['consents', 'import', f, '--rejects', rejects, '--json']);
    expect(r.code).toBe(6);
    expect(summaryOf(r.stdout)).toMatchObject({ created: 1, rejected: 3 });
    // the row as read holds the lines it swallowed, in a quoted cell the file can carry
    expect(readFileSync(rejects, 'utf8')).toBe(
      `line,reason,${header}\n` +
        '3,malformed CSV: Quoted field unterminated (a quoted field runs from line 3 to line 5),bad,x,true,"open\nlost1,x,true,b\nlost2,x,true,c\n"\n',
    );
    // fixed by hand (the quote closed, the swallowed lines rows of their own), it imports with the same command
    const fixed = file(
      'fixed.csv',
      `line,reason,${header}\n3,,bad,x,true,open\n4,,lost1,x,true,b\n5,,lost2,x,true,c\n`,
    );
    const again = await run(['consents', 'import', fixed, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ created: 3, rejected: 0 });
  });

  it('exports CSV for German Excel (--delimiter ";" --bom) that imports back', async () => {
    const run = open();
    await run(['consents', 'import', file('s.csv', 'user_id,data_point_id,granted,source\nmüller,x,true,"a;b"\n')]);
    const out = join(tmp(), 'new', 'folder', 'excel.csv');
    const r = await run(['consents', 'export', '--delimiter', ';', '--bom', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFuser_id;data_point_id;granted;')).toBe(true);
    expect(text).toMatch(/\nmüller;x;true;[^;]*;;1\.0;"a;b";;\n$/);
    const copy = tmpDb();
    const back = await cli(['--db', copy, 'consents', 'import', out, '--json']);
    expect(summaryOf(back.stdout)).toMatchObject({ created: 1, rejected: 0 });
    const nd = await run(['consents', 'export', '--format', 'ndjson', '--bom']);
    expect(nd.code).toBe(2);
    expect(nd.stderr).toMatch(/bom.*only for format=csv/);
  });
});

describe('the import route on its own (serve)', () => {
  it('refuses a body that is not UTF-8 before writing, and reads it with ?encoding=windows-1252', async () => {
    const post = (query: string) =>
      fetch(`${srv.url}/sdk/v1/einwilligungen/consents/import${query}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'x-tenant-id': 'raw' },
        body: lateUmlaut(),
      });
    const bad = await post('');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'bad_request', error: expect.stringMatching(/windows-1252/) });
    const count = await fetch(`${srv.url}/sdk/v1/einwilligungen/consents/stats`, { headers: { 'x-tenant-id': 'raw' } });
    expect(((await count.json()) as { total_consents: number }).total_consents).toBe(0);
    const ok = await post('?encoding=windows-1252');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ created: IMPORT_BATCH + 501, rejected: 0 });
  });

  it('documents the new query parameters in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${srv.url}/sdk/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>>;
    };
    const names = (p: string, m: string) => doc.paths[p]![m]!.parameters.map((x) => x.name);
    expect(names('/einwilligungen/consents/import', 'post')).toEqual(
      expect.arrayContaining(['encoding', 'true_values', 'false_values', 'date_format', 'timezone', 'delimiter']),
    );
    expect(names('/einwilligungen/consents/export', 'get')).toEqual(
      expect.arrayContaining(['delimiter', 'bom', 'true_values', 'false_values', 'date_format', 'timezone']),
    );
    expect(names('/einwilligungen/consents/imports', 'get')).toEqual(expect.arrayContaining(['limit', 'offset']));
  });
});

describe('the rejects file (local and remote alike)', () => {
  const ids = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID');
  const options = [
    '--delimiter',
    ';',
    '--encoding',
    'windows-1252',
    '--map',
    'Email=user_id,Zweck=data_point_id,Zustimmung=granted,Datum=granted_at,Kanal=source',
    '--true-values',
    'ja',
    '--false-values',
    'nein',
    '--date-format',
    'DD.MM.YYYY',
    '--timezone',
    'Europe/Berlin',
  ];
  const german = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'), 'latin1');

  it('holds the refused rows as read, in the file’s delimiter and encoding, and imports again once fixed', async () => {
    const texts: string[] = [];
    for (const face of faces) {
      const run = face.open();
      const first = file(
        'stored.csv',
        german('Email;Zweck;Zustimmung;Datum;Kanal\nmüller;news;ja;01.03.2026;Filiale\n'),
      );
      expect((await run(['consents', 'import', first, ...options])).code).toBe(0);
      const rows =
        'Email;Zweck;Zustimmung;Datum;Kanal;Notiz\n' +
        'jörg;news;ja;01.03.2026;Web;ok\n' + // line 2
        'jürgen;news;vielleicht;01.03.2026;Web;"mit ""Anführung"""\n' + // line 3: not a word for yes or no
        'müller;news;ja;01.03.2026;Laden;anders\n' + // line 4: another source than the stored consent's
        'zu wenig;news\n' + // line 5: too few cells
        'åsa;news;nein;31.02.2026;Web;Datum\n'; // line 6: no such day
      const rejects = join(tmp(), 'abgelehnt.csv');
      const r = await run([
        'consents',
        'import',
        file('neu.csv', german(rows)),
        ...options,
        '--rejects',
        rejects,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(6);
      expect(summaryOf(r.stdout)).toMatchObject({ created: 1, rejected: 4 });
      const bytes = readFileSync(rejects);
      expect(bytes.includes(Buffer.from('ü', 'utf8'))).toBe(false); // windows-1252, as the file came
      const text = new TextDecoder('windows-1252').decode(bytes);
      const lines = text.split('\n');
      expect(lines[0]).toBe('line;reason;Email;Zweck;Zustimmung;Datum;Kanal;Notiz');
      expect(lines.slice(1, -1).map((l) => l.split(';')[0])).toEqual(['3', '4', '5', '6']);
      expect(lines[1]).toBe(
        '3;"granted: expected one of true, 1, yes, ja, false, 0, no, nein; got ""vielleicht""";jürgen;news;vielleicht;01.03.2026;Web;"mit ""Anführung"""',
      );
      expect(ids(lines[2]!)).toBe(
        '4;"source: consent ID has ""Filiale"", the row says ""Laden""";müller;news;ja;01.03.2026;Laden;anders',
      );
      expect(lines[3]).toBe('5;expected 6 fields, found 2;zu wenig;news');
      texts.push(ids(text));
      // fixed where the reasons say, the file imports with the same options; line and reason are ignored
      const fixed = text
        .replace(';vielleicht;', ';nein;')
        .replace(';Laden;anders', ';Filiale;anders')
        .replace('zu wenig;news', 'zu wenig;news;ja;01.03.2026;Web;')
        .replace(';31.02.2026;', ';28.02.2026;');
      const again = await run([
        'consents',
        'import',
        file('fixed.csv', Buffer.from(fixed, 'latin1')),
        ...options,
        '--json',
      ]);
      expect(again.code, again.stderr).toBe(0);
      expect(summaryOf(again.stdout)).toMatchObject({ created: 3, unchanged: 1, rejected: 0 });
    }
    expect(texts[1]).toBe(texts[0]);
  });

  it('keeps the objects of NDJSON with line and reason added', async () => {
    for (const face of faces) {
      const run = face.open();
      const rejects = join(tmp(), 'r.ndjson');
      const f = file(
        'c.ndjson',
        '{"user_id":"a","data_point_id":"x","granted":"vielleicht"}\nnot json\n{"user_id":"b","data_point_id":"x","granted":true}\n',
      );
      expect((await run(['consents', 'import', f, '--rejects', rejects])).code).toBe(6);
      const lines = readFileSync(rejects, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toEqual([
        {
          line: 1,
          reason: expect.stringMatching(/^granted: expected a boolean/),
          user_id: 'a',
          data_point_id: 'x',
          granted: 'vielleicht',
        },
        { line: 2, reason: expect.stringMatching(/^malformed JSON/), text: 'not json' },
      ]);
      const fixed = file('fixed.ndjson', JSON.stringify({ ...lines[0], granted: false }) + '\n');
      expect(summaryOf((await run(['consents', 'import', fixed, '--json'])).stdout)).toMatchObject({ created: 1 });
    }
  });
});

describe.each(faces)('import options and dates people get wrong ($name)', ({ open }) => {
  it('names a wrong option before reading the file, even a file it would refuse', async () => {
    const run = open();
    const late = file('late.csv', lateUmlaut());
    for (const [args, says] of [
      [['--delimiter', ';;'], /^error: --delimiter: must be exactly one character/],
      [['--map', 'Email=nonsense'], /^error: --map: invalid entry "Email=nonsense": expected column=field/],
      [
        ['--encoding', 'ebcdic'],
        /^error: --encoding: expected one of utf-8, windows-1252, latin1, utf-16le \(also utf8, cp1252/,
      ],
      [
        ['--date-format', 'DD.MM.YYYY', '--timezone', 'Mars/Olympus'],
        /^error: --time-zone: expected an IANA time zone/,
      ],
    ] as const) {
      const r = await run(['consents', 'import', late, ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toMatch(/UTF-8/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await total(run)).toBe(0);
  });

  it('takes other names of the encodings, in any case', async () => {
    const run = open();
    for (const [i, name] of [
      'cp1252',
      'CP1252',
      'Windows-1252',
      'ansi',
      'iso-8859-1',
      'ISO_8859-1',
      'latin-1',
      'L1',
    ].entries()) {
      const f = file(`e${i}.csv`, Buffer.from(`user_id,data_point_id,granted\nmüller${i},x,true\n`, 'latin1'));
      const r = await run(['consents', 'import', f, '--encoding', name]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
    }
    const utf8 = await run([
      'consents',
      'import',
      file('u.csv', 'user_id,data_point_id,granted\nzoë,x,true\n'),
      '--encoding',
      'UTF8',
    ]);
    expect(utf8.code, utf8.stderr).toBe(0);
    const users = (await listed(run)).map((c) => c.user_id);
    expect(users).toEqual(expect.arrayContaining(['müller0', 'müller7', 'zoë']));
  });

  it('hints D.M.YYYY when DD.MM.YYYY refuses 1.3.2025, and refuses a year before 1000', async () => {
    const run = open();
    const f = file(
      'd.csv',
      'user_id,data_point_id,granted,granted_at\na,x,true,1.3.2025\nb,x,true,01.03.0999\nc,x,true,01.03.2025\n',
    );
    const r = await run([
      'consents',
      'import',
      f,
      '--date-format',
      'DD.MM.YYYY',
      '--timezone',
      'Europe/Berlin',
      '--json',
    ]);
    expect(r.code).toBe(6);
    expect(summaryOf(r.stdout)).toMatchObject({ created: 1, rejected: 2 });
    expect(r.stderr).toContain(
      `line 2: granted_at: "1.3.2025" does not match the date format DD.MM.YYYY; for days, months or hours without a leading zero use --date-format 'D.M.YYYY' (API: date_format=D.M.YYYY)`,
    );
    expect(r.stderr).toContain('line 3: granted_at: "01.03.0999" names the year 999; the year must be 1000 or later');
    const iso = file('iso.csv', 'user_id,data_point_id,granted,granted_at\nd,x,true,0999-03-01T10:00:00Z\n');
    const refused = await run(['consents', 'import', iso]);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(/line 2: granted_at: the year must be 1000 or later/);
  });
});

describe.each(faces)('export for German spreadsheets ($name)', ({ open }) => {
  const german = [
    '--delimiter',
    ';',
    '--date-format',
    'DD.MM.YYYY HH:mm:ss',
    '--time-zone',
    'Europe/Berlin',
    '--true-values',
    'ja',
    '--false-values',
    'nein',
  ];

  it('writes local times and ja/nein that import back into an empty store as the same records', async () => {
    const run = open();
    const rows =
      'user_id,data_point_id,granted,granted_at,revoked_at,consent_version,source,ip_address,user_agent\n' +
      'müller,news,true,2026-03-01T09:15:00Z,,1.0,"Filiale; Nord",10.0.0.1,UA 1\n' + // winter: +01:00
      'jörg,news,true,2026-07-01T08:00:00Z,2026-08-01T22:30:00Z,2.0,web,,\n' + // summer: +02:00, revoked
      'åsa,ads,false,2025-12-31T23:59:59Z,,1.0,,,\n'; // a refusal, at new year in Berlin
    expect((await run(['consents', 'import', file('s.csv', rows)])).code).toBe(0);
    const out = join(tmp(), 'excel.csv');
    const r = await run(['consents', 'export', ...german, '--bom', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(
      '\uFEFFuser_id;data_point_id;granted;granted_at;revoked_at;consent_version;source;ip_address;user_agent\n' +
        'müller;news;ja;01.03.2026 10:15:00;;1.0;"Filiale; Nord";10.0.0.1;UA 1\n' +
        'jörg;news;ja;01.07.2026 10:00:00;02.08.2026 00:30:00;2.0;web;;\n' +
        'åsa;ads;nein;01.01.2026 00:59:59;;1.0;;;\n',
    );
    const copy = tmpDb();
    const back = await cli(['--db', copy, 'consents', 'import', out, ...german, '--json']);
    expect(back.code, back.stderr).toBe(0);
    expect(summaryOf(back.stdout)).toMatchObject({ created: 3, rejected: 0 });
    const records = async (args: string[]) => (await cli([...args, 'consents', 'export', '--format', 'ndjson'])).stdout;
    const here = await records(['--db', copy]);
    expect(here.trim().split('\n')).toHaveLength(3);
    expect(here).toBe((await run(['consents', 'export', '--format', 'ndjson'])).stdout);
  });

  it('writes ISO 8601 with the offset for a zone alone, and refuses what cannot be read back', async () => {
    const run = open();
    await run([
      'consents',
      'import',
      file('t.csv', 'user_id,data_point_id,granted,granted_at\nu,x,1,2026-07-01T08:00:00Z\n'),
    ]);
    const iso = await run(['consents', 'export', '--time-zone', 'Europe/Berlin']);
    expect(iso.stdout.split('\n')[1]).toBe('u;x;true;2026-07-01T10:00:00.000+02:00;;1.0;;;'.replaceAll(';', ','));
    for (const [args, says] of [
      [
        ['--date-format', 'DD.MM.YYYY HH:mm'],
        /^error: --time-zone: the date format DD\.MM\.YYYY HH:mm has no time zone/,
      ],
      [
        ['--date-format', 'DD.MM.YYYY hh:mm', '--time-zone', 'UTC'],
        /^error: --date-format: unknown letters " hh:" in the date format/,
      ],
      [['--time-zone', 'Mars/Olympus'], /^error: --time-zone: expected an IANA time zone/],
      [['--true-values', 'ja', '--false-values', 'ja'], /^error: --true-values: ja cannot mean both/],
      [['--format', 'ndjson', '--true-values', 'ja'], /^error: --true-values: only for format=csv/],
    ] as const) {
      const r = await run(['consents', 'export', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
    }
  });
});
