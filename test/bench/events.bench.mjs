// Events (issue 26), measured against a local receiver on 127.0.0.1:
// - webhook deliveries per second of `compliance events run --once` (SQLite; the whole process, start-up included)
// - the cost of the event path on DSFA writes through `serve`: a store with an endpoint subscribed to every event
//   (serve delivering in the background) against the same build with no endpoint                 (aim <= 1.05x)
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { BIN, ratio, row, startServe, tmp } from './lib.mjs';

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204);
    res.end();
  });
});
let received = 0;
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

const cli = (db, args) => {
  const r = spawnSync(process.execPath, [BIN, '--db', db, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** The same without blocking this process, whose receiver must answer the deliveries meanwhile. */
const cliAsync = (db, args) =>
  new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, '--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err += c));
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')}: ${err}`))));
  });

const send = async (url, path, body, method = 'POST') => {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-tenant-id': 'bench', 'x-user-id': 'bench' },
    body: JSON.stringify(body),
  });
  const json = await r.json();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
};

/** Writes per second of four writers for `seconds`: each creates an assessment, updates it, changes its status. */
async function dsfaWrites(url, seconds = 5) {
  const end = Date.now() + seconds * 1000;
  let writes = 0;
  const writer = async (i) => {
    while (Date.now() < end) {
      const d = await send(url, '/dsfa?tenant_id=bench', { title: `Verfahren ${i}` });
      await send(url, `/dsfa/${d.id}?tenant_id=bench`, { description: 'erste Fassung' }, 'PUT');
      await send(url, `/dsfa/${d.id}/status?tenant_id=bench`, { status: 'in-review' }, 'PATCH');
      writes += 3;
    }
  };
  const t = Date.now();
  await Promise.all([0, 1, 2, 3].map(writer));
  return writes / ((Date.now() - t) / 1000);
}

const dir = tmp();

// --- deliveries per second: N events queued by writes through serve (no background delivery), then one pass
{
  const db = join(dir, 'deliveries.db');
  // webhooks are set up for a tenant the store knows: one with a record (its event precedes the endpoint's cursor)
  cli(db, ['dsfa', 'create', '--title', 'Einrichtung', '--tenant', 'bench']);
  cli(db, ['webhooks', 'add', hook, '--events', '*', '--allow-private', '--tenant', 'bench']);
  const { p: serveNoEvents, url } = await startServe(db, { args: ['--no-events'] });
  const n = Number(process.env.EVENTS ?? 2000);
  for (let i = 0; i < n; i += 20)
    await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, (_, k) => send(url, '/dsfa?tenant_id=bench', { title: `D${i + k}` })),
    );
  serveNoEvents.kill('SIGTERM');
  await new Promise((r) => serveNoEvents.on('exit', r));
  received = 0;
  const t = process.hrtime.bigint();
  const out = JSON.parse(await cliAsync(db, ['--json', 'events', 'run', '--once']));
  const s2 = Number(process.hrtime.bigint() - t) / 1e9;
  if (out.webhooks.delivered !== n || received !== n) throw new Error(`delivered ${out.webhooks.delivered} of ${n}`);
  row(`webhook deliveries, events run --once (${n}, SQLite)`, `${(n / s2).toFixed(0)} /s`, `${s2.toFixed(2)} s in all`);
}

// --- DSFA writes with an endpoint vs none, alternating so neither side gets a warmer machine
const rates = { none: [], endpoint: [] };
for (let round = 0; round < 3; round++) {
  for (const mode of ['none', 'endpoint']) {
    const db = join(dir, `writes-${mode}-${round}.db`);
    cli(db, ['dsfa', 'create', '--title', 'Einrichtung', '--tenant', 'bench']);
    if (mode === 'endpoint')
      cli(db, ['webhooks', 'add', hook, '--events', '*', '--allow-private', '--tenant', 'bench']);
    const s = await startServe(db);
    await dsfaWrites(s.url, 1); // warm-up
    rates[mode].push(await dsfaWrites(s.url));
    s.p.kill('SIGTERM');
    await new Promise((r) => s.p.on('exit', r));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const none = median(rates.none);
const withEndpoint = median(rates.endpoint);
row('DSFA writes via serve on SQLite, no endpoint (reference)', `${none.toFixed(0)} /s`);
row(
  'DSFA writes via serve, one endpoint for every event',
  `${withEndpoint.toFixed(0)} /s`,
  `${ratio(none, withEndpoint)} the time per write (aim <= 1.05x); ${received} deliveries meanwhile`,
);
receiver.close();
