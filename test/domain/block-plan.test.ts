import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/domain/training-blocks/block.schema.js';
import { blockFilter, planModules, rolesFor } from '../../src/domain/training-blocks/block.plan.js';
import type { CanonicalControl } from '../../src/domain/training-blocks/canonical.schema.js';

const block = (over: Partial<Block> = {}): Block => ({
  id: 'b',
  tenant_id: 't',
  name: 'Sicherheit',
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
  max_controls_per_module: 3,
  created_at: '',
  updated_at: '',
  last_generated_at: null,
  ...over,
});
const c = (id: string): CanonicalControl => ({
  id,
  title: `T ${id}`,
  objective: 'o',
  domain: id.split('-')[0]!,
  category: 'x',
  severity: 'high',
  target_audience: 'all',
  references: { iso27001: [], nis2: [], bsi: [], nist: [] },
});

describe('planModules', () => {
  it('groups by domain, at most max per module, with stable sequential codes', () => {
    const plan = planModules(block(), ['NET-002', 'AUTH-001', 'AUTH-010', 'AUTH-002', 'AUTH-003', 'NET-001'].map(c));
    expect(plan.map((m) => [m.module_code, m.control_ids])).toEqual([
      ['SEC-001', ['AUTH-001', 'AUTH-002', 'AUTH-003']],
      ['SEC-002', ['AUTH-010']],
      ['SEC-003', ['NET-001', 'NET-002']],
    ]);
    expect(plan[0]!.title).toBe('Sicherheit: Authentisierung und Identitäten (1/2)');
    expect(plan[2]!.title).toBe('Sicherheit: Netzwerksicherheit');
  });

  it('plans nothing for no controls', () => {
    expect(planModules(block(), [])).toEqual([]);
  });

  it.each([1, 2, 5, 10])('never puts more than %i controls in a module', (max) => {
    const controls = Array.from({ length: 23 }, (_, i) => c(`AUTH-${String(i + 1).padStart(3, '0')}`));
    const plan = planModules(block({ max_controls_per_module: max }), controls);
    expect(plan.every((m) => m.control_ids.length <= max)).toBe(true);
    expect(plan.flatMap((m) => m.control_ids)).toHaveLength(23);
  });
});

describe('blockFilter and rolesFor', () => {
  it('turns comma lists into filters', () => {
    expect(
      blockFilter(
        block({ domain_filter: 'AUTH, NET', severity_filter: 'high,critical', target_audience_filter: 'provider' }),
      ),
    ).toEqual({
      domain: ['AUTH', 'NET'],
      category: undefined,
      severity: ['high', 'critical'],
      target_audience: ['provider'],
    });
  });

  it.each([
    [null, 'nis2', ['AUTH'], ['R1', 'R4', 'R8', 'R9']],
    ['authority', 'iso27001', ['NET'], ['R4', 'R8', 'R10']],
    ['enterprise', 'dsgvo', ['HR'], ['R1', 'R2', 'R3', 'R4', 'R5', 'R8', 'R9']],
    ['provider', 'ai_act', ['SUP'], ['R2', 'R4', 'R6', 'R8']],
  ] as const)('audience %s, area %s, domains %j -> %j', (aud, area, domains, roles) => {
    expect(rolesFor({ target_audience_filter: aud, regulation_area: area }, [...domains])).toEqual(roles);
  });
});
