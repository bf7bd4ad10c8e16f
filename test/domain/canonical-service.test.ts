import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import type { CanonicalControl } from '../../src/domain/training-blocks/canonical.schema.js';
import {
  applyFilter,
  byControlId,
  CanonicalService,
  mergeCatalogues,
  meta,
} from '../../src/domain/training-blocks/canonical.service.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { journalOf, sqliteUnitOfWork } from '../support/unit-of-work.js';

const control = (id: string, over: Partial<CanonicalControl> = {}): CanonicalControl => ({
  id,
  title: `Kontrolle ${id}`,
  objective: 'sicher',
  domain: id.split('-')[0]!,
  category: 'identity',
  severity: 'high',
  target_audience: 'enterprise',
  references: { iso27001: [], nis2: [], bsi: [], nist: [] },
  ...over,
});

describe('the control catalogue', () => {
  it('sorts ids by domain, then by number', () => {
    const ids = ['CRYP-001', 'AUTH-010', 'AUTH-002', 'AUTH-100'];
    expect(
      [...ids]
        .map((id) => ({ id }))
        .sort(byControlId)
        .map((c) => c.id),
    ).toEqual(['AUTH-002', 'AUTH-010', 'AUTH-100', 'CRYP-001']);
  });

  it("overlays the tenant's own controls on the shipped ones, the tenant's winning on the same id", () => {
    const merged = mergeCatalogues(
      [control('NET-001'), control('AUTH-001')],
      [control('AUTH-001', { title: 'Unsere' }), control('ORG-001')],
    );
    expect(merged.map((c) => [c.id, c.title, c.source])).toEqual([
      ['AUTH-001', 'Unsere', 'tenant'],
      ['NET-001', 'Kontrolle NET-001', 'builtin'],
      ['ORG-001', 'Kontrolle ORG-001', 'tenant'],
    ]);
  });

  const catalogue = [
    control('AUTH-001', { category: 'Identity', severity: 'low', target_audience: 'all' }),
    control('AUTH-002', { severity: 'critical', target_audience: 'authority' }),
    control('NET-001', { category: 'network', target_audience: 'provider' }),
  ];
  it.each([
    [{}, ['AUTH-001', 'AUTH-002', 'NET-001']],
    [{ domain: ['auth'] }, ['AUTH-001', 'AUTH-002']],
    [{ domain: ['NET', 'AUTH'] }, ['AUTH-001', 'AUTH-002', 'NET-001']],
    [{ category: ['IDENTITY'] }, ['AUTH-001', 'AUTH-002']],
    [{ category: ['network'] }, ['NET-001']],
    [{ severity: ['low', 'critical'] }, ['AUTH-001', 'AUTH-002']],
    [{ severity: ['high'] }, ['NET-001']],
    [{ target_audience: ['provider'] }, ['AUTH-001', 'NET-001']], // "all" always matches
    [{ target_audience: ['authority'] }, ['AUTH-001', 'AUTH-002']],
    [{ domain: ['AUTH'], severity: ['critical'] }, ['AUTH-002']],
    [{ domain: ['NOPE'] }, []],
  ] as const)('filters %j to %j', (f, ids) => {
    expect(applyFilter(catalogue, { ...f } as never).map((c) => c.id)).toEqual(ids);
  });

  it('counts controls per domain, category and audience, each sorted by name', () => {
    expect(meta(catalogue)).toEqual({
      domains: [
        { domain: 'AUTH', count: 2 },
        { domain: 'NET', count: 1 },
      ],
      categories: [
        { category: 'identity', count: 1 },
        { category: 'Identity', count: 1 },
        { category: 'network', count: 1 },
      ],
      audiences: [
        { audience: 'all', count: 1 },
        { audience: 'authority', count: 1 },
        { audience: 'provider', count: 1 },
      ],
      total: 3,
    });
  });
});

/**
 * The service over the unit of work of a fresh SQLite store holding the tenant's controls `own`; `written()` answers
 * the controls each later unit of work wrote, as the journal has them.
 */
async function service(own: CanonicalControl[] = []) {
  const { store, uow } = await sqliteUnitOfWork(fixedClock('2026-06-15T12:00:00.000Z'), uuidv7Source());
  if (own.length) await uow.write('t', ({ canonical }) => canonical.upsert('t', own));
  const after = (await journalOf(store, 't')).length;
  const svc = new CanonicalService(uow, async () => [control('AUTH-001')]);
  const written = async () => {
    const units = new Map<string, CanonicalControl[]>();
    for (const e of await journalOf(store, 't', after)) {
      const { tenant_id: _t, updated_at: _u, references, ...c } = e.data as Record<string, unknown>;
      units.set(e.txn, [...(units.get(e.txn) ?? []), { ...c, references: JSON.parse(references as string) } as never]);
    }
    return [...units.values()];
  };
  return { svc, written };
}

describe('importing own controls', () => {
  it('numbers rows from 1 when no lines are given, and names the id of a refused row when it has one', async () => {
    const { svc, written } = await service();
    const r = await svc.import('t', {
      controls: [
        control('ORG-001'),
        { ...control('ORG-002'), objective: ' ', severity: 'extreme' },
        { id: 7 },
        control('ORG-001'),
      ],
      dry_run: false,
    });
    expect(r).toEqual({
      read: 4,
      created: 1,
      updated: 0,
      unchanged: 0,
      rejected: 3,
      rejections: [
        {
          line: 2,
          id: 'ORG-002',
          reason:
            'objective: Too small: expected string to have >=1 characters; severity: "extreme" is not allowed; allowed values: low, medium, high, critical',
        },
        expect.objectContaining({ line: 3, id: null }),
        { line: 4, id: 'ORG-001', reason: 'duplicate id ORG-001 (first on line 1)' },
      ],
      dry_run: false,
    });
    expect(await written()).toEqual([[control('ORG-001')]]);
  });

  it('counts a row equal to the stored control as unchanged and writes only new and changed ones', async () => {
    const { svc, written } = await service([control('ORG-001'), control('ORG-002')]);
    const r = await svc.import('t', {
      controls: [control('ORG-001'), control('ORG-002', { severity: 'low' }), control('ORG-003')],
      lines: [10, 11, 12],
      dry_run: false,
    });
    expect(r).toMatchObject({ read: 3, created: 1, updated: 1, unchanged: 1, rejected: 0, rejections: [] });
    expect(await written()).toEqual([[control('ORG-002', { severity: 'low' }), control('ORG-003')]]);
  });

  it('writes nothing on a dry run, nor when nothing changed', async () => {
    const dry = await service();
    expect(await dry.svc.import('t', { controls: [control('ORG-001')], dry_run: true })).toMatchObject({
      created: 1,
      dry_run: true,
    });
    expect(await dry.written()).toEqual([]);
    const same = await service([control('ORG-001')]);
    expect(await same.svc.import('t', { controls: [control('ORG-001')], dry_run: false })).toMatchObject({
      unchanged: 1,
    });
    expect(await same.written()).toEqual([]);
  });

  it('lists, filters and counts the merged catalogue of a tenant', async () => {
    const { svc } = await service([control('ORG-001')]);
    expect((await svc.all('t')).map((c) => `${c.id}/${c.source}`)).toEqual(['AUTH-001/builtin', 'ORG-001/tenant']);
    expect((await svc.list('t', { domain: ['ORG'] })).map((c) => c.id)).toEqual(['ORG-001']);
    expect((await svc.meta('t')).total).toBe(2);
  });
});
