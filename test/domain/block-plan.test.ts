import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/domain/training-blocks/block.schema.js';
import { blockFilter, domainName, planModules, rolesFor } from '../../src/domain/training-blocks/block.plan.js';
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

describe('module titles and descriptions', () => {
  it('names a module after the block and the German name of its domain, or the code of an unknown domain', () => {
    const plan = planModules(block(), ['AI-001', 'ZZZ-001'].map(c));
    expect(plan.map((m) => m.title)).toEqual(['Sicherheit: Künstliche Intelligenz', 'Sicherheit: ZZZ']);
  });

  it('numbers the parts of a split domain n/m and continues the code sequence across domains', () => {
    const plan = planModules(block({ max_controls_per_module: 1 }), ['NET-001', 'AUTH-001', 'AUTH-002'].map(c));
    expect(plan.map((m) => [m.module_code, m.title, m.domain])).toEqual([
      ['SEC-001', 'Sicherheit: Authentisierung und Identitäten (1/2)', 'AUTH'],
      ['SEC-002', 'Sicherheit: Authentisierung und Identitäten (2/2)', 'AUTH'],
      ['SEC-003', 'Sicherheit: Netzwerksicherheit', 'NET'],
    ]);
  });

  it('lists the control titles after the block description, and keeps the description within 2000 characters', () => {
    expect(planModules(block(), ['AUTH-001', 'AUTH-002'].map(c))[0]!.description).toBe(
      'Sicherheitsmaßnahmen: T AUTH-001; T AUTH-002.',
    );
    expect(planModules(block({ description: 'Für alle.' }), [c('AUTH-001')])[0]!.description).toBe(
      'Für alle. Sicherheitsmaßnahmen: T AUTH-001.',
    );
    const long = planModules(block({ description: 'x'.repeat(2100) }), [c('AUTH-001')])[0]!.description;
    expect(long).toBe('x'.repeat(2000));
  });

  it('orders modules by domain, not by control id, when a control id names another domain', () => {
    // tenants may file a control under any domain: ZZZ-001 of domain ACC comes before AAA-001 of domain NET
    const own = (id: string, domain: string): CanonicalControl => ({ ...c(id), domain });
    const plan = planModules(block(), [own('AAA-001', 'NET'), own('ZZZ-001', 'ACC')]);
    expect(plan.map((m) => [m.module_code, m.domain, m.control_ids])).toEqual([
      ['SEC-001', 'ACC', ['ZZZ-001']],
      ['SEC-002', 'NET', ['AAA-001']],
    ]);
  });

  it('sorts domains by code, whatever order the controls come in', () => {
    const plan = planModules(block(), ['SUP-001', 'ACC-001', 'NET-001', 'AUTH-001'].map(c));
    expect(plan.map((m) => m.domain)).toEqual(['ACC', 'AUTH', 'NET', 'SUP']);
  });
});

describe('domainName', () => {
  it.each([
    ['CRYP', 'de', 'Kryptografie'],
    ['CRYP', 'en', 'Cryptography'],
    ['HR', 'en', 'People and awareness'],
    ['XYZ', 'en', 'XYZ'],
    ['XYZ', 'de', 'XYZ'],
  ] as const)('%s in %s is %s', (domain, language, name) => {
    expect(domainName(domain, language)).toBe(name);
  });

  // the names a generated module's title carries, in both languages, for every domain of the catalogue
  it.each([
    ['AUTH', 'Authentisierung und Identitäten', 'Authentication and identities'],
    ['CRYP', 'Kryptografie', 'Cryptography'],
    ['NET', 'Netzwerksicherheit', 'Network security'],
    ['LOG', 'Protokollierung und Überwachung', 'Logging and monitoring'],
    ['DATA', 'Datenschutz und Datensicherheit', 'Data protection and data security'],
    ['ACC', 'Zugriffssteuerung', 'Access control'],
    ['INC', 'Umgang mit Sicherheitsvorfällen', 'Incident handling'],
    ['BCM', 'Notfallmanagement', 'Business continuity'],
    ['SUP', 'Lieferkette und Dienstleister', 'Supply chain and suppliers'],
    ['HR', 'Personal und Sensibilisierung', 'People and awareness'],
    ['PHY', 'Physische Sicherheit', 'Physical security'],
    ['DEV', 'Sichere Entwicklung', 'Secure development'],
    ['AI', 'Künstliche Intelligenz', 'Artificial intelligence'],
  ])('names domain %s "%s" in German and "%s" in English', (domain, de, en) => {
    expect([domainName(domain, 'de'), domainName(domain, 'en')]).toEqual([de, en]);
    expect(planModules(block(), [c(`${domain}-001`)])[0]!.title).toBe(`Sicherheit: ${de}`);
  });

  it('speaks German unless told otherwise', () => {
    expect(domainName('LOG')).toBe('Protokollierung und Überwachung');
  });
});

