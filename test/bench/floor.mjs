// The floors of the aims that are missed: the least a process can do for the same result, with the same modules
// underneath (better-sqlite3, node:crypto, fetch) and nothing of the project's. aims.bench.mjs times them as it times
// the commands, in the same run, so an aim's distance from its floor says how much the project adds.
//   node test/bench/floor.mjs verify-read DB TENANT   read the columns a verification reads, hash nothing
//   node test/bench/floor.mjs verify-hash DB TENANT   the same, with the two hashes per entry and the link check
//   node test/bench/floor.mjs verify-hash-2 DB TENANT the same in two halves on two threads, their ends matched
//   node test/bench/floor.mjs verify-trail DB TENANT  read every consent history row, digest its text twice
//   node test/bench/floor.mjs verify-trail-text DB TENANT
//                                                     the same by the text SQLite writes of each row, the table's
//                                                     side on a thread of its own (as audit verify reads)
//   node test/bench/floor.mjs verify-trail-tally DB TENANT
//                                                     the same, each side summing 72 bits of each row's keyed
//                                                     digest instead of keeping it by id (as audit verify compares)
//   node test/bench/floor.mjs dsfa-list DB [PROGRAM]  open the store, print 100 assessments as JSON; with PROGRAM
//                                                     (dist/program.cjs), compile it from its code cache first, as
//                                                     the loader does (src/loader.ts), and run none of it
//   node test/bench/floor.mjs sync-idle DB URL        open the store, ask the server for the journal's head
//   node test/bench/floor.mjs sync-writes DB EMPTY   every record of DB (a store a clone filled) written into the
//                                                     empty store EMPTY as a pull writes them, on one thread;
//                                                     prints the seconds of the writes alone as JSON
//   node test/bench/floor.mjs journal-write DB N      the least a journal adds to a write: N changes of one
//                                                     assessment (its row and a trail entry), each in a
//                                                     transaction, alone and with the two entries appended (head
//                                                     read, each row as JSON, two hashes each, two inserts);
//                                                     prints the milliseconds per write of each as JSON
//   node test/bench/floor.mjs import-entries DB N     the least the journal adds to an import of N rows: for each
//                                                     batch of 10,000, its staged rows (already in memory) as JSON,
//                                                     two hashes and the entry inserted and committed; prints the
//                                                     seconds of it all as JSON
// The key and tenant of sync-idle come from COMPLIANCE_API_KEY and COMPLIANCE_TENANT, as for the command.
import { hash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const [mode, file, arg] = isMainThread ? process.argv.slice(2) : [];
const GENESIS = '0'.repeat(64);
// the text an entry's hash covers (src/domain/journal/chain.ts, format 1), built by SQLite as the store does
const COLUMNS = `seq, prev_hash, hash, data_hash, data,
  json_array(1, tenant_id, seq, txn, time, actor, principal, entity, entity_id, op, data_hash, prev_hash)`;

if (!isMainThread && workerData.range) {
  // a half of verify-hash-2
  const [f, tenant, after, to] = workerData.range;
  parentPort.postMessage(readRange(f, tenant, after, to, true));
} else if (!isMainThread && workerData.key) {
  // verify-trail-tally's other thread: the table's side
  const { file: f, text, tenant, key } = workerData;
  parentPort.postMessage(tallyOf(new Database(f, { readonly: true }).prepare(text).raw(true).iterate(tenant), key));
} else if (!isMainThread) {
  // verify-trail-text's other thread: the table's side
  const { file: f, text, tenant } = workerData;
  const ids = [];
  const digests = [];
  for (const [id, t] of new Database(f, { readonly: true }).prepare(text).raw(true).iterate(tenant)) {
    ids.push(id);
    digests.push(hash('sha256', t, 'base64'));
  }
  parentPort.postMessage({ ids, digests });
}

/** Rows (each its id and text) summed: how many, and three 24-bit words of each one's digest under `key`. */
function tallyOf(rows, key) {
  const t = [0, 0, 0, 0];
  for (const [, text] of rows) {
    const d = hash('sha256', key + text);
    t[0]++;
    t[1] += parseInt(d.slice(0, 6), 16);
    t[2] += parseInt(d.slice(6, 12), 16);
    t[3] += parseInt(d.slice(12, 18), 16);
  }
  return t;
}

/** Entries of `tenant` after `after` up to `to` read (and hashed, their links checked): how many, the first's link. */
function readRange(f, tenant, after, to, hashing) {
  const db = new Database(f, { readonly: true });
  const rows = db
    .prepare(`select ${COLUMNS} from journal where tenant_id = ? and seq > ? and seq <= ? order by seq`)
    .raw(true)
    .iterate(tenant, after, to);
  let prev;
  let first;
  let n = 0;
  for (const [seq, prevHash, h, dataHash, data, preimage] of rows) {
    n++;
    if (!hashing) continue;
    first ??= prevHash;
    prev ??= prevHash;
    if (prevHash !== prev || hash('sha256', data ?? '', 'hex') !== dataHash || hash('sha256', preimage, 'hex') !== h)
      throw new Error(`entry ${seq} does not hold`);
    prev = h;
  }
  return { n, first, last: prev };
}

if (mode === 'verify-read' || mode === 'verify-hash') {
  const { n, first } = readRange(file, arg, 0, Number.MAX_SAFE_INTEGER, mode === 'verify-hash');
  if (mode === 'verify-hash' && first !== GENESIS) throw new Error('the chain does not start at its genesis');
  process.stdout.write(`${n}\n`);
} else if (mode === 'verify-hash-2') {
  // the same in two halves, each on a thread of its own, the halves' ends matched (as audit verify reads a long chain)
  const db = new Database(file, { readonly: true });
  const end = db.prepare('select max(seq) from journal where tenant_id = ?').pluck().get(arg);
  const half = (after, to) =>
    new Promise((resolve, reject) =>
      new Worker(new URL(import.meta.url), { workerData: { range: [file, arg, after, to] } })
        .once('message', resolve)
        .once('error', reject),
    );
  const mid = Math.floor(end / 2);
  const [a, b] = await Promise.all([half(0, mid), half(mid, end)]);
  if (a.first !== GENESIS || b.first !== a.last) throw new Error('the halves do not link');
  process.stdout.write(`${a.n + b.n}\n`);
} else if (mode === 'verify-trail') {
  // the least a row-by-row comparison of an audit trail costs: every history row of the tenant read and its text
  // digested twice (once as the journal says it, once as the table holds it), the digests matched by id
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('select * from consent_history where tenant_id = ?').iterate(arg);
  const expected = new Map();
  let n = 0;
  for (const row of rows) {
    const text = JSON.stringify(row);
    expected.set(row.id, hash('sha256', text, 'base64'));
    if (expected.get(row.id) !== hash('sha256', text, 'base64')) throw new Error(`row ${row.id} does not hold`);
    n++;
  }
  process.stdout.write(`${n}\n`);
} else if (mode === 'verify-trail-text') {
  // the least a comparison by each row's text costs on two threads, as audit verify compares: SQLite writes every
  // history row's text; another thread reads and digests them as the table holds them while this one does as the
  // journal would say them (here: read again, where audit verify expands the journal's batch entries), and the
  // digests are matched by id
  const db = new Database(file, { readonly: true });
  const columns = db.prepare('select name from pragma_table_info(?)').pluck().all('consent_history');
  const text = `select id, json_array(${columns.join(', ')}) from consent_history where tenant_id = ?`;
  const other = new Worker(new URL(import.meta.url), { workerData: { file, text, tenant: arg } });
  const theirs = new Promise((resolve, reject) => other.once('message', resolve).once('error', reject));
  const expected = new Map();
  for (const [id, t] of db.prepare(text).raw(true).iterate(arg)) expected.set(id, hash('sha256', t, 'base64'));
  const { ids, digests } = await theirs;
  for (let i = 0; i < ids.length; i++)
    if (expected.get(ids[i]) !== digests[i]) throw new Error(`row ${ids[i]} does not hold`);
  process.stdout.write(`${ids.length}\n`);
} else if (mode === 'verify-trail-tally') {
  // the least a comparison by tallies costs on two threads, as audit verify compares: the same texts and threads as
  // verify-trail-text, each side summing the rows' keyed digests instead of keeping them by id
  const db = new Database(file, { readonly: true });
  const columns = db.prepare('select name from pragma_table_info(?)').pluck().all('consent_history');
  const text = `select id, json_array(${columns.join(', ')}) from consent_history where tenant_id = ?`;
  const key = randomBytes(24).toString('base64');
  const other = new Worker(new URL(import.meta.url), { workerData: { file, text, tenant: arg, key } });
  const theirs = new Promise((resolve, reject) => other.once('message', resolve).once('error', reject));
  const mine = tallyOf(db.prepare(text).raw(true).iterate(arg), key);
  if ((await theirs).join() !== mine.join()) throw new Error('the tallies differ');
  process.stdout.write(`${mine[0]}\n`);
} else if (mode === 'dsfa-list') {
  if (arg) {
    const { Script } = await import('node:vm');
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(arg, 'latin1')}\n})`;
    const script = new Script(wrapped, { filename: arg, cachedData: readFileSync(`${arg}.v8-cache`) });
    if (script.cachedDataRejected) throw new Error(`V8 refused the code cache of ${arg}`);
  }
  const db = new Database(file, { readonly: true });
  const rows = db
    .prepare(`select * from dsfa where tenant_id = 'default' order by created_at desc, id desc limit 100`)
    .all();
  for (const r of rows)
    for (const k of ['data_categories', 'recipients', 'measures', 'ai_use_case_modules'])
      r[k] = JSON.parse(r[k] ?? '[]');
  process.stdout.write(JSON.stringify({ items: rows }) + '\n');
} else if (mode === 'sync-idle') {
  // the store's head read by its key, as a sync reads it, and the request over node:http, as the program sends it:
  // until 2026-11-29 this counted the journal's rows and asked with fetch (which loads undici), and read slower than
  // the command it is the floor of
  const db = new Database(file, { readonly: true });
  db.prepare('select seq from journal order by seq desc limit 1').get();
  const { get } = await import('node:http');
  const headers = {
    authorization: `Bearer ${process.env.COMPLIANCE_API_KEY}`,
    'x-tenant-id': process.env.COMPLIANCE_TENANT,
  };
  const body = await new Promise((resolve, reject) =>
    get(`${arg}/sdk/v1/journal/anchor`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(text) : reject(new Error(`GET /journal/anchor: ${res.statusCode} ${text}`)),
      );
    }).on('error', reject),
  );
  process.stdout.write(`${body}\n`);
} else if (mode === 'sync-writes') {
  // every record of FILE's tenants' tables (a store a clone filled), written into the empty store ARG as a pull writes them:
  // statements of at most 500 rows and 12,000 values, transactions of 10,000 rows, the store's pragmas
  const from = new Database(file, { readonly: true });
  const to = new Database(arg);
  to.pragma('journal_mode = WAL');
  to.pragma('synchronous = NORMAL');
  to.pragma('cache_size = -32768');
  const tables = from
    .prepare(
      `select m.name from sqlite_master m where m.type = 'table' and m.name not in ('journal', 'tenant')
       and m.name not like 'sync\\_%' escape '\\'
       and exists (select 1 from pragma_table_info(m.name) c where c.name = 'tenant_id')`,
    )
    .pluck()
    .all();
  let rows = 0;
  let ms = 0;
  for (const table of tables) {
    const read = from.prepare(`select * from "${table}"`).raw(true);
    const columns = read.columns().map((c) => `"${c.name}"`);
    const per = Math.min(500, Math.floor(12_000 / columns.length));
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const texts = new Map();
    const insert = (part) => {
      let statement = texts.get(part.length);
      if (!statement) {
        const values = Array(part.length).fill(tuple).join(', ');
        statement = to.prepare(`insert into "${table}" (${columns.join(', ')}) values ${values}`);
        texts.set(part.length, statement);
      }
      statement.run(part.flat());
    };
    const all = read.all();
    const t = performance.now();
    for (let i = 0; i < all.length; i += 10_000) {
      const transaction = all.slice(i, i + 10_000);
      to.transaction(() => {
        for (let j = 0; j < transaction.length; j += per) insert(transaction.slice(j, j + per));
      })();
    }
    ms += performance.now() - t;
    rows += all.length;
  }
  // the writes alone, without reading the rows from the other store
  process.stdout.write(`${JSON.stringify({ rows, seconds: ms / 1000 })}\n`);
} else if (mode === 'import-entries') {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const BATCH = 10_000;
  const rows = Number(arg);
  // the rows as the import's writer holds them (its staged values), made before the clock starts
  const staged = [];
  for (let i = 0; i < rows; i++)
    staged.push([
      i % BATCH,
      `user${i}@example.com`,
      `dp${i % 12}`,
      i % 5 ? 1 : 0,
      `2026-0${1 + (i % 9)}-01T10:00:00.000Z`,
      null,
      '1.0',
      'web',
      null,
      null,
    ]);
  // the groups' rules of an import's entry (about 2 KB): their text does not grow with the rows
  const groups = JSON.stringify(
    Array.from({ length: 2 }, (_, g) => ({ entity: `g${g}`, cells: Array(40).fill(['v', 0]) })),
  );
  const append = db.prepare(`insert into journal (tenant_id, seq, txn, time, actor, principal, entity, entity_id, op,
    data, data_hash, prev_hash, hash) values ('floor', ?, ?, ?, 'floor', 'os:floor', 'consent_import_run', 'run', 'batch',
    ?, ?, ?, ?)`);
  const write = db.transaction((row) => append.run(row));
  const t = performance.now();
  let prev = GENESIS;
  for (let b = 0; b * BATCH < rows; b++) {
    const part = staged.slice(b * BATCH, (b + 1) * BATCH);
    const data = `{"groups":${groups},"staged":${JSON.stringify({ ids: { prefix: 'p', start: 0, step: 3 }, rows: part })}}`;
    const dataHash = hash('sha256', data, 'hex');
    const seq = b + 1;
    const time = new Date().toISOString();
    const preimage = [1, 'floor', seq, `txn-${seq}`, time, 'floor', 'os:floor', 'consent_import_run', 'run', 'batch'];
    const h = hash('sha256', JSON.stringify([...preimage, dataHash, prev]), 'hex');
    write([seq, `txn-${seq}`, time, data, dataHash, prev, h]);
    prev = h;
  }
  process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - t) / 1000 })}\n`);
} else if (mode === 'journal-write') {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const id = '00000000-0000-7000-8000-000000000001';
  const now = () => new Date().toISOString();
  db.prepare(
    `insert into dsfa (id, tenant_id, title, description, status, risk_level, processing_activity, data_categories,
      recipients, measures, created_by, created_at, updated_at, ai_use_case_modules)
     values (?, 'floor', 'Verfahren', '', 'draft', 'low', '', '[]', '[]', '[]', 'floor', ?, ?, '[]')`,
  ).run(id, now(), now());
  // a change of an assessment writes its row and an entry of its audit trail, as the service does
  const update = db.prepare('update dsfa set description = ?, updated_at = ? where id = ?');
  const trail = db.prepare(`insert into dsfa_audit (id, tenant_id, dsfa_id, action, changed_by, old_values, new_values,
    created_at) values (?, 'floor', ?, 'updated', 'floor', ?, ?, ?)`);
  const row = db.prepare('select * from dsfa where id = ?');
  const trailRow = db.prepare('select * from dsfa_audit where id = ?');
  const head = db.prepare(`select seq, hash from journal where tenant_id = 'floor' order by seq desc limit 1`);
  const append = db.prepare(`insert into journal (tenant_id, seq, txn, time, actor, principal, entity, entity_id, op,
    data, data_hash, prev_hash, hash) values ('floor', ?, ?, ?, 'floor', 'os:floor', ?, ?, ?, ?, ?, ?, ?)`);
  const write = (i, time) => {
    const trailId = `00000000-0000-7000-9000-${String(i).padStart(12, '0')}`;
    update.run(`Fassung ${i}`, time, id);
    trail.run(
      trailId,
      id,
      JSON.stringify({ description: `Fassung ${i - 1}` }),
      JSON.stringify({ description: `Fassung ${i}` }),
      time,
    );
    return trailId;
  };
  let round = 0;
  const plain = db.transaction((i) => write(round + i, now()));
  // the same write with the journal's two entries (the assessment's and its trail's): the head read once, each row
  // as JSON, two hashes each, two inserts
  const journaled = db.transaction((i) => {
    const time = now();
    const trailId = write(round + i, time);
    let last = head.get() ?? { seq: 0, hash: GENESIS };
    const txn = `txn-${last.seq + 1}`;
    for (const [entity, entityId, op, data] of [
      ['dsfa', id, 'update', JSON.stringify(row.get(id))],
      ['dsfa_audit', trailId, 'insert', JSON.stringify(trailRow.get(trailId))],
    ]) {
      const dataHash = hash('sha256', data, 'hex');
      const seq = last.seq + 1;
      const preimage = [1, 'floor', seq, txn, time, 'floor', 'os:floor', entity, entityId, op, dataHash, last.hash];
      const h = hash('sha256', JSON.stringify(preimage), 'hex');
      append.run(seq, txn, time, entity, entityId, op, data, dataHash, last.hash, h);
      last = { seq, hash: h };
    }
  });
  const per = (f) => {
    const t = performance.now();
    for (let i = 0; i < Number(arg); i++) f(i);
    round += Number(arg);
    return (performance.now() - t) / Number(arg);
  };
  per(plain);
  per(journaled);
  const [off, on] = [per(plain), per(journaled)];
  process.stdout.write(`${JSON.stringify({ off_ms: off, on_ms: on })}\n`);
} else if (isMainThread) throw new Error(`no floor ${mode}`);
