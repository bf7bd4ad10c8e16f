import { readFileSync } from 'node:fs';
import { contracts } from '../../src/contract/index.js';
import type { Operation } from '../../src/contract/operation.js';

/**
 * A seeded generator of /sdk/v1 requests for comparing engines: valid requests (so records exist and deeper code
 * runs) mixed with mutated ones, heavy on the texts engines store differently (NUL above all, other control
 * characters, lone surrogates, very long and odd texts). The same seed gives the same requests; ids the servers
 * hand out are referred to by kind and creation order (`{ $ref: 'dsfa', n: 2 }`), so each server gets its own.
 */

/** Kinds of records whose ids later requests refer to, in the order each server created them. */
export type RefKind = 'dsfa' | 'consent' | 'document' | 'version' | 'module' | 'assignment' | 'block' | 'certificate';
export interface Ref {
  $ref: RefKind;
  n: number;
}

export interface FuzzRequest {
  area: string;
  name: string;
  method: string;
  /** Path segments after /sdk/v1: literal (not yet encoded) or a reference. */
  segments: Array<string | Ref>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** A JSON value (with references), or raw text sent as it is. */
  body?: { json: unknown } | { text: string; contentType: string };
  /** What a success creates, to be referred to later. */
  creates?: RefKind;
}

/** mulberry32: small, fast, and the same sequence on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof rng>;

/** Operations that call programs or services outside the store (a language model, speech, video): left out. */
export const EXTERNAL = new Set([
  'trainingContent.generate',
  'trainingContent.generateQuiz',
  'trainingContent.generateAll',
  'trainingContent.generateAllQuiz',
  'trainingMedia.generateAudio',
  'trainingMedia.generateVideo',
  'trainingMedia.previewScript',
  'trainingBlocks.generate',
]);

const OPERATIONS = Object.entries(contracts).flatMap(([area, c]) =>
  Object.entries(c as Record<string, Operation>)
    .filter(([name]) => !EXTERNAL.has(`${area}.${name}`))
    .map(([name, op]) => ({ area, name, op })),
);

const NASTY = [
  '\u0000',
  'abc\u0000def',
  '\u0000\u0000\u0000',
  'Titel\u0000',
  '\u0000Titel',
  'ä\u0000ö',
  '\u0001',
  'a\u0007b',
  '\u001f',
  '\u007f',
  '\ud800',
  'x\udfffy',
  '\u202eRTL',
  '😀',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '',
  ' ',
  '\n',
  '\t',
  '%00',
  '\\0',
  "'; drop table dsfa; --",
  '"',
  '../../etc/passwd',
  '0',
  '-1',
  '1e309',
  '99999999999999999999',
  'null',
  'true',
  'x'.repeat(5000),
  'ü'.repeat(300),
] as const;

/** A text that is usually troublesome, often with a NUL somewhere. */
export function nastyText(r: Rng): string {
  if (r.chance(0.35)) {
    const base = r.pick(['Titel', 'user@example.com', 'R1', 'dsgvo', '2026-01-01T00:00:00Z', 'newsletter', 'x']);
    const at = r.int(base.length + 1);
    return base.slice(0, at) + '\u0000' + base.slice(at);
  }
  return r.pick(NASTY);
}

function nastyValue(r: Rng): unknown {
  switch (r.int(8)) {
    case 0:
      return null;
    case 1:
      return r.pick([0, -1, 1.5, 1e308, 2 ** 53, -(2 ** 31) - 1, 2 ** 31]);
    case 2:
      return r.chance(0.5);
    case 3:
      return [nastyText(r)];
    case 4:
      return { [nastyText(r)]: nastyText(r) };
    default:
      return nastyText(r);
  }
}

const ref = (kind: RefKind, r: Rng): Ref => ({ $ref: kind, n: r.int(6) });

