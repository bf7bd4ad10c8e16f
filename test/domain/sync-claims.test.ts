import { describe, expect, it } from 'vitest';
import { ClaimIndex } from '../../src/domain/sync/claims.js';

// What a pull checks each record of a page against: the records that hold what it claims, as the page is written.
const open = (id: string, user = 'u-1') => ({ id, user_id: user, module_id: 'm-1', status: 'pending' });
const done = (id: string, user = 'u-1') => ({ id, user_id: user, module_id: 'm-1', status: 'completed' });

describe('the claims of a page', () => {
  it('refuses a second open assignment of a user and module, naming the one that holds it', () => {
    const claims = new ClaimIndex('training_assignment', [{ id: 'a', row: open('a') }]);
    expect(claims.broken('b', open('b'))).toBe('user u-1 already has an open assignment a of this module');
    // the holder itself, another user, or a closed assignment: nothing claimed twice
    expect(claims.broken('a', open('a'))).toBeNull();
    expect(claims.broken('c', open('c', 'u-2'))).toBeNull();
    expect(claims.broken('d', done('d'))).toBeNull();
  });

  it('counts a record written earlier in the page as it now is', () => {
    const claims = new ClaimIndex('training_assignment', [{ id: 'a', row: open('a') }]);
    // the old assignment is closed first: the new one may open
    claims.moved('a', open('a'), done('a'));
    expect(claims.broken('b', open('b'))).toBeNull();
    claims.moved('b', null, open('b'));
    // and a record inserted earlier in the page holds its claim against the next
    expect(claims.broken('c', open('c'))).toBe('user u-1 already has an open assignment b of this module');
  });

  it('allows one published version per document', () => {
    const v = (id: string, status: string) => ({ id, document_id: 'doc', status });
    const claims = new ClaimIndex('legal_document_version', [{ id: 'v1', row: v('v1', 'published') }]);
    expect(claims.broken('v2', v('v2', 'published'))).toBe('document doc already has a published version v1');
    expect(claims.broken('v2', v('v2', 'draft'))).toBeNull();
    claims.moved('v1', v('v1', 'published'), v('v1', 'archived'));
    expect(claims.broken('v2', v('v2', 'published'))).toBeNull();
  });
});