describe('blockFilter', () => {
  it('drops blank entries of a list, trims them, and leaves out filters that are not set', () => {
    expect(
      blockFilter(block({ domain_filter: ' AUTH ,, NET,', category_filter: 'identity', severity_filter: '' })),
    ).toEqual({ domain: ['AUTH', 'NET'], category: ['identity'], severity: undefined, target_audience: undefined });
  });

  it('sets no filter at all for a block without filters', () => {
    expect(blockFilter(block())).toEqual({
      domain: undefined,
      category: undefined,
      severity: undefined,
      target_audience: undefined,
    });
  });
});

describe('rolesFor', () => {
  // audience "all" suits R4 and R9; ISO 27001 adds no role of its own
  it.each([
    ['AUTH', ['R4', 'R8', 'R9']],
    ['CRYP', ['R4', 'R8', 'R9']],
    ['NET', ['R4', 'R8', 'R9']],
    ['LOG', ['R4', 'R8', 'R9']],
    ['ACC', ['R2', 'R4', 'R8', 'R9']],
    ['DEV', ['R4', 'R7', 'R8', 'R9']],
    ['DATA', ['R3', 'R4', 'R9']],
    ['INC', ['R2', 'R4', 'R9']],
    ['BCM', ['R1', 'R2', 'R4', 'R9']],
    ['SUP', ['R4', 'R6', 'R9']],
    ['HR', ['R4', 'R5', 'R9']],
    ['PHY', ['R4', 'R9']],
    ['AI', ['R3', 'R4', 'R7', 'R9']],
    ['ZZZ', ['R4', 'R9']],
  ])('suggests a module of domain %s to %j', (domain, roles) => {
    expect(rolesFor({ target_audience_filter: 'all', regulation_area: 'iso27001' }, [domain])).toEqual(roles);
  });

  it.each([
    ['dsgvo', ['R3', 'R4', 'R9']],
    ['nis2', ['R1', 'R4', 'R9']],
    ['ai_act', ['R4', 'R9']],
  ] as const)('adds the roles area %s requires', (area, roles) => {
    expect(rolesFor({ target_audience_filter: null, regulation_area: area }, [])).toEqual(roles);
  });

  it.each([
    ['PHY', ['R2', 'R4', 'R8', 'R9']],
    ['HR', ['R2', 'R4', 'R5', 'R8', 'R9']],
    ['DATA', ['R2', 'R3', 'R4', 'R8']],
  ])('adds the roles of domain %s to those of a provider audience: %j', (domain, roles) => {
    expect(rolesFor({ target_audience_filter: 'provider', regulation_area: 'iso27001' }, [domain])).toEqual(roles);
  });

  it('orders roles by number, R10 last, each once', () => {
    expect(rolesFor({ target_audience_filter: 'authority', regulation_area: 'nis2' }, ['BCM', 'AUTH', 'NET'])).toEqual([
      'R1',
      'R2',
      'R4',
      'R8',
      'R10',
    ]);
  });
});
