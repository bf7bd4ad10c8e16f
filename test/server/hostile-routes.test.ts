import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { contracts } from '../../src/contract/index.js';
import type { Operation } from '../../src/contract/operation.js';
import { neededScope } from '../../src/domain/api-keys/api-key.rules.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { ENGINE_NAMES, freePort, freshStore } from '../support/helpers.js';
import { EXTERNAL, rng, validBody, type RefKind } from '../support/request-fuzz.js';
import { exited, serve } from '../support/serve-process.js';
import { startReceiver } from '../support/webhook-receiver.js';

/** The key with its last character replaced by another one (a fixed `x` is no change to a key that ends in `x`). */
const oneCharacterOff = (key: string) => `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;

/**
 * The hostile holder of valid keys, routes half (issue 35): one tenant's keys of every scope against every route of
 * the contract (walked from src/contract, so a new route is tried as soon as it exists), on a real `serve` over
 * SQLite and over PostgreSQL. Each route gets what such a holder would send: the other tenant in the header or the
 * query (case, look-alikes, encodings, twice), the other tenant's ids (whole and short, in the path, the query and
 * the body), writes with a read key, admin operations with a write key, a publishable key on secret routes, secret
 * keys from a browser, no key and broken keys, JSON nested 100,000 deep, wrong types, huge and broken texts, odd
 * headers and encodings, and the attempts of issue 35 (allow_private, a browser dating its consent, loopback
 * webhooks, a key widening itself, four eyes with forged names). Nothing of the other tenant may change or show,
 * nothing may answer 5xx, and what must be refused is refused with the journal where it was. The counts go to stderr
 * (`hostile routes on ENGINE: N attempts, N refused, N 5xx`); canaries at the end prove the checks can fail. The
 * doors half (the contents of sync push, media upload, bundle and CSV import: issue 35 items 1-5) is not here.
 */
const OWN = 'acme';
const OTHER = 'globex';
/** In every record of the other tenant: a response that shows it leaks that tenant's data. */
const MARK = 'GLOBEX-VERTRAULICH';
const SHOP = 'https://shop.acme.example';

type Scope = 'publishable' | 'read' | 'write' | 'admin';
type Kind =
  | 'dsfa'
  | 'consent'
  | 'consent_import_run'
  | 'legal_document'
  | 'legal_document_version'
  | 'training_module'
  | 'training_assignment'
  | 'training_certificate'
  | 'training_block'
  | 'training_content'
  | 'training_media'
  | 'webhook_endpoint'
  | 'webhook_delivery'
  | 'api_key'
  | 'question'
  | 'code';
type Seeds = Record<Kind, string>;

interface Attempt {
  what: string;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /** `refuse`: a 4xx that changes nothing; `answer`: anything but a 5xx or a hang. */
  must: 'refuse' | 'answer';
}

interface Route {
  area: string;
  name: string;
  op: Operation;
}
const ROUTES: Route[] = Object.entries(contracts)
  .flatMap(([area, c]) => Object.entries(c as Record<string, Operation>).map(([name, op]) => ({ area, name, op })))
  // deletions last: a short id may name one of the holder's own records, which the routes after it still need
  .sort((a, b) => Number(a.op.method === 'DELETE') - Number(b.op.method === 'DELETE'));

const RANK: Record<Scope, number> = { publishable: 0, read: 1, write: 2, admin: 3 };
/** The least secret scope a route needs: a publishable route is read for GET and write otherwise. */
function rankOf(op: Operation): number {
  const need = neededScope(op);
  return need === 'publishable' ? (op.method === 'GET' ? 1 : 2) : RANK[need];
}

/** What record a path parameter names: declared in the contract (`ids`), or known for the few routes that declare none. */
function kindOf(r: Route, param: string): Kind | string {
  const declared = r.op.ids?.params?.[param];
  if (declared) return declared === 'dsfa_trail' ? 'dsfa' : declared;
  if (r.area === 'apiKeys') return 'api_key';
  if (r.area === 'webhooks') return 'webhook_delivery';
  if (param === 'code') return 'code';
  if (param === 'mediaId') return 'training_media';
  if (param === 'role') return 'R1';
  if (param === 'name') return 'escalation';
  if (param === 'language') return 'de';
  throw new Error(`no id kind for ${r.area}.${r.name} {${param}}: name it in the contract's ids`);
}

