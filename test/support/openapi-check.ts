import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Backend } from '../../src/backend/backend.js';
import { contracts } from '../../src/contract/index.js';
import type { Contract, Operation } from '../../src/contract/operation.js';
import { buildOpenApi } from '../../src/server/openapi.js';
import { nodeTransport, type Transport } from '../../src/backend/http/transport.js';
import { Readable } from 'node:stream';

type Json = Record<string, unknown>;
/** What the check needs of an answer: its status, its media type and (for JSON) its body. */
type Seen = {
  status: number;
  contentType: string | null;
  header: (name: string) => string | null;
  text: () => Promise<string>;
};

/** A fetch Response as the check sees it (its body stays readable). */
export const seenOf = (res: Response): Seen => ({
  status: res.status,
  contentType: res.headers.get('content-type'),
  header: (name) => res.headers.get(name),
  text: () => res.clone().text(),
});
type Doc = { paths: Record<string, Record<string, Json>>; components: Record<string, Record<string, Json>> };

// ajv-formats is CommonJS with its function as the default export
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * Checks HTTP responses against the served OpenAPI document with ajv (independent of the zod schemas the document
 * was generated from): the status must be documented for the operation, the media type must be one it lists, and
 * a JSON body must match its schema.
 */
export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ re: RegExp; fixed: number; path: string }>;

  constructor(
    private readonly doc: Doc,
    private readonly prefix: string,
  ) {
    addFormats(this.ajv);
    this.routes = Object.keys(doc.paths)
      .map((path) => ({
        path,
        fixed: path.split('/').filter((s) => s && !s.startsWith('{')).length,
        re: new RegExp('^' + path.replace(/\{\w+\}/g, '[^/]+') + '$'),
      }))
      .sort((a, b) => b.fixed - a.fixed);
  }

  private deref<T>(o: T): T {
    const ref = (o as { $ref?: string } | undefined)?.$ref;
    if (!ref?.startsWith('#/components/')) return o;
    const [, , kind, name] = ref.split('/');
    return this.doc.components[kind!]![name!] as T;
  }

  /** Problems of one response, empty when the document allows it; `text` reads its body (asked for JSON only). */
  async problems(method: string, url: URL, res: Seen): Promise<string[]> {
    const rel = url.pathname.slice(this.prefix.length);
    const where = `${method} ${url.pathname} answered ${res.status}`;
    if (rel === '/openapi.json') return [];
    const route = this.routes.find((r) => r.re.test(rel) && this.doc.paths[r.path]![method.toLowerCase()]);
    if (!route) return [`${where}: no operation in the document`];
    const op = this.doc.paths[route.path]![method.toLowerCase()] as { responses: Record<string, Json> };
    const response = this.deref(op.responses[String(res.status)]) as
      { content?: Record<string, { schema?: Json }>; headers?: Record<string, Json> } | undefined;
    if (!response) return [`${where}, a status the document does not list for ${route.path}`];
    // every header the document says the answer carries
    const missing = Object.entries(response.headers ?? {})
      .filter(([name, h]) => (this.deref(h) as { required?: boolean }).required && res.header(name) === null)
      .map(([name]) => `${where} without its header ${name}`);
    if (missing.length) return missing;
    if (!response.content) return [];
    const mediaType = (res.contentType ?? '').split(';')[0]!.trim();
    const media = response.content[mediaType];
    if (!media)
      return [`${where} with ${mediaType || 'no content type'}; documented: ${Object.keys(response.content)}`];
    if (mediaType !== 'application/json' || !media.schema) return [];
    const key = `${method} ${route.path} ${res.status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.deref(media.schema));
      this.validators.set(key, validate);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where} with a body that is not JSON: ${text.slice(0, 200)}`];
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message}`);
  }
}

let served: Promise<Doc> | undefined;

/**
 * The transport of the contract suite's HTTP faces: the CLI's own (`node:http`), with every answer checked against
 * the document the server serves (fetched once per test file). An answer the document does not allow fails the call
 * that received it; a JSON body is read for the check and handed on from memory.
 */
export function checkedTransport(base: string, prefix = '/sdk/v1'): Transport {
  served ??= fetch(`${base}${prefix}/openapi.json`).then(async (r) => {
    if (!r.ok) throw new Error(`GET ${prefix}/openapi.json answered ${r.status}`);
    return (await r.json()) as Doc;
  });
  const inner = nodeTransport();
  let check: OpenApiCheck | undefined;
  return {
    async send(url, req) {
      const answer = await inner.send(url, req);
      check ??= new OpenApiCheck(await served!, prefix);
      let read: Promise<string> | undefined;
      const text = () => (read ??= answer.text());
      const seen = { status: answer.status, contentType: answer.header('content-type'), header: answer.header, text };
      const problems = await check.problems(req.method, url, seen);
      if (problems.length) throw new Error(`the response breaks the OpenAPI document: ${problems.join('; ')}`);
      if (!read) return answer;
      const body = await read;
      return {
        ...answer,
        text: async () => body,
        bytes: async () => new Uint8Array(Buffer.from(body)),
        stream: () => Readable.from([body]),
      };
    },
    close: () => inner.close(),
  };
}

let localDoc: Doc | undefined;
let localAjv: Ajv2020 | undefined;
const localValidators = new Map<Operation, ValidateFunction>();

/** The validator of an operation's JSON answer in the document the server would serve, or undefined for a file. */
function localValidator(op: Operation): ValidateFunction | undefined {
  if (op.responseKind && op.responseKind !== 'json') return undefined;
  let validate = localValidators.get(op);
  if (validate) return validate;
  localDoc ??= buildOpenApi('0.0.0-test') as Doc;
  if (!localAjv) {
    localAjv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(localAjv);
    localAjv.addSchema({ $id: 'doc', components: localDoc.components });
  }
  const responses = (localDoc.paths[op.path]![op.method.toLowerCase()] as { responses: Record<string, Json> })
    .responses;
  const response = responses[String(op.status)] as { content?: Record<string, { schema: Json }> };
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return undefined;
  // references into the document's components resolve against the document registered above
  const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json;
  validate = localAjv.compile(resolved);
  localValidators.set(op, validate);
  return validate;
}

/**
 * The in-process face of the contract suite, held to the same document as the HTTP face: what an operation returns,
 * as the server would send it (JSON), must match the response schema the OpenAPI document states for it. So the
 * response schemas are checked by every contract test on every face, not only by the tests that go through HTTP.
 */
export function checkedLocal<B extends Backend>(backend: B): B {
  const areas = new Map<string, unknown>();
  return new Proxy(backend, {
    get(target, prop, receiver) {
      const contract = (contracts as Record<string | symbol, Contract>)[prop];
      if (!contract) return Reflect.get(target, prop, receiver);
      let area = areas.get(prop as string);
      if (!area) {
        const client = Reflect.get(target, prop, receiver) as Record<string, (raw: unknown) => Promise<unknown>>;
        const wrapped: Record<string, (raw: unknown) => Promise<unknown>> = {};
        for (const [name, op] of Object.entries(contract)) {
          wrapped[name] = async (raw) => {
            const result = await client[name]!(raw);
            const validate = localValidator(op);
            if (validate && !validate(JSON.parse(JSON.stringify(result)))) {
              const problems = (validate.errors ?? []).slice(0, 5);
              const where = `${String(prop)}.${name} (${op.method} ${op.path})`;
              const text = problems.map((e) => `${e.instancePath || '(body)'} ${e.message}`).join('; ');
              throw new Error(`the result of ${where} breaks the OpenAPI document: ${text}`);
            }
            return result;
          };
        }
        areas.set(prop as string, (area = wrapped));
      }
      return area;
    },
  });
}
