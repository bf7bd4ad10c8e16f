// How a refused input is told: every face (CLI, API error body, import rejects) shows these messages, so each names
// the field, what was sent and what is allowed.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TENANT_PATTERN, TENANT_RULE } from '../../src/domain/tenant.js';
import { detailsFromZod, parseOrThrow, summarize } from '../../src/domain/validation.js';
import { refusal } from '../support/refusal.js';

const details = (schema: z.ZodType, input: unknown, prefix?: string) => {
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) throw new Error('expected a refusal');
  return detailsFromZod(r.error, prefix);
};

describe('the details of a refusal', () => {
  const Body = z.object({
    status: z.enum(['draft', 'approved']),
    count: z.number().int().min(1).max(10),
    share: z.number().gt(0).lt(1),
    name: z.string(),
    tags: z.array(z.string()),
    title: z.string().min(3, 'must be at least 3 characters'),
  });

  it('name the value sent and the allowed values of an enumeration', () => {
    expect(details(Body.shape.status, 'open', 'status')).toEqual([
      { path: 'status', message: '"open" is not allowed; allowed values: draft, approved' },
    ]);
    expect(details(Body.shape.status, 3, 'status')).toEqual([
      { path: 'status', message: '3 is not allowed; allowed values: draft, approved' },
    ]);
  });

  it('list the allowed values of a missing enumeration', () => {
    expect(details(Body.pick({ status: true }), {})).toEqual([
      { path: 'status', message: 'allowed values: draft, approved' },
    ]);
  });

  it('say a missing field is required, naming its type, and a wrong type what came', () => {
    expect(details(Body.pick({ name: true }), {})).toEqual([{ path: 'name', message: 'required (string)' }]);
    expect(details(Body.pick({ name: true }), { name: 42 })).toEqual([
      { path: 'name', message: 'expected string, got 42' },
    ]);
    expect(details(Body.pick({ tags: true }), { tags: 'a, b' })).toEqual([
      { path: 'tags', message: 'expected array, got "a, b"' },
    ]);
    expect(details(Body.pick({ name: true }), { name: undefined })).toEqual([
      { path: 'name', message: 'required (string)' },
    ]);
  });

  it('state the bound a number missed, inclusive or not', () => {
    expect(details(Body.pick({ count: true }), { count: 0 })).toEqual([
      { path: 'count', message: 'must be at least 1, got 0' },
    ]);
    expect(details(Body.pick({ count: true }), { count: 11 })).toEqual([
      { path: 'count', message: 'must be at most 10, got 11' },
    ]);
    expect(details(Body.pick({ share: true }), { share: 0 })).toEqual([
      { path: 'share', message: 'must be greater than 0, got 0' },
    ]);
    expect(details(Body.pick({ share: true }), { share: 1 })).toEqual([
      { path: 'share', message: 'must be less than 1, got 1' },
    ]);
  });

  it('state the bound alone when the error does not carry the value sent', () => {
    const unreported = (schema: z.ZodType, input: unknown) => detailsFromZod(schema.safeParse(input).error!);
    expect(unreported(Body.pick({ count: true }), { count: 0 })).toEqual([
      { path: 'count', message: 'must be at least 1' },
    ]);
    expect(unreported(Body.pick({ share: true }), { share: 1 })).toEqual([
      { path: 'share', message: 'must be less than 1' },
    ]);
  });

  it("keep a schema's own message", () => {
    expect(details(Body.pick({ title: true }), { title: 'ab' })).toEqual([
      { path: 'title', message: 'must be at least 3 characters' },
    ]);
    expect(details(z.number().min(1, 'must be positive'), 0)).toEqual([
      { path: '(body)', message: 'must be positive' },
    ]);
  });

  it('name unknown fields, unless the schema names the accepted ones itself', () => {
    expect(details(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 })).toEqual([
      { path: '(body)', message: 'unknown field(s): b, c' },
    ]);
    const own = z.strictObject({ a: z.string() }, { error: () => 'unknown field b; accepted: a' });
    expect(details(own, { a: 'x', b: 1 })).toEqual([{ path: '(body)', message: 'unknown field b; accepted: a' }]);
  });

  it('put the prefix before the path, and name the body when there is no path', () => {
    expect(details(Body.pick({ name: true }), { name: 1 }, 'modules.0')).toEqual([
      { path: 'modules.0.name', message: 'expected string, got 1' },
    ]);
    expect(details(z.string(), 1)).toEqual([{ path: '(body)', message: 'expected string, got 1' }]);
  });
});

describe('the message of a refusal', () => {
  it('is the one problem, or a count naming the fields', () => {
    expect(summarize([{ path: 'title', message: 'required (string)' }])).toBe('title: required (string)');
    expect(
      summarize([
        { path: 'title', message: 'required (string)' },
        { path: 'status', message: 'x' },
      ]),
    ).toBe('2 problems: title, status');
  });

  it('says what was refused, as a validation error unless another code is asked for', () => {
    const input = refusal(() => parseOrThrow(z.object({ title: z.string() }), {}));
    expect([input.code, input.message]).toEqual(['validation', 'invalid input: title: required (string)']);
    expect(input.details).toEqual([{ path: 'title', message: 'required (string)' }]);
    const query = refusal(() =>
      parseOrThrow(z.object({ limit: z.number() }), { limit: 'x' }, { what: 'query', code: 'bad_request' }),
    );
    expect([query.code, query.message]).toEqual(['bad_request', 'invalid query: limit: expected number, got "x"']);
    expect(parseOrThrow(z.object({ a: z.string() }), { a: 'x' })).toEqual({ a: 'x' });
  });
});

describe('a tenant id', () => {
  it.each(['acme', 'kanzlei-müller', 'a', 'x'.repeat(200), 'with space', 'ümlaut ß'])('may be %j', (tenant) => {
    expect(TENANT_PATTERN.test(tenant)).toBe(true);
  });

  it.each(['', 'x'.repeat(201), '\u0001acme', 'acme\n', 'ac\u0000me', 'acme\u007f', `${'x'.repeat(200)}\u0001`])(
    'may not be %j',
    (tenant) => {
      expect(TENANT_PATTERN.test(tenant)).toBe(false);
    },
  );

  it('has its rule stated for messages and the document', () => {
    expect(TENANT_RULE).toBe('1 to 200 characters without control characters');
  });
});