/** A request body the operation accepts (before mutation). `k` makes codes and names unique. */
export function validBody(area: string, name: string, r: Rng, k: number): unknown {
  const user = `user${r.int(5)}@example.com`;
  switch (`${area}.${name}`) {
    case 'dsfa.create':
    case 'dsfa.update':
      return {
        title: `Verfahren ${k}`,
        description: 'Beschreibung',
        processing_activity: 'Bewerbermanagement',
        data_categories: ['Name', 'E-Mail'],
        recipients: ['HR'],
        measures: ['Verschlüsselung'],
        risk_level: r.pick(['low', 'medium', 'high']),
        ai_use_case_modules: r.chance(0.3)
          ? [{ use_case_type: 'chatbot_nlp', name: 'Bot', risks: [{ title: 'r' }] }]
          : [],
      };
    case 'dsfa.setStatus':
      return { status: r.pick(['draft', 'in_review', 'approved', 'rejected']), approved_by: 'DSB' };
    case 'dsfa.updateSettings':
      return { default_risk_level: 'medium' };
    case 'consents.create':
      return { user_id: user, data_point_id: r.pick(['newsletter', 'analytics']), granted: r.chance(0.8) };
    case 'consents.renew':
      return r.chance(0.5) ? {} : { consent_version: '2.0' };
    case 'consents.revoke':
      return {};
    case 'legalDocuments.create':
      return { title: `Datenschutz ${k}`, document_type: r.pick(['privacy_policy', 'terms', 'imprint']) };
    case 'legalDocuments.addVersion':
      return { title: 'Fassung', content: '# Datenschutz\n\nText', change_summary: 'neu' };
    case 'legalDocuments.approve':
      return { approved_by: 'DSB', comment: 'ok' };
    case 'legalDocuments.reject':
      return { comment: 'zu kurz' };
    case 'cookieBanner.put':
      return {
        categories: [
          { id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: true },
          { id: 'analytics', name: 'Statistik', isRequired: false, defaultEnabled: false },
        ],
        config: {
          position: 'bottom',
          style: 'bar',
          primaryColor: '#1a73e8',
          showDeclineAll: true,
          showSettings: true,
          banner_texts: { title: 'Cookies', description: 'Nur mit Einwilligung.', privacyLink: '/datenschutz' },
        },
      };
    case 'training.createModule':
    case 'training.updateModule':
      return {
        module_code: `FZ-${k}`,
        title: `Modul ${k}`,
        description: 'Pflichten',
        regulation_area: 'dsgvo',
        frequency_type: 'annual',
        questions: [{ question: 'Frist?', options: ['24 h', '72 h'], correct_index: 1, explanation: 'Art. 33' }],
      };
    case 'training.setMatrix':
      return { role_code: r.pick(['R1', 'R9']), module_id: ref('module', r), is_mandatory: true, priority: 3 };
    case 'training.compute':
      return { user_id: `u${r.int(4)}`, user_name: 'Anna Schmidt', user_email: user, roles: ['R9', 'R1'] };
    case 'training.computeMany':
      return { users: [{ user_id: `u${r.int(4)}`, user_name: 'Ben', user_email: user, roles: ['R9'] }] };
    case 'training.updateAssignment':
      return { user_name: 'Anna S.', deadline: '2030-01-01T00:00:00Z' };
    case 'training.progress':
      return { progress: r.int(100) };
    case 'training.submitQuiz':
      return { assignment_id: ref('assignment', r), answers: [{ question_id: 'q', selected_index: 0 }] };
    case 'training.escalate':
      return {};
    case 'canonical.import':
      return { controls: [{ ...CONTROL, id: `FZ-${k}` }], dry_run: r.chance(0.5) };
    case 'trainingBlocks.create':
    case 'trainingBlocks.update':
      return { name: `Block ${k}`, regulation_area: 'nis2', module_code_prefix: `FZ${k % 100}`, domain_filter: 'AUTH' };
    default:
      return {};
  }
}

const CONTROL = (JSON.parse(readFileSync('fixtures/training/canonical-controls.json', 'utf8')) as object[])[0]!;

/** Changes one place of a JSON value: a leaf replaced, a NUL put into a text, a field added. */
function mutate(value: unknown, r: Rng): unknown {
  if (typeof value === 'string') {
    if (r.chance(0.5)) {
      const at = r.int(value.length + 1);
      return value.slice(0, at) + '\u0000' + value.slice(at);
    }
    return nastyValue(r);
  }
  if (Array.isArray(value)) {
    if (!value.length || r.chance(0.2)) return [...value, nastyValue(r)];
    const i = r.int(value.length);
    return value.map((v, j) => (j === i ? mutate(v, r) : v));
  }
  if (value && typeof value === 'object' && !('$ref' in value)) {
    const keys = Object.keys(value);
    if (!keys.length || r.chance(0.15)) return { ...value, [r.chance(0.5) ? nastyText(r) : 'extra']: nastyValue(r) };
    const k = r.pick(keys);
    return { ...value, [k]: mutate((value as Record<string, unknown>)[k], r) };
  }
  return nastyValue(r);
}

/** A sensible value for a query parameter, or a troublesome one. */
function queryValue(key: string, r: Rng): string {
  if (r.chance(0.5)) return nastyText(r);
  const sensible: Record<string, string[]> = {
    limit: ['1', '10', '500', '0', '-1', '99999999999999999999'],
    offset: ['0', '5', '-1', '9223372036854775808', '1e3'],
    skip: ['0', '3', '-1'],
    granted: ['true', 'no', 'maybe'],
    status: ['draft', 'approved', 'overdue', 'pending'],
    as_of: ['2030-01-01T00:00:00Z', '2026-13-01', 'gestern'],
    format: ['csv', 'ndjson', 'xml'],
    delimiter: [';', ',', 'tab', '::'],
    dry_run: ['true', 'false'],
  };
  return r.pick(sensible[key] ?? ['x', 'newsletter', 'R1', 'dsgvo', 'Daten']);
}

