import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { dataHash, entryHash } from '../../src/domain/journal/chain.js';
import { ENGINE_NAMES, cli, freshStore } from '../support/helpers.js';

// A change another store sent (a push, a bundle) is journaled with the key (or the operator) as principal and where
// it came from as its origin. An entry with an origin is hashed in format 2; entries without one (every entry written
// before origins existed among them) keep format 1's hash, and an origin added, changed or removed breaks the chain.
describe('the origin of journal entries', () => {
  it('hashes format 1 without an origin, format 2 with one', () => {
    const e = {
      tenant_id: 'acme',
      seq: 1,
      txn: 't',
      time: '2026-01-01T00:00:00.000Z',
      actor: 'sam',
      principal: 'key:abc',
      entity: 'dsfa',
      entity_id: 'd1',
      op: 'insert',
      data_hash: dataHash('{}'),
      prev_hash: '0'.repeat(64),
    };
    const one = entryHash(e);
    expect(entryHash({ ...e, origin: null })).toBe(one);
    expect(entryHash({ ...e, origin: undefined })).toBe(one);
    expect(entryHash({ ...e, origin: 'sync:laptop' })).not.toBe(one);
    expect(entryHash({ ...e, origin: 'sync:laptop' })).not.toBe(entryHash({ ...e, origin: 'sync:other' }));
  });

  it.each(ENGINE_NAMES)(
    'on %s: audit verify holds over both formats and finds an origin removed or forged',
    async (engine) => {
      const target = await freshStore(engine);
      const b = await createLocalBackend(target);
      try {
        const t = { tenant: 'acme', actor: 'sam' };
        await b.dsfa.create({ ...t, body: { title: 'Kamera' } });
        // a pushed record, as the sync door journals it
        const pushed = await b.sync.push({
          tenant: 'acme',
          actor: 'lea',
          principal: 'key:abc123',
          body: {
            replica: 'laptop-1',
            dry_run: false,
            items: [
              {
                entity: 'dsfa_setting',
                entity_id: 'acme',
                base: null,
                data: {
                  tenant_id: 'acme',
                  workflow: 'strict',
                  updated_by: 'lea',
                  updated_at: '2026-01-01T00:00:00.000',
                },
              },
            ],
          },
        } as never);
        expect(pushed.applied).toBe(1);
        const verify = async () => {
          const r = await cli(['--db', target, '--json', 'audit', 'verify', '--tenant', 'acme']);
          return { code: r.code, report: r.stdout ? JSON.parse(r.stdout)[0] : undefined };
        };
        expect((await verify()).code).toBe(0);
        const entries = await b.store.admin
          .selectFrom('journal')
          .selectAll()
          .where('tenant_id', '=', 'acme')
          .orderBy('seq')
          .execute();
        const last = entries.at(-1)!;
        expect(last).toMatchObject({ entity: 'dsfa_setting', principal: 'key:abc123', origin: 'sync:laptop-1' });
        expect(entries[0]!.origin).toBeNull();
        const set = (seq: unknown, origin: string | null) =>
          b.store.admin
            .updateTable('journal')
            .set({ origin })
            .where('tenant_id', '=', 'acme')
            .where('seq', '=', seq as number)
            .execute();
        await set(last.seq, null);
        expect((await verify()).report).toMatchObject({
          ok: false,
          problem: { kind: 'edited', seq: Number(last.seq) },
        });
        await set(last.seq, 'sync:laptop-1');
        expect((await verify()).code).toBe(0);
        await set(entries[0]!.seq, 'sync:forged');
        expect((await verify()).report).toMatchObject({ ok: false, problem: { kind: 'edited', seq: 1 } });
      } finally {
        await b.close();
      }
    },
  );
});