const params = (r: Route) => [...r.op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const isIdKind = (k: string): k is Kind => /^[a-z_]+$/.test(k) && k !== 'escalation' && k !== 'de';

/** The route's path with each id parameter taken from `seeds` (a value of `pick`), others as they are. */
function pathOf(r: Route, seeds: Seeds, pick: (id: string) => string = (id) => id): string {
  let path = r.op.path;
  for (const p of params(r)) {
    const kind = kindOf(r, p);
    const value = isIdKind(kind) ? pick(seeds[kind]) : kind;
    path = path.replace(`{${p}}`, encodeURIComponent(value));
  }
  return `/sdk/v1${path}`;
}

const otherPathOf = (r: Route, other: Seeds) => pathOf(r, other);

/** A body the route accepts, its ids taken from `seeds`: refused then only for who sends it. */
function bodyOf(r: Route, seeds: Seeds): Buffer | undefined {
  if (r.op.requestKind === 'stream') return undefined;
  if (!r.op.body) return undefined;
  const refs: Record<RefKind, string> = {
    dsfa: seeds.dsfa,
    consent: seeds.consent,
    document: seeds.legal_document,
    version: seeds.legal_document_version,
    module: seeds.training_module,
    assignment: seeds.training_assignment,
    block: seeds.training_block,
    certificate: seeds.training_certificate,
  };
  const bodies: Record<string, unknown> = {
    // a public address needs no name to resolve
    'webhooks.add': { url: 'https://93.184.215.14/hooks', events: ['*'] },
    'apiKeys.create': { name: 'neu', scope: 'read', tenants: [OWN] },
    'sync.push': { replica: 'laptop-1', items: [] },
    'dsfa.updateSettings': { workflow: 'open' },
    'notifications.setTemplate': {
      subject: 'Fällig',
      body_text: 'Bitte erledigen.',
      body_html: '<p>Bitte erledigen.</p>',
    },
    'training.submitQuiz': { assignment_id: '', answers: [{ question_id: seeds.question, selected_index: 1 }] },
  };
  const body = bodies[`${r.area}.${r.name}`] ?? validBody(r.area, r.name, rng(7), 1);
  for (const [field, kind] of Object.entries(r.op.ids?.body ?? {}))
    (body as Record<string, unknown>)[field] = seeds[kind as Kind];
  const text = JSON.stringify(body, (_k, v: unknown) =>
    v && typeof v === 'object' && '$ref' in v ? refs[(v as { $ref: RefKind }).$ref] : v,
  );
  return Buffer.from(text);
}

/** Headers and query for one tenant and key, as the route places its tenant. */
function request_(
  r: Route,
  path: string,
  opts: { key?: string; tenant?: string; origin?: string; extra?: Record<string, string | string[]> },
) {
  const headers: Record<string, string | string[]> = { 'x-user-id': `admin@${OTHER}` };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  if (opts.origin) headers.origin = opts.origin;
  let url = path;
  if (opts.tenant !== undefined) {
    if (r.op.tenant === 'header') headers['x-tenant-id'] = opts.tenant;
    else if (r.op.tenant === 'query')
      url += `${url.includes('?') ? '&' : '?'}tenant_id=${encodeURIComponent(opts.tenant)}`;
  }
  return { path: url, headers: { ...headers, ...opts.extra } };
}

/** Every attempt of the suite for one route. */
function attemptsFor(r: Route, keys: Record<Scope, string>, own: Seeds, other: Seeds): Attempt[] {
  const out: Attempt[] = [];
  const ownPath = pathOf(r, own);
  // a stream route takes its own media type (a CSV file, a video); every other body is JSON
  const streamed = r.op.requestKind === 'stream' ? r.op.requestTypes?.[0] : undefined;
  const withBody = (h: Record<string, string | string[]>, body?: Buffer) =>
    body ? { 'content-type': streamed ?? 'application/json', ...h } : h;
  const json = streamed
    ? Buffer.from(
        streamed === 'text/csv'
          ? 'user_id,data_point_id,granted\nbesucher,newsletter,true\n'
          : '\u0000\u0000\u0000 ftypmp42',
      )
    : bodyOf(r, own);
  const add = (what: string, must: Attempt['must'], req: ReturnType<typeof request_>, body = json) =>
    out.push({
      what: `${r.area}.${r.name} ${what}`,
      method: r.op.method,
      path: req.path,
      headers: withBody(req.headers, body),
      body,
      must,
    });
  const external = EXTERNAL.has(`${r.area}.${r.name}`);

  if (r.op.public) {
    // no key: the request carries its own proof (a verification code, a signed URL); another tenant's is not found
    if (r.op.tenant === 'signed') {
      add('with a forged signature', 'refuse', request_(r, `${ownPath}?tenant=${OWN}&expires=9999999999&sig=00`, {}));
      add('for the other tenant, unsigned', 'refuse', request_(r, `${otherPathOf(r, other)}?tenant=${OTHER}`, {}));
    } else
      add(
        'with the other tenant’s code under its own tenant',
        'refuse',
        request_(r, pathOf(r, other), { tenant: OWN }),
      );
    return out;
  }

  // the control: the admin key on its own tenant, the request as it should be (refused, below, only for who sends it)
  if (!external && r.op.method !== 'DELETE')
    add('as its own admin, the control', 'answer', request_(r, ownPath, { key: keys.admin, tenant: OWN }));

  // scopes: each key below the route's, a publishable key on a secret route, secret keys from a browser
  for (const scope of ['read', 'write', 'admin'] as const) {
    if (RANK[scope] < rankOf(r.op))
      add(`with a ${scope} key`, 'refuse', request_(r, ownPath, { key: keys[scope], tenant: OWN }));
    add(
      `with a ${scope} key from a browser`,
      'refuse',
      request_(r, ownPath, { key: keys[scope], tenant: OWN, origin: SHOP }),
    );
  }
  if (neededScope(r.op) !== 'publishable')
    add('with a publishable key', 'refuse', request_(r, ownPath, { key: keys.publishable, tenant: OWN, origin: SHOP }));
  add(
    'with a publishable key without its origin',
    'refuse',
    request_(r, ownPath, { key: keys.publishable, tenant: OWN }),
  );
  add(
    'with a publishable key from another origin',
    'refuse',
    request_(r, ownPath, { key: keys.publishable, tenant: OWN, origin: 'https://shop.acme.example.evil.example' }),
  );
  add('without a key', 'refuse', request_(r, ownPath, { tenant: OWN }));
  add(
    'with a key one character off',
    'refuse',
    request_(r, ownPath, { key: oneCharacterOff(keys.admin), tenant: OWN }),
  );
  add(
    'with a key in the query instead',
    'refuse',
    request_(r, `${ownPath}${ownPath.includes('?') ? '&' : '?'}api_key=${keys.admin}`, { tenant: OWN }),
  );

  // the other tenant, named every way: the admin key opens acme only
  const otherPath = pathOf(r, other);
  const otherBody = bodyOf(r, other);
  if (r.op.tenant === 'header' || r.op.tenant === 'query') {
    for (const tenant of [
      OTHER,
      'GLOBEX',
      'Globex',
      'glob\u0435x',
      'globex ',
      ' globex',
      'glob%65x',
      `${OWN},${OTHER}`,
      `${OTHER}/../${OWN}`,
    ])
      add(
        `for tenant ${JSON.stringify(tenant)}`,
        'refuse',
        request_(r, otherPath, { key: keys.admin, tenant }),
        otherBody,
      );
    add(
      'naming both tenants in two headers',
      'refuse',
      request_(r, otherPath, { key: keys.admin, extra: { 'x-tenant-id': [OWN, OTHER] } }),
      otherBody,
    );
    add(
      'naming both tenants in two headers, the other first',
      'refuse',
      request_(r, otherPath, { key: keys.admin, extra: { 'x-tenant-id': [OTHER, OWN] } }),
      otherBody,
    );
    add(
      'naming its own in the header and the other in the query',
      'refuse',
      request_(r, `${otherPath}?tenant_id=${OTHER}`, { key: keys.admin, extra: { 'x-tenant-id': OWN } }),
      otherBody,
    );
    add(
      'naming the other in the query, encoded',
      'refuse',
      request_(r, `${otherPath}?tenant_id=glob%65x`, {
        key: keys.admin,
        extra: r.op.tenant === 'header' ? { 'x-tenant-id': OTHER } : {},
      }),
      otherBody,
    );
    add(
      'naming its own and the other in the query',
      'refuse',
      request_(r, `${otherPath}?tenant_id=${OWN}&tenant_id=${OTHER}`, {
        key: keys.admin,
        extra: r.op.tenant === 'header' ? { 'x-tenant-id': OWN } : {},
      }),
      otherBody,
    );
  } else {
    // the key routes name no tenant: a key for the other tenant, or for every tenant, would widen the admin key
    if (r.name === 'create') {
      for (const tenants of [[OTHER], [OWN, OTHER], null, ['GLOBEX']])
        add(
          `creating a key for ${JSON.stringify(tenants)}`,
          tenants?.[0] === 'GLOBEX' ? 'answer' : 'refuse',
          request_(r, ownPath, { key: keys.admin }),
          Buffer.from(JSON.stringify({ name: 'weit', scope: 'admin', tenants })),
        );
    }
  }

  // the other tenant's ids, whole and short, under its own tenant: not found
  const idParams = params(r).filter((p) => isIdKind(String(kindOf(r, p))));
  if (idParams.length) {
    add('on the other tenant’s record', 'refuse', request_(r, otherPath, { key: keys.admin, tenant: OWN }));
    add(
      'on the other tenant’s record by its short id',
      'refuse',
      request_(
        r,
        pathOf(r, other, (id) => id.slice(-8)),
        { key: keys.admin, tenant: OWN },
      ),
    );
    // time-ordered ids made in the same minute share their start: it may name one of its own records, never the other's
    add(
      'on the other tenant’s record by its start',
      'answer',
      request_(
        r,
        pathOf(r, other, (id) => id.slice(0, 8)),
        { key: keys.admin, tenant: OWN },
      ),
    );
  }
  if (r.op.ids?.body && json) {
    const body = JSON.parse(json.toString()) as Record<string, unknown>;
    for (const [field, kind] of Object.entries(r.op.ids.body)) body[field] = other[kind as Kind];
    add(
      'naming the other tenant’s record in the body',
      'refuse',
      request_(r, ownPath, { key: keys.admin, tenant: OWN }),
      Buffer.from(JSON.stringify(body)),
    );
  }
  for (const [field, kind] of Object.entries(r.op.ids?.query ?? {}))
    add(
      `filtering by the other tenant’s ${field}`,
      'answer',
      request_(r, `${ownPath}?${field}=${other[kind as Kind]}`, { key: keys.admin, tenant: OWN }),
    );

  // bodies a parser or a schema could choke on
  if (r.op.body && r.op.requestKind !== 'stream') {
    const deep = Buffer.from(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    add('with JSON nested 100,000 deep', 'refuse', request_(r, ownPath, { key: keys.admin, tenant: OWN }), deep);
    if (!external) {
      const field = Object.keys((r.op.body as unknown as { shape?: object }).shape ?? { x: 1 })[0] ?? 'x';
      const variants: Array<[string, Buffer]> = [
        ['an array', Buffer.from('[]')],
        ['a number', Buffer.from('42')],
        ['null', Buffer.from('null')],
        ['a string', Buffer.from('"x"')],
        ['truncated JSON', Buffer.from('{"a":')],
        [`${field} as an object`, Buffer.from(JSON.stringify({ [field]: { $gt: '' } }))],
        [`${field} as 200,000 characters`, Buffer.from(JSON.stringify({ [field]: 'ü'.repeat(200_000) }))],
        [`${field} with a NUL and a lone surrogate`, Buffer.from(`{"${field}":"a\\u0000b\\ud800"}`)],
        [
          'bytes that are not UTF-8',
          Buffer.concat([Buffer.from(`{"${field}":"`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
        ],
        ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json ?? Buffer.from('{}')])],
        [
          '__proto__ and constructor',
          Buffer.from(`{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"${field}":"x"}`),
        ],
        ['a number past double precision', Buffer.from(`{"${field}":1e999999}`)],
      ];
      for (const [what, body] of variants)
        add(`with ${what}`, 'answer', request_(r, ownPath, { key: keys.admin, tenant: OWN }), body);
      add(
        'as text/plain',
        'answer',
        request_(r, ownPath, { key: keys.admin, tenant: OWN, extra: { 'content-type': 'text/plain; charset=latin1' } }),
      );
    }
  }
  if (!external) {
    const ids = params(r).filter((p) => isIdKind(String(kindOf(r, p))));
    for (const nasty of ['..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(3000), '%C0%AF', "1'%20or%20'1'%3D'1", '*'])
      if (ids.length)
        add(
          `with the id ${nasty.slice(0, 20)}`,
          'answer',
          request_(r, pathOf(r, own, () => '§').replace(/%C2%A7/g, nasty), { key: keys.admin, tenant: OWN }),
        );
    if (r.op.query || r.op.method === 'GET')
      add(
        'with a query of odd values',
        'answer',
        request_(
          r,
          `${ownPath}?limit=1e999&offset=-0&skip=NaN&as_of=0000-00-00&format=..%2F&status[]=x&user_id=%00&limit=2`,
          { key: keys.admin, tenant: OWN },
        ),
      );
  }
  return out;
}

/** One request over HTTP/1.1 as sent, duplicate headers included: status and body, or the failure. */
function send(base: URL, a: Attempt, agent: Agent | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: base.hostname, port: base.port, method: a.method, path: a.path, agent, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // a header carries bytes: text beyond Latin-1 goes as its UTF-8 bytes, as a client that does not care would send it
    const bytes = (v: string) => Buffer.from(v, 'utf8').toString('latin1');
    for (const [k, v] of Object.entries(a.headers)) req.setHeader(k, Array.isArray(v) ? v.map(bytes) : bytes(v));
    if (a.body) req.setHeader('content-length', a.body.length);
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(a.body);
  });
}

/** Tables whose rows belong to a tenant, read from the database itself, so a new table is watched too. */
async function tenantTables(store: Store): Promise<string[]> {
  const rows =
    store.kind === 'postgres'
      ? await sql<{ t: string }>`select table_name as t from information_schema.columns
          where column_name = 'tenant_id' and table_schema = current_schema() order by 1`.execute(store.admin)
      : await sql<{ t: string }>`select m.name as t from sqlite_master m, pragma_table_info(m.name) c
          where m.type = 'table' and c.name = 'tenant_id' order by 1`.execute(store.admin);
  return rows.rows.map((r) => r.t);
}

/** Everything the other tenant has: each table's rows as a hash (api keys without their last use). */
async function snapshot(store: Store, tables: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const hash = (rows: unknown[]) =>
    createHash('sha256')
      .update(JSON.stringify(rows.map((r) => JSON.stringify(r)).sort()))
      .digest('hex');
  for (const t of tables) {
    const { rows } = await sql`select * from ${sql.table(t)} where tenant_id = ${OTHER}`.execute(store.admin);
    out[t] = `${rows.length} ${hash(rows)}`;
  }
  const keys = await store.admin
    .selectFrom('api_key')
    .select(['id', 'tenants', 'scope', 'revoked_at', 'expires_at'])
    .execute();
  out.api_key = hash(keys.filter((k) => k.tenants?.includes(OTHER)));
  return out;
}

/** The heads of every chain and the rows no chain covers: what a refused request must leave as it was. */
async function fingerprint(store: Store): Promise<string> {
  const heads = await sql<{
    tenant_id: string;
    seq: number;
  }>`select tenant_id, max(seq) as seq from journal group by tenant_id order by tenant_id`.execute(store.admin);
  const counts = await sql<{
    k: number;
    w: number;
  }>`select (select count(*) from api_key) as k, (select count(*) from webhook_endpoint) as w`.execute(store.admin);
  return JSON.stringify([
    heads.rows.map((r) => [r.tenant_id, Number(r.seq)]),
    counts.rows.map((r) => [Number(r.k), Number(r.w)]),
  ]);
}

describe.each(ENGINE_NAMES)('a hostile holder of valid keys, on every route, on %s', (engine) => {
  let db: string;
  let server: Awaited<ReturnType<typeof serve>>;
  let store: Store;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const keys = {} as Record<Scope, string>;
  const seeds = {} as Record<typeof OWN | typeof OTHER, Seeds>;

  beforeAll(async () => {
    db = await freshStore(engine);
    receiver = await startReceiver();
    const local = await createLocalBackend(db);
    try {
      for (const tenant of [OWN, OTHER] as const) seeds[tenant] = await seed(local, tenant);
      const ks = await local.keys();
      keys.publishable = (await ks.create({ scope: 'publishable', tenants: [OWN], origins: [SHOP] })).key;
      for (const scope of ['read', 'write', 'admin'] as const)
        keys[scope] = (await ks.create({ scope, tenants: [OWN] })).key;
    } finally {
      await local.close();
    }
    // nothing answers at this address: a route that would reach a language model fails fast
    const ollama = `http://127.0.0.1:${await freePort()}`;
    server = await serve(['--db', db, '--no-events', '--rate-limit', '0', '--rate-limit-ip', '0'], {
      OLLAMA_HOST: ollama,
    });
    store = await openStore(db);
  }, 120_000);
  afterAll(async () => {
    server?.proc.kill('SIGTERM');
    if (server) await exited(server.proc);
    await store?.close();
    await receiver?.close();
  });

  it('changes nothing of the other tenant, shows nothing of it, refuses what it must, and never answers 5xx', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const tables = await tenantTables(store);
    const before = await snapshot(store, tables);
    const check = judge(new URL(server.url), agent, [MARK, ...Object.values(seeds[OTHER])]);

    const only = process.env.HOSTILE_ONLY;
    for (const r of ROUTES.filter((x) => !only || `${x.area}.${x.name}`.startsWith(only)))
      await check.route(attemptsFor(r, keys, seeds[OWN], seeds[OTHER]), store);
    await check.route(issueAttempts(keys, seeds[OWN], receiver.port), store);
    const { attempts, refused, serverErrors, problems } = check;
    process.stderr.write(
      `hostile routes on ${engine}: ${attempts} attempts, ${refused} refused, ${serverErrors} 5xx\n`,
    );

    // the checks themselves can fail: a write marked as one to refuse, and a 500 showing the other tenant's data
    const canary = judge(new URL(server.url), agent, [MARK]);
    const write: Attempt = {
      what: 'canary: a write the suite is told must be refused',
      method: 'POST',
      path: '/sdk/v1/dsfa',
      headers: { authorization: `Bearer ${keys.admin}`, 'x-tenant-id': OWN, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ title: 'Kanarienvogel' })),
      must: 'refuse',
    };
    await canary.route([write], store);
    const broken = await startReceiver({ answer: () => 500, body: `{"error":"${MARK}"}` });
    try {
      await judge(new URL(`http://127.0.0.1:${broken.port}`), undefined, [MARK], canary).route(
        [{ ...write, what: 'canary: a server that answers 500', path: '/', must: 'answer' }],
        store,
      );
    } finally {
      await broken.close();
    }
    expect(canary.problems).toEqual([
      'not refused (201): canary: a write the suite is told must be refused',
      'changed the store: canary: a write the suite is told must be refused',
      `500: canary: a server that answers 500: {"error":"${MARK}"}`,
      `showed the other tenant's ${MARK}: canary: a server that answers 500`,
    ]);
    expect(canary.serverErrors).toBe(1);
    agent.destroy();

    expect(await snapshot(store, tables)).toEqual(before);
    expect(problems).toEqual([]);
    expect(serverErrors).toBe(0);
    expect(attempts).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(attempts / 2);
    expect(receiver.received).toHaveLength(0);
  }, 300_000);
});

