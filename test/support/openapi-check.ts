import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
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

  /** Problems of one response, empty when the document allows it. */
  async problems(method: string, url: URL, res: Response): Promise<string[]> {
    const rel = url.pathname.slice(this.prefix.length);
    const where = `${method} ${url.pathname} answered ${res.status}`;
    if (rel === '/openapi.json') return [];
    const route = this.routes.find((r) => r.re.test(rel) && this.doc.paths[r.path]![method.toLowerCase()]);
    if (!route) return [`${where}: no operation in the document`];
    const op = this.doc.paths[route.path]![method.toLowerCase()] as { responses: Record<string, Json> };
    const response = this.deref(op.responses[String(res.status)]) as
      { content?: Record<string, { schema?: Json }>; headers?: Record<string, Json> } | undefined;
    if (!response) return [`${where}, a status the document does not list for ${route.path}`];
    if (!response.content) return [];
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
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
    const text = await res.clone().text();
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
 * A fetch for the HTTP client of the contract suite: every response is checked against the document the server
 * serves (fetched once per test file); a response the document does not allow fails the call that received it.
 */
export function checkedFetch(base: string, prefix = '/sdk/v1'): typeof fetch {
  served ??= fetch(`${base}${prefix}/openapi.json`).then(async (r) => {
    if (!r.ok) throw new Error(`GET ${prefix}/openapi.json answered ${r.status}`);
    return (await r.json()) as Doc;
  });
  let check: OpenApiCheck | undefined;
  return async (input, init) => {
    const res = await fetch(input, init);
    check ??= new OpenApiCheck(await served!, prefix);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const problems = await check.problems((init?.method ?? 'GET').toUpperCase(), url, res);
    if (problems.length) throw new Error(`the response breaks the OpenAPI document: ${problems.join('; ')}`);
    return res;
  };
}
