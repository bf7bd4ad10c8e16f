import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';
import { control } from '../support/canonical.js';

const T = { tenant: 'acme', actor: 'ciso' };

describe.each(BACKEND_NAMES)('canonical controls on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.canonical;

  it('ships a catalogue of at least 150 controls with stable ids', async () => {
    const all = await api().controls(T);
    expect(all.length).toBeGreaterThanOrEqual(150);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const c of all) expect(c.id).toMatch(/^[A-Z]+-\d{3}$/);
    expect(all.every((c) => c.source === 'builtin')).toBe(true);
  });

  it('filters by domain, category, severity and audience (lists allowed; audience "all" always matches)', async () => {
    const auth = await api().controls({ ...T, query: { domain: 'AUTH' } });
    expect(auth.length).toBeGreaterThan(0);
    expect(auth.every((c) => c.domain === 'AUTH')).toBe(true);
    const severe = await api().controls({ ...T, query: { severity: 'high,critical' } });
    expect(severe.every((c) => ['high', 'critical'].includes(c.severity))).toBe(true);
    const authority = await api().controls({ ...T, query: { target_audience: 'authority' } });
    expect(authority.every((c) => ['authority', 'all'].includes(c.target_audience))).toBe(true);
    const cat = auth[0]!.category;
    const byCat = await api().controls({ ...T, query: { domain: 'auth', category: cat } });
    expect(byCat.every((c) => c.category === cat)).toBe(true);
    expect(await api().controls({ ...T, query: { domain: 'NOPE' } })).toEqual([]);
  });

  it('refuses unknown severities and audiences, naming the allowed values', async () => {
    const e = await failure(api().controls({ ...T, query: { severity: 'extreme' } }));
    expect(e.code).toBe('validation');
    expect(e.message).toContain('low, medium, high, critical');
    expect((await failure(api().controls({ ...T, query: { target_audience: 'everyone' } }))).message).toContain(
      'enterprise, authority, provider, all',
    );
  });

  it('aggregates metadata that adds up to the total', async () => {
    const m = await api().meta(T);
    const all = await api().controls(T);
    expect(m.total).toBe(all.length);
    for (const key of ['domains', 'categories', 'audiences'] as const) {
      expect((m[key] as Array<{ count: number }>).reduce((n, x) => n + x.count, 0)).toBe(m.total);
    }
    expect(m.domains.find((d) => d.domain === 'AUTH')!.count).toBe(all.filter((c) => c.domain === 'AUTH').length);
  });

  it('refuses rows that are not objects, each with its line and no id', async () => {
    const r = await api().import({ ...T, body: { controls: [null, 'ORG-001', 7, control('ORG-004')], dry_run: true } });
    expect(r).toMatchObject({ read: 4, created: 1, rejected: 3 });
    expect(r.rejections.map((x) => [x.line, x.id])).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
  });

  it('imports own controls idempotently, refuses bad rows with their lines, and keeps tenants apart', async () => {
    const body = {
      controls: [
        control('ORG-001'),
        control('ORG-002'),
        control('ORG-001'),
        { id: 'ORG-003', title: 'no rest' },
        control('bad id'),
      ],
      lines: [2, 3, 4, 5, 6],
    };
    const dry = await api().import({ ...T, body: { ...body, dry_run: true } });
    expect(dry).toMatchObject({ read: 5, created: 2, rejected: 3, dry_run: true });
    expect(await api().controls({ ...T, query: { domain: 'ORG' } })).toEqual([]);
    const r = await api().import({ ...T, body });
    expect(r).toMatchObject({ read: 5, created: 2, updated: 0, unchanged: 0, rejected: 3 });
    expect(r.rejections.map((x) => x.line)).toEqual([4, 5, 6]);
    expect(r.rejections[0]!.reason).toMatch(/duplicate id ORG-001 \(first on line 2\)/);
    expect(r.rejections[1]!.reason).toMatch(/objective/);
    expect(r.rejections[2]!.reason).toMatch(/DOMAIN-NNN/);
    const again = await api().import({ ...T, body });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const changed = await api().import({ ...T, body: { controls: [control('ORG-002', { severity: 'low' })] } });
    expect(changed).toMatchObject({ created: 0, updated: 1 });
    const own = await api().controls({ ...T, query: { domain: 'ORG' } });
    expect(own.map((c) => [c.id, c.severity, c.source])).toEqual([
      ['ORG-001', 'high', 'tenant'],
      ['ORG-002', 'low', 'tenant'],
    ]);
    expect(await api().controls({ tenant: 'other', query: { domain: 'ORG' } })).toEqual([]);
    expect((await api().meta({ tenant: 'other' })).total).toBe((await api().meta(T)).total - 2);
  });

  it('lets an organisation override a shipped control by id', async () => {
    const [first] = await api().controls({ tenant: 'override', query: { domain: 'AUTH' } });
    await api().import({
      tenant: 'override',
      body: { controls: [{ ...first, source: undefined, title: 'Unsere Fassung' }] },
    });
    const [again] = await api().controls({ tenant: 'override', query: { domain: 'AUTH' } });
    expect(again).toMatchObject({ id: first!.id, title: 'Unsere Fassung', source: 'tenant' });
  });

  it('refuses an empty import', async () => {
    expect((await failure(api().import({ ...T, body: { controls: [] } }))).code).toBe('validation');
  });
});