interface Judge {
  attempts: number;
  /** Answered 4xx. */
  refused: number;
  serverErrors: number;
  problems: string[];
  /** Sends one route's attempts and judges them, adding to the counts and problems. */
  route: (attempts: Attempt[], store: Store) => Promise<void>;
}

/**
 * Sends attempts and judges the answers. A route's attempts to refuse go first, four at a time, between two
 * fingerprints of the store (a change names the route's attempts); the answers it must merely survive follow one by
 * one, as they may change the holder's own records.
 */
function judge(base: URL, agent: Agent | undefined, secrets: string[], into?: Judge): Judge {
  const state: Judge = into ?? { attempts: 0, refused: 0, serverErrors: 0, problems: [], route: async () => {} };
  const one = async (a: Attempt) => {
    state.attempts++;
    let res: { status: number; body: string };
    const started = Date.now();
    try {
      res = await send(base, a, agent);
    } catch (e) {
      state.problems.push(`no answer: ${a.what} (${(e as Error).message})`);
      return;
    }
    if (process.env.HOSTILE_DEBUG && Date.now() - started > 1000)
      process.stderr.write(`SLOW ${Date.now() - started} ms ${res.status} ${a.what}\n`);
    if (res.status >= 400 && res.status < 500) state.refused++;
    if (res.status >= 500) {
      state.serverErrors++;
      state.problems.push(`${res.status}: ${a.what}: ${res.body.slice(0, 200)}`);
    }
    if (a.must === 'refuse' && (res.status < 400 || res.status >= 500))
      state.problems.push(`not refused (${res.status}): ${a.what}`);
    // what was sent is spelled out only for an answer that holds a secret (bodies of 400 kB, thousands of times)
    const inAnswer = secrets.filter((s) => res.body.includes(s));
    const sent = inAnswer.length ? `${a.path} ${JSON.stringify(a.headers)} ${a.body?.toString('latin1') ?? ''}` : '';
    const shown = inAnswer.filter((s) => !sent.includes(s));
    if (shown.length) state.problems.push(`showed the other tenant's ${shown.join(', ')}: ${a.what}`);
  };
  state.route = async (attempts: Attempt[], store: Store) => {
    const refuse = attempts.filter((a) => a.must === 'refuse');
    if (refuse.length) {
      const mark = await fingerprint(store);
      for (let i = 0; i < refuse.length; i += 4) await Promise.all(refuse.slice(i, i + 4).map(one));
      if ((await fingerprint(store)) !== mark)
        state.problems.push(`changed the store: ${refuse.map((a) => a.what).join(' | ')}`);
    }
    for (const a of attempts.filter((x) => x.must !== 'refuse')) await one(a);
  };
  return state;
}

