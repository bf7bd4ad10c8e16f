import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, useBackend } from '../support/helpers.js';
import { control } from '../support/canonical.js';
import { expectChainIntact, journalled, lastState } from '../support/journal.js';

// An import of own controls leaves each control it created or changed, keyed by the control's id (the tenant is the
// chain's), in one unit of work; unchanged and refused rows leave nothing, and neither does a dry run or a read.
const T = { tenant: 'journal-canonical', actor: 'ciso@example.com' };

describe.each(BACKEND_NAMES)('the journal of own controls on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.canonical;
  const run = <R>(op: () => Promise<R>) => journalled(b.backend, T.tenant, op);

  it('an import leaves the controls it created, then those it changed, and nothing for the rest', async () => {
    const first = await run(() => api().import({ ...T, body: { controls: [control('OWN-001'), control('OWN-002')] } }));
    expect(first.result).toMatchObject({ created: 2, updated: 0 });
    expect(first.pairs).toEqual(['training_canonical_control insert', 'training_canonical_control insert']);
    expect(first.entries.map((e) => [e.entity_id, e.actor])).toEqual([
      ['OWN-001', T.actor],
      ['OWN-002', T.actor],
    ]);
    expect(lastState(first.entries, 'training_canonical_control', 'OWN-001')).toMatchObject({
      id: 'OWN-001',
      tenant_id: T.tenant,
      severity: 'high',
      references: JSON.stringify(control('OWN-001').references),
    });

    const second = await run(() =>
      api().import({
        ...T,
        body: { controls: [control('OWN-001'), control('OWN-002', { severity: 'low' }), { id: 'bad' }] },
      }),
    );
    expect(second.result).toMatchObject({ created: 0, updated: 1, unchanged: 1, rejected: 1 });
    expect(second.pairs).toEqual(['training_canonical_control update']);
    expect(lastState(second.entries, 'training_canonical_control', 'OWN-002')).toMatchObject({ severity: 'low' });
  });

  it('dry runs, unchanged and refused rows, and reads leave nothing; the chain verifies', async () => {
    const nothing = await run(async () => {
      expect(await api().import({ ...T, body: { controls: [control('OWN-003')], dry_run: true } })).toMatchObject({
        created: 1,
        dry_run: true,
      });
      expect(await api().import({ ...T, body: { controls: [control('OWN-001')] } })).toMatchObject({ unchanged: 1 });
      expect(await api().import({ ...T, body: { controls: [{ id: 'bad' }] } })).toMatchObject({ rejected: 1 });
      await api().controls({ ...T, query: { domain: 'OWN' } });
      await api().meta(T);
    });
    expect(nothing.pairs).toEqual([]);
    await expectChainIntact(b.local, T.tenant);
  });
});
