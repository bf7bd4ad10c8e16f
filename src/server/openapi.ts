import * as z from 'zod';
import { ID_KINDS, MIN_ID_PART, SHORT_ID_LENGTH } from '../domain/short-id.js';
import { errorStatusesOf } from '../contract/errors.js';
import { contracts } from '../contract/index.js';
import { SDK_PREFIX, type Operation } from '../contract/operation.js';
import { commaListItems, LOOSE_BOOLEAN_JSON_SCHEMA, looseBooleans } from '../domain/schema-helpers.js';
import { TENANT_PATTERN, TENANT_RULE } from '../domain/tenant.js';

type Json = Record<string, unknown>;

const schemaOf = (s: z.ZodType, io: 'input' | 'output') => {
  const js = z.toJSONSchema(s, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // a loose boolean also takes its spellings as text ("yes", "0"): state them, so the document refuses no value
    // that the server takes
    override: (ctx) => {
      if (io !== 'input' || !looseBooleans.has(ctx.zodSchema as unknown as z.ZodType)) return;
      const target = ctx.jsonSchema as Json;
      for (const k of Object.keys(target)) if (k !== 'default') delete target[k];
      Object.assign(target, structuredClone(LOOSE_BOOLEAN_JSON_SCHEMA));
    },
  }) as Json;
  delete js.$schema;
  return js;
};

const ErrorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })),
});

const TENANT_SCHEMA = { type: 'string', minLength: 1, maxLength: 200, pattern: TENANT_PATTERN.source };

/** What each error status means on /sdk/v1 (decisions.md); every one carries the error body. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'malformed JSON, a missing or invalid tenant header or parameter, an unparseable query or path parameter',
  401: 'missing or wrong API key',
  403: 'an API key used beyond its scope, for a tenant it does not open, or from an origin it does not list (a secret key from any browser); a signed URL with a wrong signature, or past its expiry',
  404: 'an id (in the path or the body) that does not exist, or belongs to another tenant',
  405: 'the path exists, but not with this method (the Allow header lists those it has)',
  409: 'a state conflict or a refused transition',
  413: 'the JSON body is larger than the limit of the server (10 MiB by default)',
  416: 'the Range header asks for bytes past the end of the file (Content-Range says its size: bytes */SIZE)',
  422: 'the body or a query parameter fails validation (details name every field)',
  429: 'too many requests from this key or address: wait the seconds of Retry-After',
  503: 'the store, or a service the operation calls (Ollama, espeak-ng, ffmpeg), is unavailable',
};

const errorRef = (status: number) => ({ $ref: `#/components/responses/Error${status}` });

/** Every answer carries the request's id: the client's X-Request-ID when it is a valid one, else a new UUID. */
const REQUEST_ID = {
  'X-Request-ID': { $ref: '#/components/headers/RequestId' },
};
const REQUEST_ID_RULE = '1 to 128 characters of A-Z a-z 0-9 . _ : @ / + = -';

/** The quota fields of draft-ietf-httpapi-ratelimit-headers, on every answer of a rate-limited route. */
const RATE_LIMIT = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

/** The headers of an operation's answers: its request id, and the quota fields where it is rate-limited. */
const answerHeaders = (op: Operation) =>
  errorStatusesOf(op).includes(429) ? { ...REQUEST_ID, ...RATE_LIMIT } : REQUEST_ID;

/** Unwraps `.optional()` and `.default()` to reach the schema registered as a comma-separated list. */
function commaItems(s: z.ZodType): z.ZodType | undefined {
  let cur: z.ZodType = s;
  for (let i = 0; i < 4; i++) {
    const found = commaListItems.get(cur);
    if (found) return found;
    const inner = (cur as unknown as { unwrap?: () => z.ZodType }).unwrap?.();
    if (!inner) return undefined;
    cur = inner;
  }
  return undefined;
}

/** How a parameter that holds an id reads it (domain/short-id.ts). */
const SHORT_ID_NOTE = (what: string) =>
  `the ${what} id, or its last ${SHORT_ID_LENGTH} (or more) characters, or its first ${MIN_ID_PART} or more, when one record of the tenant has them (several: 400 listing them)`;