/** The attempts of issue 35 that need more than a route and a key: each refused, whatever the route's own answers. */
function issueAttempts(keys: Record<Scope, string>, own: Seeds, port: number): Attempt[] {
  const json = (
    method: string,
    path: string,
    key: string,
    body: unknown,
    extra: Record<string, string> = {},
  ): Attempt => ({
    what: `${method} ${path} ${JSON.stringify(body)}`,
    method,
    path: `/sdk/v1${path}`,
    headers: { authorization: `Bearer ${key}`, 'x-tenant-id': OWN, 'content-type': 'application/json', ...extra },
    body: Buffer.from(JSON.stringify(body)),
    must: 'refuse',
  });
  const out: Attempt[] = [
    // a tenant's admin is not the operator: no private webhook targets, in no spelling
    json('POST', '/webhooks', keys.admin, { url: `http://127.0.0.1:${port}/`, events: ['*'], allow_private: true }),
    ...[
      '[::127.0.0.1]',
      '[::ffff:127.0.0.1]',
      '[2002:7f00:1::]',
      '[64:ff9b::7f00:1]',
      '0x7f.1',
      '2130706433',
      'localhost',
    ].map((h) => json('POST', '/webhooks', keys.admin, { url: `http://${h}:${port}/`, events: ['*'] })),
    // a browser records a choice now
    ...[
      { granted_at: '2001-01-01T00:00:00Z' },
      { revoked_at: '2001-01-02T00:00:00Z' },
      { source: 'signed_paper' },
      { ip_address: '10.0.0.1' },
    ].map((claim) =>
      json(
        'POST',
        '/einwilligungen/consents',
        keys.publishable,
        { user_id: 'v', data_point_id: 'newsletter', granted: true, ...claim },
        { origin: SHOP },
      ),
    ),
    // a read key never writes, not even a consent
    json('POST', '/einwilligungen/consents', keys.read, { user_id: 'v', data_point_id: 'newsletter', granted: true }),
    // a write key manages no keys, not even its own tenant's
    { ...json('DELETE', `/keys/${own.api_key}`, keys.write, {}), what: 'revoking a key with a write key' },
  ];
  return out;
}

