import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contracts } from '../../src/contract/index.js';
import { parseQuery } from '../../src/contract/bind.js';
import { NoBody, type Operation } from '../../src/contract/operation.js';
import { DeliveryQuery } from '../../src/domain/events/event.schema.js';
import { OutboxQuery } from '../../src/domain/notifications/notification.schema.js';
import { looseBooleans } from '../../src/domain/schema-helpers.js';

const operations = Object.entries(contracts).flatMap(([area, contract]) =>
  Object.entries(contract as Record<string, Operation>).map(([name, o]) => ({ id: `${area}.${name}`, o })),
);

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  entries?: object;
  values?: unknown[];
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The texts a query parameter of two values would be written with (an enum of them is a boolean by another name). */
const BOOLEAN_WORDS = new Set(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']);

/**
 * How a query parameter reads a boolean: `helper` (looseBoolean), `other` (z.boolean, z.coerce.boolean, an enum or
 * literal of true/false, ...) or `none` (not a boolean). Wrappers (optional, default, a pipe's ends) are looked into.
 */
function booleanStyle(s: z.ZodType): 'helper' | 'other' | 'none' {
  if (looseBooleans.has(s)) return 'helper';
  const def = defOf(s);
  switch (def.type) {
    case 'boolean':
      return 'other';
    case 'enum': {
      const values = Object.values(def.entries ?? {}).map(String);
      return values.length > 0 && values.every((v) => BOOLEAN_WORDS.has(v.toLowerCase())) ? 'other' : 'none';
    }
    case 'literal':
      return (def.values ?? []).every((v) => typeof v === 'boolean' || BOOLEAN_WORDS.has(String(v).toLowerCase()))
        ? 'other'
        : 'none';
    case 'pipe': {
      const ends = [booleanStyle(def.in!), booleanStyle(def.out!)];
      return ends.includes('helper') ? 'helper' : ends.includes('other') ? 'other' : 'none';
    }
    default:
      return def.innerType ? booleanStyle(def.innerType) : 'none';
  }
}

const queryFields = (o: Operation): Array<[string, z.ZodType]> => {
  const shape = (o.query as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  return Object.entries(shape ?? {});
};

// One helper per convention (docs/decisions.md, "Boolean query parameters" and "POSTs without a body"): a new
// operation that writes either by hand fails here, so clients see one behaviour on every route.
describe('the conventions of the contract table', () => {
  it('reads every boolean query parameter with looseBoolean', () => {
    const found = operations.flatMap(({ id, o }) =>
      queryFields(o).map(([field, s]) => ({ at: `${id} ?${field}`, style: booleanStyle(s) })),
    );
    // the walker sees the parameters it is about (so this test can fail)
    expect(found.filter((f) => f.style === 'helper').map((f) => f.at)).toEqual(
      expect.arrayContaining(['consents.list ?granted', 'webhooks.deliveries ?failed', 'notifications.outbox ?failed']),
    );
    expect(found.filter((f) => f.style === 'other').map((f) => f.at)).toEqual([]);
  });

  it.each([
    ['webhooks.deliveries', DeliveryQuery],
    ['notifications.outbox', OutboxQuery],
  ])('%s reads ?failed as every boolean query parameter: spellings, absent is false, no boolean is a 400', (_, q) => {
    for (const yes of ['true', 'YES', '1']) expect(parseQuery(q, { failed: yes }).failed).toBe(true);
    for (const no of ['false', 'no', '0']) expect(parseQuery(q, { failed: no }).failed).toBe(false);
    expect(parseQuery(q, {}).failed).toBe(false);
    expect(() => parseQuery(q, { failed: 'maybe' })).toThrow(
      expect.objectContaining({ code: 'bad_request', message: expect.stringContaining('true/false, 1/0, yes/no') }),
    );
  });

  it('declares the one empty body, NoBody, on every POST that takes none', () => {
    const bodiless = operations.filter(
      ({ o }) =>
        o.method === 'POST' &&
        o.requestKind !== 'stream' &&
        (!o.body || Object.keys((o.body as unknown as { shape?: object }).shape ?? { any: 1 }).length === 0),
    );
    expect(bodiless.length).toBeGreaterThan(5);
    expect(bodiless.filter(({ o }) => o.body !== NoBody).map(({ id }) => id)).toEqual([]);
  });

  it('tells a hand-written boolean or bodiless POST from the helpers', async () => {
    const { z } = await import('zod');
    expect(
      booleanStyle(
        z
          .enum(['true', 'false'])
          .optional()
          .transform((v) => v === 'true'),
      ),
    ).toBe('other');
    expect(booleanStyle(z.coerce.boolean().default(false))).toBe('other');
    expect(booleanStyle(z.enum(['open', 'closed']).optional())).toBe('none');
    expect(z.object({}) === NoBody).toBe(false);
  });
});
