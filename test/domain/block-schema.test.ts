import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BlockCreate, BlockGenerate, BlockUpdate } from '../../src/domain/training-blocks/block.schema.js';
import { CanonicalControl, CanonicalImport } from '../../src/domain/training-blocks/canonical.schema.js';

const block = { name: 'Zugang', regulation_area: 'iso27001', module_code_prefix: 'SEC-AUTH' };
const control = {
  id: 'AUTH-001',
  title: 'Starke Anmeldung',
  objective: 'Konten sind mit mehr als einem Faktor geschützt.',
  domain: 'AUTH',
  category: 'Identität',
  severity: 'high',
  target_audience: 'all',
};

const accepts = (schema: z.ZodType, v: unknown) => schema.safeParse(v).success;

describe('a training block configuration', () => {
  it('takes its defaults: empty description, annual, 30 minutes, 70 % to pass, 10 controls per module', () => {
    expect(BlockCreate.parse(block)).toMatchObject({
      description: '',
      frequency_type: 'annual',
      duration_minutes: 30,
      pass_threshold: 70,
      max_controls_per_module: 10,
    });
  });

  it.each([
    ['description', 'x'.repeat(4000), 'x'.repeat(4001)],
    ['duration_minutes', 1, 0],
    ['duration_minutes', 600, 601],
    ['pass_threshold', 0, -1],
    ['pass_threshold', 100, 101],
    ['max_controls_per_module', 1, 0],
    ['max_controls_per_module', 100, 101],
    ['severity_filter', 'high,critical', 'high;critical'],
    ['severity_filter', ' low ', 'lowest'],
    ['severity_filter', 'medium', 'x,medium'],
    ['module_code_prefix', 'A', 'a'],
    ['module_code_prefix', ' SEC-AUTH ', 'SEC AUTH'],
    ['module_code_prefix', 'A'.repeat(20), 'A'.repeat(21)],
    ['module_code_prefix', 'SEC1', '-SEC'],
  ])('%s takes %j and refuses %j, on create and on update', (field, ok, bad) => {
    expect(accepts(BlockCreate, { ...block, [field]: ok })).toBe(true);
    expect(accepts(BlockCreate, { ...block, [field]: bad })).toBe(false);
    expect(accepts(BlockUpdate, { [field]: ok })).toBe(true);
    expect(accepts(BlockUpdate, { [field]: bad })).toBe(false);
  });

  it('names the allowed severities and the prefix rule when it refuses them', () => {
    const severity = BlockCreate.safeParse({ ...block, severity_filter: 'urgent' });
    expect(severity.error?.issues[0]?.message).toBe('one or more of low, medium, high, critical, comma-separated');
    const prefix = BlockCreate.safeParse({ ...block, module_code_prefix: 'sec' });
    expect(prefix.error?.issues[0]?.message).toBe(
      'capital letters, digits and -, at most 20 characters, e.g. SEC-AUTH',
    );
  });

  it('trims the prefix it stores', () => {
    expect(BlockCreate.parse({ ...block, module_code_prefix: '  SEC ' }).module_code_prefix).toBe('SEC');
  });

  it('trims the severity filter it stores', () => {
    expect(BlockCreate.parse({ ...block, severity_filter: ' high,critical ' }).severity_filter).toBe('high,critical');
    expect(BlockUpdate.parse({ severity_filter: ' low ' }).severity_filter).toBe('low');
  });
});

describe('a request to generate a block', () => {
  it('writes German content, fills the role matrix and asks the language model by default', () => {
    expect(BlockGenerate.parse({})).toEqual({ language: 'de', auto_matrix: true, skip_content: false });
  });

  it('takes German and English, and names both when it refuses another language', () => {
    expect(BlockGenerate.parse({ language: 'en' }).language).toBe('en');
    expect(BlockGenerate.parse({ language: 'de' }).language).toBe('de');
    const fr = BlockGenerate.safeParse({ language: 'fr' });
    expect(fr.error?.issues[0]?.message).toMatch(/"de"\|"en"/);
  });
});

describe('a canonical control', () => {
  it('takes empty framework references by default', () => {
    expect(CanonicalControl.parse(control).references).toEqual({ iso27001: [], nis2: [], bsi: [], nist: [] });
  });

  it.each([
    ['id', 'AB-123', 'AUTH-01'],
    ['id', 'ABCDEF-999', '1AUTH-001'],
    ['id', 'AUTH-001', 'AUTH-0011'],
    ['id', 'AUTH-001', 'auth-001'],
    ['id', 'AUTH-001', 'A-001'],
    ['domain', 'AB', 'A'],
    ['domain', 'ABCDEF', 'ABCDEFG'],
    ['domain', 'AUTH', 'AUTH1'],
    ['domain', 'AUTH', '1AUTH'],
  ])('%s takes %j and refuses %j', (field, ok, bad) => {
    expect(accepts(CanonicalControl, { ...control, [field]: ok })).toBe(true);
    expect(accepts(CanonicalControl, { ...control, [field]: bad })).toBe(false);
  });

  it('trims title, objective, category and references', () => {
    const c = CanonicalControl.parse({
      ...control,
      title: ' Anmeldung ',
      objective: ' Ziel ',
      category: ' Identität ',
      references: { iso27001: [' A.5.17 '] },
    });
    expect(c).toMatchObject({ title: 'Anmeldung', objective: 'Ziel', category: 'Identität' });
    expect(c.references).toEqual({ iso27001: ['A.5.17'], nis2: [], bsi: [], nist: [] });
  });

  it('names the id and domain rules when it refuses them', () => {
    expect(CanonicalControl.safeParse({ ...control, domain: 'auth' }).error?.issues[0]?.message).toBe(
      'expected 2 to 6 capital letters, e.g. AUTH',
    );
    expect(CanonicalControl.safeParse({ ...control, id: 'AUTH-1' }).error?.issues[0]?.message).toBe(
      'expected DOMAIN-NNN, e.g. AUTH-001',
    );
  });
});

describe('an import of canonical controls', () => {
  it('refuses an empty list, saying it needs at least one control', () => {
    const r = CanonicalImport.safeParse({ controls: [] });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['controls', 'at least one control']]);
    expect(CanonicalImport.parse({ controls: [{}] })).toEqual({ controls: [{}], dry_run: false });
  });
});
