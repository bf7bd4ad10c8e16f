import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../src/domain/errors.js';
import { resolveIdPrefix } from '../../src/domain/id-prefix.js';

const ID = '019a3b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b';

/** The ids a store would find for a prefix, and the prefixes it was asked for. */
function store(ids: string[]) {
  const asked: string[] = [];
  return {
    asked,
    candidates: async (prefix: string, limit: number) => {
      asked.push(prefix);
      return ids.filter((id) => id.startsWith(prefix)).slice(0, limit);
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

describe('id prefixes', () => {
  it.each([
    ['a whole id', ID],
    ['a whole id in capitals', ID.toUpperCase()],
    ['a prefix of 7 characters', ID.slice(0, 7)],
    ['text that is not hex', 'vertrag-2026'],
    ['hex after other text', `x${ID.slice(0, 12)}`],
    ['hex before other text', `${ID.slice(0, 12)}x`],
  ])('takes %s as it is, without asking the store', async (_what, input) => {
    const s = store([ID, `${ID.slice(0, 12)}-other`]);
    expect(await resolveIdPrefix(input, 'DSFA', s.candidates)).toBe(input);
    expect(s.asked).toEqual([]);
  });

  it.each([
    ['a whole id with more hex before it', `ab${ID}`],
    ['a whole id with more hex after it', `${ID}ab`],
    ['a whole id with a group too short', ID.replace('019a3b4c', '019a3b4')],
  ])('looks up %s as a prefix, since it is not an id', async (_what, input) => {
    const s = store([]);
    expect(await resolveIdPrefix(input, 'DSFA', s.candidates)).toBe(input);
    expect(s.asked).toEqual([input.toLowerCase()]);
  });

  it('resolves a unique prefix of 8 characters or more, in any case, to the whole id', async () => {
    const s = store([ID, '11111111-0000-7000-8000-000000000000']);
    expect(await resolveIdPrefix(ID.slice(0, 8), 'DSFA', s.candidates)).toBe(ID);
    expect(await resolveIdPrefix(ID.slice(0, 13).toUpperCase(), 'DSFA', s.candidates)).toBe(ID);
    expect(s.asked).toEqual([ID.slice(0, 8), ID.slice(0, 13)]);
    expect(await resolveIdPrefix('22222222', 'DSFA', s.candidates)).toBe('22222222');
  });

  it('refuses an ambiguous prefix naming every candidate, at most ten of them', async () => {
    const two = [`${ID.slice(0, 9)}1`, `${ID.slice(0, 9)}2`];
    const e = await refusal(resolveIdPrefix(ID.slice(0, 8), 'Consent', store(two).candidates));
    expect(e).toMatchObject({
      code: 'bad_request',
      message: `Consent id prefix ${ID.slice(0, 8)} is ambiguous: ${two.join(', ')}`,
      details: two.map((id) => ({ path: 'id', message: `candidate ${id}` })),
    });
    const many = Array.from({ length: 12 }, (_, i) => `${ID.slice(0, 8)}-${String(i).padStart(2, '0')}`);
    const more = await refusal(resolveIdPrefix(ID.slice(0, 8), 'DSFA', store(many).candidates));
    expect(more.message).toBe(`DSFA id prefix ${ID.slice(0, 8)} is ambiguous: ${many.slice(0, 10).join(', ')}, …`);
    expect(more.details).toHaveLength(10);
  });
});