function importBody(r: Rng): FuzzRequest['body'] {
  const cell = () => (r.chance(0.3) ? nastyText(r).replace(/[",\n\r]/g, '') : `user${r.int(9)}@example.com`);
  if (r.chance(0.5)) {
    const rows = Array.from({ length: 1 + r.int(4) }, () => `${cell()},newsletter,true,1.0,${cell()}`);
    return {
      text: ['user_id,data_point_id,granted,consent_version,source', ...rows].join('\n') + '\n',
      contentType: 'text/csv',
    };
  }
  const rows = Array.from({ length: 1 + r.int(4) }, () =>
    JSON.stringify({ user_id: cell(), data_point_id: 'analytics', granted: true, user_agent: nastyText(r) }),
  );
  return { text: rows.join('\n') + '\n', contentType: 'application/x-ndjson' };
}

const CREATES: Record<string, RefKind> = {
  'dsfa.create': 'dsfa',
  'consents.create': 'consent',
  'legalDocuments.create': 'document',
  'legalDocuments.addVersion': 'version',
  'training.createModule': 'module',
  'training.generateCertificate': 'certificate',
  'trainingBlocks.create': 'block',
};

/** Which kind of record a path parameter names. */
function paramKind(area: string, name: string, param: string): RefKind {
  if (param === 'assignmentId') return 'assignment';
  if (param === 'moduleId') return 'module';
  if (area === 'dsfa') return 'dsfa';
  if (area === 'consents') return 'consent';
  if (area === 'legalDocuments')
    return name === 'get' || name === 'versions' || name === 'addVersion' ? 'document' : 'version';
  if (area === 'trainingBlocks') return 'block';
  if (area === 'training' && /certificate|verify/i.test(name)) return 'certificate';
  if (area === 'training' && /module/i.test(name)) return 'module';
  return 'assignment';
}

/** The `i`th request of the sequence for `seed`. */
export function fuzzRequest(r: Rng, i: number): FuzzRequest {
  const { area, name, op } = r.pick(OPERATIONS);
  const segments: FuzzRequest['segments'] = op.path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      const m = /^\{(\w+)\}$/.exec(s);
      if (!m) return s;
      if (m[1] === 'role') return r.chance(0.8) ? r.pick(['R1', 'R9']) : nastyText(r);
      if (r.chance(0.7)) return ref(paramKind(area, name, m[1]!), r);
      return nastyText(r) || 'x';
    });
  const tenant = r.chance(0.03) ? r.pick(['t\u0000a', '\u0000']) : 'fuzz';
  const headers: Record<string, string> = { 'x-user-id': 'fuzzer' };
  const query: Array<[string, string]> = [];
  // a NUL in a header is refused by Node's HTTP parser before the server sees it; tenants with NUL go in the query
  if (op.tenant === 'query') query.push(['tenant_id', tenant]);
  else if (!tenant.includes('\u0000')) headers['x-tenant-id'] = tenant;
  else {
    headers['x-tenant-id'] = 'fuzz';
    query.push(['tenant_id', tenant]);
  }
  const keys = op.query ? Object.keys((op.query as unknown as { shape?: object }).shape ?? {}) : [];
  for (const key of keys) if (r.chance(0.3)) query.push([key, queryValue(key, r)]);
  if (r.chance(0.05)) query.push([nastyText(r), nastyText(r)]);
  let body: FuzzRequest['body'];
  if (op.requestKind === 'stream') body = importBody(r);
  else if (op.body) {
    if (r.chance(0.08))
      body = {
        text: r.pick(['{"title":"a\u0000b"}', '\u0000', '{"title":"x"', '[]', 'null', '"\u0000"']),
        contentType: 'application/json',
      };
    else {
      let json = validBody(area, name, r, i);
      const mutations = r.chance(0.25) ? 0 : 1 + r.int(3);
      for (let m = 0; m < mutations; m++) json = mutate(json, r);
      body = { json };
    }
  }
  return { area, name, method: op.method, segments, query, headers, body, creates: CREATES[`${area}.${name}`] };
}

/** Replaces references with the ids one server handed out (a reference past its list stays an unknown id). */
export function resolve(value: unknown, ids: Record<RefKind, string[]>): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, ids));
  if (value && typeof value === 'object') {
    if ('$ref' in value) {
      const { $ref, n } = value as Ref;
      return ids[$ref][n] ?? `00000000-0000-7000-8000-00000000000${n}`;
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, ids)]));
  }
  return value;
}

/** The request as fetch sends it to one server. */
export function toFetch(base: string, q: FuzzRequest, ids: Record<RefKind, string[]>): [string, RequestInit] {
  // a lone surrogate cannot be percent-encoded; UTF-8 would carry U+FFFD in its place, as URLSearchParams does
  const wellFormed = (s: string) =>
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  const path = q.segments.map((s) => encodeURIComponent(wellFormed(String(resolve(s, ids))))).join('/');
  const search = new URLSearchParams(q.query).toString();
  const headers: Record<string, string> = { ...q.headers };
  let body: string | undefined;
  if (q.body && 'json' in q.body) {
    body = JSON.stringify(resolve(q.body.json, ids));
    headers['content-type'] = 'application/json';
  } else if (q.body) {
    body = q.body.text;
    headers['content-type'] = q.body.contentType;
  }
  return [`${base}/sdk/v1/${path}${search ? `?${search}` : ''}`, { method: q.method, headers, body }];
}
