import { describe, expect, it } from 'vitest';
import { editDistance, nearestTenants } from '../../src/domain/tenants/tenant.rules.js';

// What a command says when a tenant name is not known (`--tenant acmee`): the names it was probably meant to be.
describe('the distance between two names', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours, one edit each', () => {
    expect(editDistance('acme', 'acme')).toBe(0);
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('acmee', 'acme')).toBe(1);
    expect(editDistance('acm', 'acme')).toBe(1);
    expect(editDistance('acne', 'acme')).toBe(1);
    expect(editDistance('amce', 'acme')).toBe(1);
    expect(editDistance('caem', 'acme')).toBe(2);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('globex', 'acme')).toBe(5);
    // a swap counts once only for neighbours; three letters moved are more
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('abc', 'cab')).toBe(2);
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('is the same both ways', () => {
    for (const [a, b] of [
      ['acme', 'acme-gmbh'],
      ['tenant-1', 'tenant-2'],
      ['xy', 'yxz'],
    ])
      expect(editDistance(a!, b!)).toBe(editDistance(b!, a!));
  });
});

describe('the tenants a mistyped name was meant to be', () => {
  const known = ['acme', 'acme-gmbh', 'globex', 'initech', 'umbrella'];

  it('names those a few edits away and those it begins or that begin with it, nearest first', () => {
    expect(nearestTenants('acmee', known)).toEqual(['acme']);
    expect(nearestTenants('acme-', known)).toEqual(['acme', 'acme-gmbh']);
    expect(nearestTenants('ACME', ['globex', 'acme'])).toEqual(['acme']);
    expect(nearestTenants('glbex', known)).toEqual(['globex']);
    expect(nearestTenants('acme-gmb', known)).toEqual(['acme-gmbh', 'acme']);
    expect(nearestTenants('initech-ag', known)).toEqual(['initech']);
  });

  it('names nothing far away, and never the name itself', () => {
    expect(nearestTenants('zzzzzz', known)).toEqual([]);
    expect(nearestTenants('acme', ['acme'])).toEqual([]);
    // two letters are too few to say a name begins with them, and a third of a short name is still two edits
    expect(nearestTenants('ac', ['acme-gmbh'])).toEqual([]);
    expect(nearestTenants('ab', ['xy', 'abcd'])).toEqual(['abcd', 'xy']);
    expect(nearestTenants('abc', ['abcdefgh'])).toEqual(['abcdefgh']);
  });

  it('reaches a third of the name, at least two edits', () => {
    // 9 letters: three edits reach, four do not
    expect(nearestTenants('abcdefghi', ['abcdefxyz', 'abcdewxyz'])).toEqual(['abcdefxyz']);
    // 6 letters: two edits reach, three do not
    expect(nearestTenants('abcdef', ['abcdxy', 'abcxyz'])).toEqual(['abcdxy']);
    expect(nearestTenants('abcde', ['abcxy', 'abxyz'])).toEqual(['abcxy']);
  });

  it('orders equal distances by name and keeps at most three, or as many as asked', () => {
    const near = ['tenant-4', 'tenant-2', 'tenant-3', 'tenant-1', 'tenant-10'];
    // tenant-10 is one edit away too
    expect(nearestTenants('tenant-0', near)).toEqual(['tenant-1', 'tenant-10', 'tenant-2']);
    expect(nearestTenants('tenant-0', near, 5)).toEqual(['tenant-1', 'tenant-10', 'tenant-2', 'tenant-3', 'tenant-4']);
    expect(nearestTenants('tenant-0', near, 1)).toEqual(['tenant-1']);
    expect(nearestTenants('b', ['b', 'a', 'c'])).toEqual(['a', 'c']);
  });
});
