import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { TrainingBlockService } from '../../src/domain/training-blocks/block.service.js';
import type { Block } from '../../src/domain/training-blocks/block.schema.js';
import type { TrainingBlockStore } from '../../src/domain/training-blocks/block.store.js';
import type { CanonicalControl } from '../../src/domain/training-blocks/canonical.schema.js';
import { CanonicalService } from '../../src/domain/training-blocks/canonical.service.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { rollingBack, sqliteUnitOfWork, withStore, wrapWrites } from '../support/unit-of-work.js';

const NOW = '2026-06-15T12:00:00.000Z';
const control = (id: string): CanonicalControl => ({
  id,
  title: `Kontrolle ${id}`,
  objective: 'sicher',
  domain: id.split('-')[0]!,
  category: 'k',
  severity: 'high',
  target_audience: 'all',
  references: { iso27001: [], nis2: [], bsi: [], nist: [] },
});
const CONTROLS = ['AUTH-001', 'AUTH-002', 'AUTH-003', 'CRYP-001'].map(control);
const BLOCK: Block = {
  id: 'b1',
  tenant_id: 't',
  name: 'Zugang',
  description: '',
  domain_filter: null,
  category_filter: null,
  severity_filter: null,
  target_audience_filter: null,
  regulation_area: 'nis2',
  module_code_prefix: 'SEC',
  frequency_type: 'annual',
  duration_minutes: 30,
  pass_threshold: 70,
  max_controls_per_module: 2,
  created_at: NOW,
  updated_at: NOW,
  last_generated_at: null,
};

/**
 * The unit of work of a fresh SQLite store holding BLOCK. `conflicts` plays PostgreSQL after a clash with another
 * replica: that many times, the transaction runs to its end, is rolled back and runs again. `writes` records the
 * module and matrix writes that reach the store, `blockUpdates` the changes to blocks.
 */
async function sqliteStore(conflicts: number) {
  let n = 0;
  const nextId = () => `m${++n}`;
  // transactions take their ids from a source of their own, so the service's ids are m1, m2, … as it asks for them
  let txn = 0;
  const { store: opened, uow: real } = await sqliteUnitOfWork(fixedClock(NOW), { next: () => `txn${++txn}` });
  await real.write('t', ({ trainingBlocks }) => trainingBlocks.insert(BLOCK));
  const writes: unknown[] = [];
  const blockUpdates: unknown[] = [];
  const h = { conflicts };
  const recording = (inner: TrainingBlockStore): TrainingBlockStore => {
    const s = Object.create(inner) as TrainingBlockStore;
    s.insertModule = async (m) => {
      writes.push(['insert', m]);
      await inner.insertModule(m);
    };
    s.updateModule = async (tenant, id, set) => {
      writes.push(['update', id, set]);
      await inner.updateModule(tenant, id, set);
    };
    s.update = async (tenant, id, set) => {
      blockUpdates.push([id, set]);
      await inner.update(tenant, id, set);
    };
    s.addMatrixEntry = async (e) => {
      writes.push(['matrix', e]);
      return inner.addMatrixEntry(e);
    };
    return s;
  };
  const uow = rollingBack(
    wrapWrites(real, (tx) => withStore(tx, 'trainingBlocks', recording(tx.trainingBlocks))),
    h,
  );
  const state = async () => ({
    modules: (
      await opened.db.selectFrom('training_module').select('module_code').where('tenant_id', '=', 't').execute()
    )
      .map((m) => m.module_code)
      .sort(),
    links: await opened.db
      .selectFrom('training_block_control as l')
      .innerJoin('training_module as m', 'm.id', 'l.module_id')
      .select(['l.control_id', 'l.position'])
      .where('l.block_id', '=', 'b1')
      .orderBy('m.module_code')
      .orderBy('l.position')
      .execute(),
    block: (await real.read.trainingBlocks.get('t', 'b1'))!,
  });
  return { uow, h, writes, blockUpdates, state, nextId };
}

const service = (
  { uow, nextId }: { uow: UnitOfWork; nextId: () => string },
  catalogue = () => CONTROLS,
  generate: () => Promise<never> = async () => ({}) as never,
) =>
  new TrainingBlockService(
    uow,
    // the tenant has no controls of its own: the catalogue is the shipped one the test sets
    new CanonicalService(uow, async () => catalogue()),
    { generate },
    fixedClock(NOW),
    { next: nextId },
  );

describe('TrainingBlockService.generate reports only the run of its transaction that committed', () => {
  it.each([0, 1, 3])('after %i rolled-back run(s)', async (conflicts) => {
    const store = await sqliteStore(conflicts);
    const r = await service(store).generate('t', 'ciso', 'b1', {
      language: 'de',
      auto_matrix: true,
      skip_content: true,
    });
    // AUTH-001/002, AUTH-003, CRYP-001: three modules; roles R1, R4, R8, R9 for NIS2 and these domains
    expect(r).toEqual({
      modules_created: 3,
      modules_updated: 0,
      controls_linked: 4,
      matrix_entries_created: 12,
      content_generated: 0,
      errors: [],
    });
    const s = await store.state();
    expect(s.modules).toEqual(['SEC-001', 'SEC-002', 'SEC-003']);
    expect(s.links.map((l) => `${l.control_id}@${l.position}`)).toEqual([
      'AUTH-001@0',
      'AUTH-002@1',
      'AUTH-003@0',
      'CRYP-001@0',
    ]);
    expect(s.block.last_generated_at).toBe(NOW);
  });

  it('a second generation, also after a rolled-back run, updates the same modules and adds no matrix entry', async () => {
    const store = await sqliteStore(0);
    const svc = service(store);
    const o = { language: 'de' as const, auto_matrix: true, skip_content: true };
    await svc.generate('t', 'ciso', 'b1', o);
    store.h.conflicts = 1;
    expect(await svc.generate('t', 'ciso', 'b1', o)).toMatchObject({
      modules_created: 0,
      modules_updated: 3,
      controls_linked: 4,
      matrix_entries_created: 0,
    });
  });
});

