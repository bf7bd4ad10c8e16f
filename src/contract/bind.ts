import type * as z from 'zod';
import { DomainError } from '../domain/errors.js';
import { detailsFromZod, nulDetails, parseOrThrow, summarize } from '../domain/validation.js';
import type { Client, Contract, Handlers, IdResolver, Operation, RawRequest, Req } from './operation.js';

/**
 * Query strings and flags arrive as text: a value that is not even of the right type is a bad request (400),
 * a well-formed value outside its range or list fails validation (422).
 */
export function parseQuery<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw, { reportInput: true });
  if (r.success) return r.data;
  const details = detailsFromZod(r.error);
  const typeError = r.error.issues.some(
    (i) => i.code === 'invalid_type' && (i as { input?: unknown }).input !== undefined,
  );
  throw new DomainError(
    typeError ? 'bad_request' : 'validation',
    `invalid query parameter ${summarize(details)}`,
    details,
  );
}

/** Replaces the short ids a request holds where the operation declares ids (`ids`) by the whole ids. */
async function resolveIds(o: Operation, req: Record<string, unknown>, tenant: string, resolve: IdResolver) {
  for (const [part, fields] of Object.entries(o.ids ?? {})) {
    const values = req[part] as Record<string, unknown> | undefined;
    if (!values) continue;
    for (const [field, kind] of Object.entries(fields))
      if (typeof values[field] === 'string') values[field] = await resolve(kind, tenant, values[field]);
  }
}

/**
 * Wraps handlers so every call is validated against the contract first, and the short ids it holds are resolved
 * with `resolveId`. The local backend is this wrapper; the server calls the local backend, so a request is validated
 * in exactly one place whichever face it came through.
 */
export function bindHandlers<C extends Contract>(
  contract: C,
  handlers: Handlers<C>,
  resolveId?: IdResolver,
): Client<C> {
  const client = {} as Record<string, (raw: RawRequest) => Promise<unknown>>;
  for (const [name, o] of Object.entries(contract)) {
    const handler = (handlers as Record<string, (req: Req<typeof o>) => Promise<unknown>>)[name];
    client[name] = async (raw: RawRequest) => {
      const req = {
        tenant: raw.tenant,
        actor: raw.actor,
        principal: raw.principal,
        origin: raw.origin,
        keyTenants: raw.keyTenants,
        params: o.params
          ? parseOrThrow(o.params, raw.params ?? {}, { what: 'path parameter', code: 'bad_request' })
          : undefined,
        query: o.query ? parseQuery(o.query, raw.query ?? {}) : undefined,
        body:
          o.body && o.requestKind !== 'stream'
            ? parseOrThrow(o.body, raw.body === undefined ? {} : raw.body, { what: 'body' })
            : undefined,
        stream: raw.stream,
      } as Req<typeof o>;
      // after the schema, so only what is used counts and its errors come first; before any store sees the text
      for (const [part, code, what] of [
        ['params', 'bad_request', 'path parameter:'],
        ['query', 'bad_request', 'query parameter'],
        ['body', 'validation', 'body:'],
      ] as const) {
        const details = nulDetails(req[part]);
        if (details.length) throw new DomainError(code, `invalid ${what} ${summarize(details)}`, details);
      }
      if (o.requestKind === 'stream' && !raw.stream)
        throw new DomainError('bad_request', 'this operation needs a request body');
      const mediaType = raw.stream?.content_type.split(';')[0]!.trim().toLowerCase();
      if (mediaType !== undefined && o.requestTypes && !o.requestTypes.includes(mediaType))
        throw new DomainError(
          'bad_request',
          `unsupported content type ${mediaType}: send ${o.requestTypes.join(' or ')}`,
          [{ path: 'Content-Type', message: `one of ${o.requestTypes.join(', ')}` }],
        );
      if (o.ids && resolveId) await resolveIds(o, req as unknown as Record<string, unknown>, raw.tenant, resolveId);
      return handler(req);
    };
  }
  return client as Client<C>;
}
