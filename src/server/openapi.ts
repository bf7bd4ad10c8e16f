import { z } from 'zod';
import { contracts } from '../contract/index.js';
import { SDK_PREFIX, type Operation } from '../contract/operation.js';

const schemaOf = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

const ErrorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })),
});

function parameters(op: Operation) {
  const out: Array<Record<string, unknown>> = [];
  const props = (s?: z.ZodType) => {
    if (!s) return [] as Array<[string, unknown, boolean]>;
    const js = schemaOf(s, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    return Object.entries(js.properties ?? {}).map(
      ([k, v]) => [k, v, (js.required ?? []).includes(k)] as [string, unknown, boolean],
    );
  };
  for (const [name, schema] of props(op.params)) out.push({ name, in: 'path', required: true, schema });
  for (const [name, schema] of props(op.query)) out.push({ name, in: 'query', required: false, schema });
  if (op.tenant === 'query') {
    out.push({ name: 'tenant_id', in: 'query', required: false, schema: { type: 'string', default: 'default' } });
    out.push({
      name: 'X-Tenant-ID',
      in: 'header',
      required: false,
      description: 'used when tenant_id is absent',
      schema: { type: 'string' },
    });
  } else if (op.tenant === 'signed') {
    out.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } });
  } else {
    out.push({ name: 'X-Tenant-ID', in: 'header', required: true, schema: { type: 'string' } });
  }
  out.push({
    name: 'X-User-ID',
    in: 'header',
    required: false,
    description: 'actor recorded in audit entries',
    schema: { type: 'string' },
  });
  return out;
}

/** The OpenAPI 3.1 document of /sdk/v1, generated from the same contract table the server and client run on. */
export function buildOpenApi(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  for (const [area, contract] of Object.entries(contracts)) {
    for (const [name, op] of Object.entries(contract as Record<string, Operation>)) {
      const entry: Record<string, unknown> = {
        operationId: `${area}.${name}`,
        summary: op.summary,
        tags: [area],
        parameters: parameters(op),
        responses: {
          [String(op.status)]: {
            description: 'success',
            content: { 'application/json': { schema: schemaOf(op.output, 'output') } },
          },
          '400': errorResponse('malformed JSON, missing header or unparseable query parameter'),
          '401': errorResponse('missing or wrong API key'),
          ...(op.params ? { '404': errorResponse('unknown id, or an id of another tenant') } : {}),
          '422': errorResponse('validation failed'),
        },
      };
      if (op.responseKind === 'binary')
        (entry.responses as Record<string, unknown>)[String(op.status)] = {
          description: 'a file',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        };
      if (op.responseKind === 'redirect')
        entry.responses = {
          ...(entry.responses as object),
          '307': {
            description: 'redirect to a time-limited signed URL',
            headers: { Location: { schema: { type: 'string' } } },
          },
        };
      if (op.requestKind === 'stream')
        entry.requestBody = {
          required: true,
          content: {
            'text/csv': { schema: { type: 'string' } },
            'application/x-ndjson': { schema: { type: 'string' } },
          },
        };
      else if (op.body)
        entry.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(op.body, 'input') } } };
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
                },
                required: ['status', 'store', 'version'],
              },
            },
          },
        },
        '503': errorResponse('the store does not answer (within 2 seconds)'),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'compliance /sdk/v1', version },
    servers: [{ url: SDK_PREFIX }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'created with `compliance keys create`' },
      },
      schemas: { Error: schemaOf(ErrorBody, 'output') },
    },
    paths,
  };
}
