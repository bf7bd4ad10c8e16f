import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositeId } from '../../src/store/journal/journal-writer.js';
import { FakeOllama } from '../support/ollama-server.js';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';
import { expectChainIntact, journalAfter, journalHead, journalled, lastState } from '../support/journal.js';

// A block and what it generates are journaled in the block's unit of work: each module created or updated, each
// matrix entry added (none for an entry that was there), a tombstone per control link replaced and each new link
// (keyed by block and control, in the block's tenant's chain), and the block's last generation. Content for the
// modules follows in units of work of its own. Deleting a block leaves a tombstone per link and one for the block.
describe.each(BACKEND_NAMES)('the journal of training blocks on the %s backend', (name) => {
  let ollama: FakeOllama;
  const T = { tenant: 'journal-blocks', actor: 'ciso@example.com' };
  const api = () => b.backend.trainingBlocks;
  const run = <R>(op: () => Promise<R>) => journalled(b.backend, T.tenant, op);
  const refused = (p: Promise<unknown>) => failure(p).then(() => undefined);
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
  });
  const b = useBackend(name, () => ({ llm: { host: ollama.url } }));
  afterAll(async () => {
    await ollama.close();
  });
  const body = { name: 'Zugang', regulation_area: 'nis2', module_code_prefix: 'SEC-AUTH', domain_filter: 'AUTH' };

  it('a block created, changed, generated twice and deleted leaves exactly what each step wrote', async () => {
    const created = await run(() => api().create({ ...T, body }));
    const block = created.result;
    expect(created.pairs).toEqual(['training_block insert']);
    expect(created.entries[0]).toMatchObject({ entity_id: block.id, actor: T.actor });
    expect(created.entries[0]!.data).toMatchObject({ id: block.id, tenant_id: T.tenant, name: 'Zugang' });

    const updated = await run(() => api().update({ ...T, params: { id: block.id }, body: { description: 'neu' } }));
    expect(updated.pairs).toEqual(['training_block update']);
    expect(lastState(updated.entries, 'training_block', block.id)).toMatchObject({
      name: 'Zugang',
      description: 'neu',
    });

    const plan = await api().preview({ ...T, params: { id: block.id } });
    const controls = plan.modules.flatMap((m) => m.control_ids);
    expect(plan.modules.length).toBeGreaterThan(1);
    const first = await run(() => api().generate({ ...T, params: { id: block.id }, body: { skip_content: true } }));
    expect(first.result).toMatchObject({ modules_created: plan.modules.length, controls_linked: controls.length });
    expect(first.pairs).toEqual([
      ...plan.modules.flatMap(() => ['training_module insert', ...plan.roles.map(() => 'training_matrix insert')]),
      ...controls.map(() => 'training_block_control insert'),
      'training_block update',
    ]);
    const modules = first.entries.filter((e) => e.entity === 'training_module').map((e) => e.data);
    expect(modules.map((m) => (m as { module_code: string }).module_code)).toEqual(
      plan.modules.map((m) => m.module_code),
    );
    const moduleId = (modules[0] as { id: string }).id;
    expect(lastState(first.entries, 'training_matrix', compositeId(plan.roles[0]!, moduleId))).toMatchObject({
      tenant_id: T.tenant,
      role_code: plan.roles[0],
      module_id: moduleId,
      is_mandatory: 0,
    });
    expect(lastState(first.entries, 'training_block_control', compositeId(block.id, controls[0]!))).toEqual({
      block_id: block.id,
      control_id: controls[0],
      module_id: moduleId,
      position: 0,
    });
    expect(lastState(first.entries, 'training_block', block.id)).toMatchObject({
      last_generated_at: expect.any(String),
    });

    // again: the same modules updated, the matrix entries already there, every link replaced
    const second = await run(() => api().generate({ ...T, params: { id: block.id }, body: { skip_content: true } }));
    expect(second.result).toMatchObject({ modules_created: 0, modules_updated: plan.modules.length });
    expect(second.pairs).toEqual([
      ...plan.modules.map(() => 'training_module update'),
      ...controls.map(() => 'training_block_control delete'),
      ...controls.map(() => 'training_block_control insert'),
      'training_block update',
    ]);

    const reads = await run(async () => {
      await api().list(T);
      await api().get({ ...T, params: { id: block.id } });
      await api().preview({ ...T, params: { id: block.id } });
      await api().controls({ ...T, params: { id: block.id } });
      await refused(api().update({ ...T, params: { id: 'nope' }, body: { name: 'x' } }));
      await refused(api().delete({ ...T, params: { id: 'nope' } }));
      await refused(api().generate({ ...T, params: { id: 'nope' }, body: { skip_content: true } }));
    });
    expect(reads.pairs).toEqual([]);

    const deleted = await run(() => api().delete({ ...T, params: { id: block.id } }));
    expect(deleted.pairs).toEqual([...controls.map(() => 'training_block_control delete'), 'training_block delete']);
    expect(deleted.entries.map((e) => e.entity_id)).toEqual([
      ...controls.map((c) => compositeId(block.id, c)),
      block.id,
    ]);
    expect(deleted.entries.every((e) => e.data === null)).toBe(true);
  });

  it('a block whose filters match nothing generates nothing; content follows the block in units of its own', async () => {
    const none = await api().create({ ...T, body: { ...body, name: 'Leer', domain_filter: 'NOPE' } });
    expect(
      (await run(() => api().generate({ ...T, params: { id: none.id }, body: { skip_content: true } }))).pairs,
    ).toEqual([]);

    const one = await api().create({
      ...T,
      body: { ...body, name: 'Eins', module_code_prefix: 'ONE', max_controls_per_module: 50 },
    });
    const plan = await api().preview({ ...T, params: { id: one.id } });
    expect(plan.modules).toHaveLength(1);
    ollama.reply({ text: '# Zugang' });
    const before = await journalHead(b.backend, T.tenant);
    const r = await api().generate({ ...T, params: { id: one.id }, body: { auto_matrix: false } });
    expect(r).toMatchObject({ modules_created: 1, content_generated: 1 });
    const entries = await journalAfter(b.backend, T.tenant, before);
    const units = [...new Set(entries.map((e) => e.txn))].map((txn) =>
      entries.filter((e) => e.txn === txn).map((e) => `${e.entity} ${e.op}`),
    );
    expect(units).toEqual([
      [
        'training_module insert',
        ...plan.modules[0]!.control_ids.map(() => 'training_block_control insert'),
        'training_block update',
      ],
      ['training_content insert', 'training_audit insert'],
    ]);
    await expectChainIntact(b.local, T.tenant);
  });
});
