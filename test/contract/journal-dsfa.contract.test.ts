import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, useBackend } from '../support/helpers.js';
import { journalled, lastState } from '../support/journal.js';

// Every DSFA write leaves exactly its entries in the tenant's journal, in the transaction of the change: the record
// after the change (or a tombstone) and its audit entry, with the actor the request named.
describe.each(BACKEND_NAMES)('the journal of DSFA writes on the %s backend', (name) => {
  const b = useBackend(name);
  const T = { tenant: 'journal-dsfa', actor: 'alice@example.com' };
  const api = () => b.backend.dsfa;

  it('create, update, status change and delete each leave the record (or a tombstone) and its audit entry', async () => {
    const created = await journalled(b.backend, T.tenant, () => api().create({ ...T, body: { title: 'Kamera' } }));
    expect(created.pairs).toEqual(['dsfa insert', 'dsfa_audit insert']);
    const d = created.result;
    expect(lastState(created.entries, 'dsfa', d.id)).toMatchObject({ id: d.id, title: 'Kamera', status: 'draft' });
    expect(created.entries[0]).toMatchObject({ actor: 'alice@example.com', entity_id: d.id });

    const updated = await journalled(b.backend, T.tenant, () =>
      api().update({ ...T, params: { id: d.id }, body: { description: 'Lager' } }),
    );
    expect(updated.pairs).toEqual(['dsfa update', 'dsfa_audit insert']);
    expect(lastState(updated.entries, 'dsfa', d.id)).toMatchObject({ description: 'Lager' });

    const status = await journalled(b.backend, T.tenant, () =>
      api().setStatus({ ...T, params: { id: d.id }, body: { status: 'in-review' } }),
    );
    expect(status.pairs).toEqual(['dsfa update', 'dsfa_audit insert']);
    expect(lastState(status.entries, 'dsfa', d.id)).toMatchObject({ status: 'in-review' });

    const deleted = await journalled(b.backend, T.tenant, () => api().delete({ ...T, params: { id: d.id } }));
    expect(deleted.pairs).toEqual(['dsfa delete', 'dsfa_audit insert']);
    expect(lastState(deleted.entries, 'dsfa', d.id)).toBeNull();
    expect(lastState(deleted.entries, 'dsfa_audit', deleted.entries[1]!.entity_id)).toMatchObject({ action: 'DELETE' });
  });

  it('a workflow change leaves the setting; reads and refused writes leave nothing', async () => {
    const set = await journalled(b.backend, T.tenant, () =>
      api().updateSettings({ ...T, body: { workflow: 'strict' } }),
    );
    expect(set.pairs).toEqual(['dsfa_setting update']);
    expect(set.entries[0]!.data).toMatchObject({ tenant_id: T.tenant, workflow: 'strict', updated_by: T.actor });
    const nothing = await journalled(b.backend, T.tenant, async () => {
      await api().list({ ...T, query: {} });
      await api().stats(T);
      // strict: a new assessment starts as a draft, so this is refused, and rolls back whole
      await api()
        .create({ ...T, body: { title: 'Sofort freigegeben', status: 'approved' } })
        .catch(() => undefined);
    });
    expect(nothing.pairs).toEqual([]);
  });
});
