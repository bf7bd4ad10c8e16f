import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../src/domain/errors.js';
import { resolveId, shortId, type IdMatch } from '../../src/domain/short-id.js';

const ID = '019a3b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b';

/** The ids a store would find for the start or end of one, and what it was asked. */
function store(ids: string[]) {
  const asked: IdMatch[] = [];
  return {
    asked,
    find: async (m: IdMatch, limit: number) => {
      asked.push(m);
      return ids.filter((id) => ('prefix' in m ? id.startsWith(m.prefix) : id.endsWith(m.suffix))).slice(0, limit);
    },
  };
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('short ids', () => {
  it('are the last 8 hex digits of a UUID; anything else is shown as it is', () => {
    expect(shortId(ID)).toBe('4e5f6a7b');
    expect(shortId('DSGVO-BASIS')).toBe('DSGVO-BASIS');
    expect(shortId('m-1')).toBe('m-1');
  });

  it.each([
    ['a whole id', ID],
    ['a whole id in capitals', ID.toUpperCase()],
    ['7 characters', ID.slice(-7)],
    ['text that is not hex', 'vertrag-2026'],
    ['hex after other text', `x${ID.slice(-12)}`],
    ['more than an id', `${ID}ab`],
  ])('takes %s as it is, without asking the store', async (_what, input) => {
    const s = store([ID]);
    expect(await resolveId(input, 'DSFA', s.find)).toBe(input);
    expect(s.asked).toEqual([]);
  });

  it('resolves the end of an id (8 characters or more, any case) and its start, as before', async () => {
    const other = '019a3b4c-5d6e-7f80-9a1b-000000000001';
    const s = store([ID, other]);
    expect(await resolveId(ID.slice(-8), 'DSFA', s.find)).toBe(ID);
    expect(await resolveId(ID.slice(-8).toUpperCase(), 'DSFA', s.find)).toBe(ID);
    expect(await resolveId(ID.slice(-17), 'DSFA', s.find)).toBe(ID);
    expect(await resolveId(ID.slice(0, 30), 'DSFA', s.find)).toBe(ID);
    expect(s.asked.slice(0, 2)).toEqual([{ prefix: ID.slice(-8) }, { suffix: ID.slice(-8) }]);
    expect(await resolveId('22222222', 'DSFA', s.find)).toBe('22222222');
  });

  it('refuses a part that fits several records, naming every candidate, at most ten', async () => {
    // two records of one transaction share their first 13 characters
    const twins = ['019a3b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b', '019a3b4c-5d6e-7f81-8c0d-11aa22bb33cc'];
    const e = await refusal(resolveId(twins[0]!.slice(0, 13), 'Consent', store(twins).find));
    expect(e).toMatchObject({
      code: 'bad_request',
      message: `Consent id ${twins[0]!.slice(0, 13)} is ambiguous: it fits ${twins.join(', ')}; give more of it`,
      details: twins.map((id) => ({ path: 'id', message: `candidate ${id}` })),
    });
    // a start of one and the end of another
    const mixed = ['4e5f6a7b-0000-7000-8000-000000000000', ID];
    expect((await refusal(resolveId('4e5f6a7b', 'DSFA', store(mixed).find))).details).toHaveLength(2);
    const many = Array.from({ length: 12 }, (_, i) => `${ID.slice(0, 24)}${String(i).padStart(4, '0')}4e5f6a7b`);
    const more = await refusal(resolveId('4e5f6a7b', 'DSFA', store(many).find));
    expect(more.message).toBe(
      `DSFA id 4e5f6a7b is ambiguous: it fits ${many.slice(0, 10).join(', ')}, …; give more of it`,
    );
    expect(more.details).toHaveLength(10);
  });
});