/** One tenant's records of every kind the routes name, made on the store's command line (the operator). */
async function seed(local: Awaited<ReturnType<typeof createLocalBackend>>, tenant: string): Promise<Seeds> {
  const T = { tenant };
  const mark = tenant === OTHER ? MARK : 'acme-daten';
  const dsfa = await local.dsfa.create({ ...T, body: { title: `${mark} Videoüberwachung` } });
  const consent = await local.consents.create({
    ...T,
    body: { user_id: `${mark}@example.com`, data_point_id: 'newsletter', granted: true },
  });
  const run = await local.consents.import({
    ...T,
    query: {},
    stream: {
      body: Readable.from([`user_id,data_point_id,granted\n${mark}-2@example.com,analytics,true\n`]),
      content_type: 'text/csv',
    },
  });
  const doc = await local.legalDocuments.create({
    ...T,
    body: { title: `${mark} Datenschutz`, document_type: 'privacy_policy' },
  });
  const version = await local.legalDocuments.addVersion({
    ...T,
    params: { id: doc.id },
    body: { title: 'Fassung 1', content: `# ${mark}` },
  });
  await local.legalDocuments.submit({ ...T, params: { id: version.id }, body: {} });
  await local.legalDocuments.approve({ ...T, params: { id: version.id }, body: { approved_by: 'dpo@example.com' } });
  await local.legalDocuments.publish({ ...T, params: { id: version.id }, body: {} });
  await local.cookieBanner.put({ ...T, body: validBody('cookieBanner', 'put', rng(1), 1) });
  const module = await local.training.createModule({
    ...T,
    body: {
      module_code: 'DS-1',
      title: `${mark} Schulung`,
      regulation_area: 'dsgvo',
      frequency_type: 'annual',
      questions: [{ question: 'Meldefrist?', options: ['24 h', '72 h'], correct_index: 1 }],
    },
  });
  await local.training.setMatrix({ ...T, body: { role_code: 'R1', module_id: module.id } });
  const computed = await local.training.compute({
    ...T,
    body: { user_id: 'anna', user_name: `${mark} Anna`, user_email: 'anna@example.com', roles: ['R1'] },
  });
  const assignment = computed.assignments[0]!.id;
  await local.training.start({ ...T, params: { id: assignment }, body: {} });
  const quiz = await local.training.quiz({ ...T, params: { moduleId: module.id } });
  await local.training.submitQuiz({
    ...T,
    params: { moduleId: module.id },
    body: { assignment_id: assignment, answers: quiz.questions.map((q) => ({ question_id: q.id, selected_index: 1 })) },
  });
  await local.training.complete({ ...T, params: { id: assignment }, body: {} });
  const certificate = await local.training.generateCertificate({
    ...T,
    params: { assignmentId: assignment },
    body: {},
  });
  const block = await local.trainingBlocks.create({
    ...T,
    body: { name: `${mark} Block`, regulation_area: 'nis2', module_code_prefix: 'NB', domain_filter: 'AUTH' },
  });
  // an endpoint nothing answers at (the discard port), and its test delivery: failed, to be retried
  const endpoint = await local.webhooks.add({
    ...T,
    body: { url: 'http://127.0.0.1:9/', events: ['*'], allow_private: true },
  });
  const delivery = await local.webhooks.test({ ...T, params: { id: endpoint.id } });
  const key = await (await local.keys()).create({ scope: 'admin', tenants: [tenant] });
  return {
    dsfa: dsfa.id,
    consent: consent.id,
    consent_import_run: run.run_id!,
    legal_document: doc.id,
    legal_document_version: version.id,
    training_module: module.id,
    training_assignment: assignment,
    training_certificate: certificate.certificate_id,
    code: certificate.verification_code,
    training_block: block.id,
    // none stored: an id of the right form that names nothing
    training_content: `0195${tenant === OTHER ? 'f' : 'a'}000-0000-7000-8000-000000000001`,
    training_media: `0195${tenant === OTHER ? 'f' : 'a'}000-0000-7000-8000-000000000002`,
    webhook_endpoint: endpoint.id,
    webhook_delivery: delivery.id,
    api_key: key.id,
    question: quiz.questions[0]!.id,
  };
}
