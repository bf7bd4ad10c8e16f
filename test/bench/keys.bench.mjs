// Keys with a scope (issue 25): consents recorded per second through the public route
// `POST /sdk/v1/einwilligungen/consents` with a publishable key from its origin (rate limiting off), as a ratio to the
// same route with a secret write key, same server, same run (aim ~1.0x: the scope check is one lookup by prefix for
// either key). Also: the same publishable requests with the rate limiter on (limits too high to refuse), against off.
// SECONDS=… sets the length of each measuring round (default 3); rounds alternate the keys so drift hits both.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, ratio, row, startServe, tmp } from './lib.mjs';

const SECONDS = Number(process.env.SECONDS_PER_ROUND ?? process.env.SECONDS ?? 3);
const WRITERS = 4;
const ROUNDS = 3;
const ORIGIN = 'https://shop.example';

function createKey(db, args) {
  const r = spawnSync(process.execPath, [BIN, '--db', db, 'keys', 'create', '--json', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout).key;
}

/** Consents recorded per second by WRITERS loops for SECONDS with `headers`. */
async function consentsPerSecond(url, headers) {
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  const writer = async (w) => {
    let i = 0;
    while (Date.now() < end) {
      const r = await fetch(`${url}/einwilligungen/consents`, {
        method: 'POST',
        headers: { ...headers, 'x-tenant-id': 'acme', 'content-type': 'application/json' },
        body: JSON.stringify({
          user_id: `visitor-${w}-${i++}`,
          data_point_id: 'analytics',
          granted: true,
        }),
      });
      if (r.status !== 201) throw new Error(`${r.status} ${await r.text()}`);
      await r.arrayBuffer().catch(() => undefined);
      n++;
    }
  };
  const t = Date.now();
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  return (n * 1000) / (Date.now() - t);
}

const dir = tmp();
const db = join(dir, 'keys.db');
const pk = createKey(db, ['--scope', 'publishable', '--tenant', 'acme', '--origin', ORIGIN]);
const secret = createKey(db, ['--scope', 'write', '--tenant', 'acme']);
const browser = { authorization: `Bearer ${pk}`, origin: ORIGIN };
const server = { authorization: `Bearer ${secret}` };

// both servers run on the same file at once; the rounds alternate between them, so load drift hits every side
const off = await startServe(db, { args: ['--rate-limit', '0', '--rate-limit-ip', '0'] });
const on = await startServe(db, { args: ['--rate-limit', '100000000', '--rate-limit-ip', '100000000'] });
const sum = { pk: 0, secret: 0 };
let limited = 0;
try {
  await consentsPerSecond(off.url, server); // warm-up
  await consentsPerSecond(on.url, browser);
  // each round starts with another side, so whatever favours the first (or last) measurement of a round evens out
  const sides = [
    async () => (sum.pk += await consentsPerSecond(off.url, browser)),
    async () => (sum.secret += await consentsPerSecond(off.url, server)),
    async () => (limited += await consentsPerSecond(on.url, browser)),
  ];
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < sides.length; i++) await sides[(r + i) % sides.length]();
} finally {
  off.p.kill('SIGTERM');
  on.p.kill('SIGTERM');
}
const pkRate = sum.pk / ROUNDS;
const secretRate = sum.secret / ROUNDS;
row('consents/s, publishable key from its origin (limits off)', pkRate.toFixed(0), `${WRITERS} writers, SQLite`);
row('consents/s, secret write key (limits off)', secretRate.toFixed(0));
row('publishable / secret', ratio(pkRate, secretRate), 'aim ~1.0x');
row('consents/s, publishable key, rate limiter on (not refusing)', (limited / ROUNDS).toFixed(0));
row('limiter on / off', ratio(limited / ROUNDS, pkRate));