function parameters(op: Operation) {
  const out: Json[] = [];
  const props = (s?: z.ZodType) => {
    if (!s) return [] as Array<[string, Json, boolean, z.ZodType | undefined]>;
    const js = schemaOf(s, 'input') as { properties?: Record<string, Json>; required?: string[] };
    const shape = (s as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
    return Object.entries(js.properties ?? {}).map(
      ([k, v]) => [k, v, (js.required ?? []).includes(k), shape[k]] as [string, Json, boolean, z.ZodType | undefined],
    );
  };
  const idNote = (part: 'params' | 'query', name: string) =>
    op.ids?.[part]?.[name] ? { description: SHORT_ID_NOTE(ID_KINDS[op.ids[part][name]]) } : {};
  for (const [name, schema] of props(op.params))
    out.push({ name, in: 'path', required: true, ...idNote('params', name), schema });
  for (const [name, schema, , zod] of props(op.query)) {
    const items = zod && commaItems(zod);
    if (items)
      out.push({
        name,
        in: 'query',
        required: false,
        description: 'one value or a comma-separated list',
        style: 'form',
        explode: false,
        schema: { type: 'array', minItems: 1, items: schemaOf(items, 'input') },
      });
    else out.push({ name, in: 'query', required: false, ...idNote('query', name), schema });
  }
  if (op.tenant === 'query') {
    out.push({
      name: 'tenant_id',
      in: 'query',
      required: false,
      description: TENANT_RULE,
      schema: { ...TENANT_SCHEMA, default: 'default' },
    });
    out.push({
      name: 'X-Tenant-ID',
      in: 'header',
      required: false,
      description: `used when tenant_id is absent; ${TENANT_RULE}`,
      schema: TENANT_SCHEMA,
    });
  } else if (op.tenant === 'signed') {
    out.push({ name: 'tenant', in: 'query', required: true, description: TENANT_RULE, schema: TENANT_SCHEMA });
  } else if (op.tenant === 'header') {
    out.push({ name: 'X-Tenant-ID', in: 'header', required: true, description: TENANT_RULE, schema: TENANT_SCHEMA });
  }
  if (op.responseKind === 'file')
    out.push(
      {
        name: 'Range',
        in: 'header',
        required: false,
        description:
          'one byte range (bytes=FIRST-LAST, bytes=FIRST- or bytes=-COUNT): answered 206; several ranges, or a header that is not one of these, are answered whole',
        schema: { type: 'string' },
      },
      {
        name: 'If-Range',
        in: 'header',
        required: false,
        description: "the ETag of the file the range is of: another file's answers whole",
        schema: { type: 'string' },
      },
    );
  out.push({
    name: 'X-User-ID',
    in: 'header',
    required: false,
    description: 'actor recorded in audit entries; one line (two are a 400)',
    schema: { type: 'string' },
  });
  out.push({
    name: 'X-Request-ID',
    in: 'header',
    required: false,
    description: `the request's id in the server's log and the answer's X-Request-ID: kept when it is ${REQUEST_ID_RULE}, else replaced by a new UUID`,
    schema: { type: 'string' },
  });
  return out;
}

const fileContent = (types: readonly string[]) =>
  Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]));

function success(op: Operation): Record<string, unknown> {
  switch (op.responseKind) {
    case 'redirect':
      return {
        '307': {
          description: 'redirect to a time-limited signed URL',
          headers: {
            Location: { required: true, schema: { type: 'string', format: 'uri-reference' } },
            ...answerHeaders(op),
          },
        },
      };
    case 'binary':
      return {
        [String(op.status)]: {
          description: 'the file',
          headers: answerHeaders(op),
          content: fileContent(op.responseTypes ?? []),
        },
      };
    case 'file': {
      const headers = {
        ...answerHeaders(op),
        'Accept-Ranges': { schema: { const: 'bytes' } },
        ETag: { description: "names the file's bytes, for If-Range", schema: { type: 'string' } },
      };
      return {
        [String(op.status)]: { description: 'the file', headers, content: fileContent(op.responseTypes ?? []) },
        '206': {
          description: 'the byte range the Range header asked for',
          headers: {
            ...headers,
            'Content-Range': { required: true, description: 'bytes FIRST-LAST/SIZE', schema: { type: 'string' } },
          },
          content: fileContent(op.responseTypes ?? []),
        },
      };
    }
    case 'stream':
      return {
        [String(op.status)]: {
          description: 'streamed as it is produced',
          headers: answerHeaders(op),
          content: fileContent(op.responseTypes ?? []),
        },
      };
    default: {
      const answer = {
        description: 'success',
        headers: answerHeaders(op),
        content: { 'application/json': { schema: schemaOf(op.output, 'output') } },
      };
      // an operation whose status depends on what it did (statusOf) answers 200 when it created nothing
      return op.statusOf
        ? { '200': { ...answer, description: 'nothing created' }, [String(op.status)]: answer }
        : { [String(op.status)]: answer };
    }
  }
}

