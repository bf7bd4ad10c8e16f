import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import { versionOf } from '../../src/domain/sync/version.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { compositeId } from '../../src/store/journal/journal-writer.js';
import { openStore } from '../../src/store/open-store.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

// A record a sync wrote carries no stored agreed version: when it is changed here, its agreed version is its state
// in the journal before that change. The journal is read backwards: single entries, and batch entries (an import, a
// pull) whose data is read only where it may hold a record looked for, on both engines.
const T = 'looking-back';
const as = { tenant: T, actor: 'sam' };
const key = (entity: string, id: string) => `${entity}\u0000${id}`;

describe.each(ENGINE_NAMES)('statesBefore on %s', (engine) => {
  let target: string;
  const onBackend = async <R>(fn: (b: LocalBackend) => Promise<R>) => {
    const b = await createLocalBackend(target);
    return fn(b).finally(() => b.close());
  };
  /** The store's sync reads, in the tenant's scope as a sync runs (PostgreSQL's row security). */
  const onStore = async <R>(fn: (read: ReturnType<typeof createUnitOfWork>['read']) => Promise<R>) => {
    const store = await openStore(target);
    return forTenant(T, () => fn(createUnitOfWork(store, systemClock, uuidv7Source()).read)).finally(() =>
      store.close(),
    );
  };

  it('finds each record as the last entry before its bound left it, in single and batch entries', async () => {
    target = await freshStore(engine);
    const lines = ['user_id,data_point_id,granted,granted_at,consent_version,source'];
    for (let i = 0; i < 40; i++) lines.push(`u${i}@example.com,news,true,2026-03-01T10:00:00Z,1.0,web_banner`);
    // the same consent again in the batch: its last state there counts
    lines.push('u0@example.com,news,false,2026-03-02T10:00:00Z,1.1,web_banner');
    async function* csv() {
      yield lines.join('\n') + '\n';
    }
    const { ids, granted, moduleId, before } = await onBackend(async (b) => {
      await b.consents.import({
        ...as,
        query: { file_name: 'c.csv' },
        stream: { body: csv(), content_type: 'text/csv' },
      });
      const m = await b.training.createModule({
        ...as,
        body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
      });
      await b.training.setMatrix({ ...as, body: { role_code: 'R2', module_id: m.id } });
      const consents = (await b.consents.list({ ...as, query: { limit: 100 } })).consents;
      const head = (await b.journal.anchor({ tenant: T })).seq;
      const granted = consents.filter((c) => c.granted).map((c) => c.id);
      return { ids: consents.map((c) => c.id), granted, moduleId: m.id, before: head + 1 };
    });
    const matrixId = compositeId('R2', moduleId);
    const wanted = [
      ...ids.map((id) => ({ entity: 'consent', id })),
      { entity: 'training_module', id: moduleId },
      { entity: 'training_matrix', id: matrixId },
    ];
    const versions = () =>
      onStore(async (read) => {
        const out = new Map<string, string | null>();
        for (const w of wanted) out.set(key(w.entity, w.id), versionOf(await read.replica.read(T, w.entity, w.id)));
        return out;
      });
    const atBound = await versions();
    expect(new Set(atBound.values()).size).toBe(wanted.length);
    // later changes, which the bound leaves out
    await onBackend(async (b) => {
      for (const id of granted.slice(0, 5)) await b.consents.revoke({ ...as, params: { id } });
      await b.training.updateModule({ ...as, params: { id: moduleId }, body: { title: 'Sicher im Netz (neu)' } });
      await b.training.unsetMatrix({ ...as, params: { role: 'R2', moduleId } });
    });
    const now = await versions();

    await onStore(async (read) => {
      // few records: a batch's text is searched first; many: every batch before the bound is read
      for (const n of [1, 3, 40]) {
        const asked = [...wanted.slice(0, n), ...wanted.slice(-2)];
        const found = await read.syncState.statesBefore(
          T,
          asked.map((w) => ({ ...w, before })),
        );
        for (const w of asked) expect(versionOf(found.get(key(w.entity, w.id)))).toBe(atBound.get(key(w.entity, w.id)));
      }
      const absent = '0190aaaa-0000-7000-8000-000000000000';
      expect(await read.syncState.statesBefore(T, [{ entity: 'dsfa', id: absent, before }])).toEqual(
        new Map([[key('dsfa', absent), null]]),
      );
      // a bound past the later changes finds the records as stored now (the matrix row deleted)
      const found = await read.syncState.statesBefore(
        T,
        wanted.map((w) => ({ ...w, before: Number.MAX_SAFE_INTEGER })),
      );
      for (const w of wanted) expect(versionOf(found.get(key(w.entity, w.id)))).toBe(now.get(key(w.entity, w.id)));
      expect(now.get(key('training_matrix', matrixId))).toBeNull();
    });
  });

  it('takes the last state of a record that one batch entry changed twice', async () => {
    target = await freshStore(engine);
    const c = await onBackend((b) =>
      b.consents.create({ ...as, body: { user_id: 'u1', data_point_id: 'news', granted: true } }),
    );
    const store = await openStore(target);
    await forTenant(T, async () => {
      const uow = createUnitOfWork(store, systemClock, uuidv7Source());
      const row = (await uow.read.replica.read(T, 'consent', c.id))!;
      // two states of the record in one batch entry, as a pull or a bundle part journals its writes
      await uow.write(T, (tx) =>
        tx.replica.asOneEntry('sync_pull', 'https://server.example#1-2', async () => {
          await tx.replica.apply(T, 'consent', c.id, { ...row, consent_version: '2.0' });
          await tx.replica.apply(T, 'consent', c.id, { ...row, consent_version: '3.0' });
        }),
      );
      const found = await uow.read.syncState.statesBefore(T, [
        { entity: 'consent', id: c.id, before: Number.MAX_SAFE_INTEGER },
      ]);
      expect(found.get(key('consent', c.id))).toMatchObject({ consent_version: '3.0' });
    }).finally(() => store.close());
  });

  it('looks back for as many records as a large offline change touches at once', async () => {
    target = await freshStore(engine);
    await onBackend((b) => b.dsfa.create({ ...as, body: { title: 'Kamera' } }));
    // more than a call's arguments may hold (about 120,000 in V8): none of them was ever journaled here
    const wanted = Array.from({ length: 200_000 }, (_, i) => ({ entity: 'consent', id: `c${i}`, before: 2 + (i % 3) }));
    const found = await onStore((read) => read.syncState.statesBefore(T, wanted));
    expect(found.size).toBe(wanted.length);
    expect([...found.values()].every((row) => row === null)).toBe(true);
  });
});
