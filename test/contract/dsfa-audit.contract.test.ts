import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/domain/dsfa/dsfa.workflow.js';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';

// What the audit trail of an assessment records: exactly the fields that changed, who changed them, and for an
// approval the hash of the content approved.
describe.each(BACKEND_NAMES)('DSFA audit trail and review rules on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.dsfa;
  const tenant = () => ({ tenant: `audit-${Math.random()}`, actor: 'alice@example.com' });
  const latest = async (t: { tenant: string }, id: string) =>
    (await api().auditLog({ ...t, query: { dsfa_id: id, limit: 1 } }))[0]!;

  it('a status change records the status only, and by whom, unless approval data changes with it', async () => {
    const t = tenant();
    const d = await api().create({ ...t, body: { title: 'Zeiterfassung' } });
    await api().setStatus({ ...t, params: { id: d.id }, body: { status: 'in-review' } });
    expect(await latest(t, d.id)).toMatchObject({
      action: 'STATUS_CHANGE',
      changed_by: 'alice@example.com',
      old_values: { status: 'draft' },
      new_values: { status: 'in-review' },
    });
    const entry = await latest(t, d.id);
    expect(Object.keys(entry.old_values)).toEqual(['status']);
    expect(Object.keys(entry.new_values)).toEqual(['status']);
  });

  it('a DSFA created as approved carries its approval date, and its CREATE entry the content hash', async () => {
    const t = tenant();
    const d = await api().create({ ...t, body: { title: 'Born approved', status: 'approved', approved_by: 'dpo' } });
    expect(d).toMatchObject({ status: 'approved', approved_by: 'dpo', approved_at: d.created_at });
    const { id: _id, tenant_id: _t, ...fields } = d;
    const entry = await latest(t, d.id);
    expect(entry).toMatchObject({ action: 'CREATE', changed_by: 'alice@example.com', old_values: {} });
    expect(entry.new_values).toEqual({ ...fields, content_hash: contentHash(d) });
    const plain = await api().create({ ...t, body: { title: 'Draft' } });
    expect((await latest(t, plain.id)).new_values).not.toHaveProperty('content_hash');
  });

  it('records the system as the actor of every change made without one', async () => {
    const t = { tenant: `no-actor-${Math.random()}` };
    const d = await api().create({ ...t, body: { title: 'Ohne Akteur' } });
    expect(await latest(t, d.id)).toMatchObject({ action: 'CREATE', changed_by: 'system' });
    await api().update({ ...t, params: { id: d.id }, body: { description: 'neu' } });
    expect(await latest(t, d.id)).toMatchObject({ action: 'UPDATE', changed_by: 'system' });
    await api().setStatus({ ...t, params: { id: d.id }, body: { status: 'in-review' } });
    expect(await latest(t, d.id)).toMatchObject({ action: 'STATUS_CHANGE', changed_by: 'system' });
    await api().delete({ ...t, params: { id: d.id } });
    expect(await latest(t, d.id)).toMatchObject({ action: 'DELETE', changed_by: 'system' });
    expect(await api().updateSettings({ ...t, body: { workflow: 'strict' } })).toMatchObject({ updated_by: 'system' });
  });

  it('names the assessment an unknown id or an ambiguous prefix was meant for', async () => {
    const t = tenant();
    const e = await failure(api().get({ ...t, params: { id: 'nope' } }));
    expect(e).toMatchObject({ code: 'not_found', message: 'DSFA nope not found' });
    // ids begin with their creation time, so two made at once share their first eight characters
    const [a, b] = [
      await api().create({ ...t, body: { title: 'A' } }),
      await api().create({ ...t, body: { title: 'B' } }),
    ];
    let common = 0;
    while (a!.id[common] === b!.id[common]) common++;
    if (common >= 8) {
      const ambiguous = await failure(api().get({ ...t, params: { id: a!.id.slice(0, 8) } }));
      expect(ambiguous.message).toMatch(/^DSFA id \S+ is ambiguous: it fits /);
    }
  });

  it('the strict workflow: new assessments start as draft, an approval is not repeated, a status kept is no change', async () => {
    const t = tenant();
    await api().updateSettings({ ...t, body: { workflow: 'strict' } });
    const born = await failure(api().create({ ...t, body: { title: 'x', status: 'in-review' } }));
    expect(born).toMatchObject({
      code: 'conflict',
      message: 'in the strict review workflow a new assessment starts as draft',
      details: [{ path: 'status', message: 'allowed on create: draft' }],
    });
    const d = await api().create({ ...t, body: { title: 'Streng' } });
    const status = (body: { status: string; approved_by?: string }) =>
      api().setStatus({ ...t, params: { id: d.id }, body } as never);
    await status({ status: 'in-review' });
    expect((await status({ status: 'in-review' })).status).toBe('in-review');
    const a = await status({ status: 'approved', approved_by: 'dpo' });
    const again = await failure(status({ status: 'approved', approved_by: 'dpo' }));
    expect(again.code).toBe('conflict');
    expect(again.message).toContain('does not allow approved → approved');
    expect(await api().get({ ...t, params: { id: d.id } })).toEqual(a);
  });
});