function requestBody(op: Operation): Json | undefined {
  if (op.requestKind === 'stream') return { required: true, content: fileContent(op.requestTypes ?? []) };
  if (!op.body) return undefined;
  const schema = schemaOf(op.body, 'input');
  // the server reads an absent body as {}: only a body with required fields is itself required
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  return { required, content: { 'application/json': { schema } } };
}

/** The OpenAPI 3.1 document of /sdk/v1, generated from the same contract table the server and client run on. */
export function buildOpenApi(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [area, contract] of Object.entries(contracts)) {
    for (const [name, op] of Object.entries(contract as Record<string, Operation>)) {
      const entry: Json = {
        operationId: `${area}.${name}`,
        summary: op.summary,
        tags: [area],
        parameters: parameters(op),
        responses: {
          ...success(op),
          ...Object.fromEntries(errorStatusesOf(op).map((s) => [String(s), errorRef(s)])),
        },
      };
      if (op.public) entry.security = [];
      const body = requestBody(op);
      if (body) entry.requestBody = body;
      (paths[op.path] ??= {})[op.method.toLowerCase()] = entry;
    }
  }
  paths['/health'] = {
    get: {
      operationId: 'health',
      summary: 'Whether this server and its store answer (for load balancers); needs no API key and shows no data',
      tags: ['health'],
      security: [],
      responses: {
        '200': {
          description: 'the server and its store answer',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  status: { const: 'ok' },
                  store: { enum: ['sqlite', 'postgres'] },
                  version: { type: 'string' },
                  media: {
                    enum: ['ok', 'unavailable'],
                    description: 'whether the media store answers (one that does not fails only the media routes)',
                  },
                },
                required: ['status', 'store', 'version'],
              },
            },
          },
        },
        '503': errorRef(503),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'compliance /sdk/v1',
      version,
      description:
        'Every error answer carries the Error body. Tenants: ' +
        TENANT_RULE +
        '. Texts marked with the pattern \\S are trimmed by the server and must not be blank.',
      license: { name: 'UNLICENSED (proprietary)' },
    },
    servers: [{ url: SDK_PREFIX }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'created with `compliance keys create`' },
      },
      schemas: { Error: schemaOf(ErrorBody, 'output') },
      headers: {
        RequestId: {
          required: true,
          description: `the request's id, as the server logged it (the client's X-Request-ID when it is ${REQUEST_ID_RULE})`,
          schema: { type: 'string' },
        },
        RateLimitPolicy: {
          description:
            'the quotas that counted this request (draft-ietf-httpapi-ratelimit-headers): "per-address" and "per-key", each with q (requests) and w (seconds), e.g. "per-address";q=300;w=60, "per-key";q=3000;w=60; only on a server with keys',
          schema: { type: 'string' },
        },
        RateLimit: {
          description:
            'what is left of each quota: r (whole requests) and t (seconds until one more, absent while full), e.g. "per-address";r=299;t=1, "per-key";r=2999;t=1',
          schema: { type: 'string' },
        },
        RetryAfter: {
          required: true,
          description: 'whole seconds until the quota takes a request again',
          schema: { type: 'integer', minimum: 1 },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
          `Error${status}`,
          {
            description,
            headers:
              status === '429'
                ? { ...REQUEST_ID, 'Retry-After': { $ref: '#/components/headers/RetryAfter' }, ...RATE_LIMIT }
                : REQUEST_ID,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
    paths,
  };
}