describe('TrainingBlockService', () => {
  it('hands the store only the fields an update gives, so a field given as undefined stays as it is', async () => {
    const store = await sqliteStore(0);
    const b = await service(store).update('t', 'b1', { name: undefined, description: 'neu', domain_filter: null });
    expect(b).toEqual({ ...BLOCK, description: 'neu', domain_filter: null, updated_at: NOW });
    // the store is not trusted to skip an undefined value: the service leaves the key out
    expect(store.blockUpdates).toStrictEqual([['b1', { description: 'neu', domain_filter: null, updated_at: NOW }]]);
  });

  it('leaves out a linked control that the catalogue no longer has (dropped from the shipped one by an update)', async () => {
    const store = await sqliteStore(0);
    let catalogue = CONTROLS;
    const svc = service(store, () => catalogue);
    await svc.generate('t', 'ciso', 'b1', { language: 'de', auto_matrix: false, skip_content: true });
    catalogue = CONTROLS.filter((c) => c.id !== 'AUTH-002');
    expect((await svc.controls('t', 'b1')).map((c) => `${c.id}@${c.module_code}`)).toEqual([
      'AUTH-001@SEC-001',
      'AUTH-003@SEC-002',
      'CRYP-001@SEC-003',
    ]);
  });
});

describe('TrainingBlockService.generate writes what the block says', () => {
  const o = { language: 'en' as const, auto_matrix: true, skip_content: false };

  async function recorded() {
    const store = await sqliteStore(0);
    const asked: unknown[] = [];
    const catalogue = () => [control('AUTH-001')];
    const svc = service(store, catalogue, async (...a: unknown[]) => {
      asked.push(a);
      if (asked.length > 1) throw new Error('Ollama is busy');
      return {} as never;
    });
    return { svc, writes: store.writes, asked };
  }

  it('creates modules with the settings of the block, suggests them to its roles and asks for content', async () => {
    const { svc, writes, asked } = await recorded();
    const r = await svc.generate('t', 'ciso', 'b1', o);
    const fields = {
      title: 'Zugang: Authentisierung und Identitäten',
      description: 'Sicherheitsmaßnahmen: Kontrolle AUTH-001.',
      regulation_area: 'nis2',
      frequency_type: 'annual',
      duration_minutes: 30,
      pass_threshold: 70,
    };
    expect(writes).toEqual([
      [
        'insert',
        {
          id: 'm1',
          tenant_id: 't',
          module_code: 'SEC-001',
          ...fields,
          // a block's module has no English title of its own (migration 0024): English mail names it by its title
          title_en: null,
          validity_days: 365,
          created_at: NOW,
          updated_at: NOW,
        },
      ],
      ...['R1', 'R4', 'R8', 'R9'].map((role_code) => [
        'matrix',
        { tenant_id: 't', role_code, module_id: 'm1', is_mandatory: false, priority: 5, created_at: NOW },
      ]),
    ]);
    expect(asked).toEqual([['t', 'ciso', { module_id: 'm1', language: 'en' }]]);
    expect(r).toEqual({
      modules_created: 1,
      modules_updated: 0,
      controls_linked: 1,
      matrix_entries_created: 4,
      content_generated: 1,
      errors: [],
    });
    writes.length = 0;
    const again = await svc.generate('t', 'ciso', 'b1', { ...o, auto_matrix: false });
    expect(writes).toEqual([['update', 'm1', { ...fields, updated_at: NOW }]]);
    expect(again).toEqual({
      modules_created: 0,
      modules_updated: 1,
      controls_linked: 1,
      matrix_entries_created: 0,
      content_generated: 0,
      errors: [{ module_code: 'SEC-001', message: 'content not generated: Ollama is busy' }],
    });
  });
});

describe('TrainingBlockService', () => {
  it('creates a block with unset filters as null, never generated', async () => {
    const store = await sqliteStore(0);
    const input = {
      name: 'Zugang',
      description: '',
      regulation_area: 'nis2' as const,
      module_code_prefix: 'SEC',
      frequency_type: 'annual' as const,
      duration_minutes: 30,
      pass_threshold: 70,
      max_controls_per_module: 2,
    };
    const b = await service(store).create('t', input);
    expect(b).toEqual({ ...BLOCK, id: 'm1', ...input });
    expect(await store.uow.read.trainingBlocks.get('t', b.id)).toEqual(b);
  });

  it('previews the plan of a block without writing', async () => {
    const store = await sqliteStore(0);
    expect(await service(store).preview('t', 'b1')).toEqual({
      block_id: 'b1',
      total_controls: 4,
      modules: [
        expect.objectContaining({ module_code: 'SEC-001', control_ids: ['AUTH-001', 'AUTH-002'] }),
        expect.objectContaining({ module_code: 'SEC-002', control_ids: ['AUTH-003'] }),
        expect.objectContaining({ module_code: 'SEC-003', control_ids: ['CRYP-001'] }),
      ],
      roles: ['R1', 'R4', 'R8', 'R9'],
      message: '4 control(s) in 3 module(s)',
    });
    expect(await service(store, () => []).preview('t', 'b1')).toMatchObject({
      total_controls: 0,
      modules: [],
      message: 'no control matches the filters of this block; nothing would be generated',
    });
    expect((await store.state()).modules).toEqual([]);
    expect(store.writes).toEqual([]);
  });
});
