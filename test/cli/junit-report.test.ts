import { describe, expect, it } from 'vitest';
import { junit } from '../../src/cli/commands/training/junit.js';
import type { Assignment } from '../../src/domain/training/training.schema.js';
import { parseXml } from '../support/xml.js';

const row = (user_name: string, user_email: string) =>
  ({
    id: '0193f0a0-0000-7000-8000-000000000001',
    module_code: 'DSGVO-BASIS',
    module_title: 'Datenschutz <Grundlagen> & "Praxis"',
    user_name,
    user_email,
    deadline: '2026-11-01T00:00:00.000Z',
    days_overdue: 10,
    level: 1,
  }) as unknown as Assignment & { days_overdue: number; level: number };

describe('the JUnit report', () => {
  it('stays well-formed XML whatever characters a name holds', () => {
    const names = [
      'Bell\u0007 Escape\u001b[31m Null\u0000',
      'Lone \uD800 surrogate and \uDC00 too, \uFFFE\uFFFF',
      'Tab\there, line\nbreak, return\r',
      'Emoji 👩‍💼 and umlauts äöüß',
    ];
    const doc = parseXml(
      junit(
        names.map((n, i) => row(n, `u${i}@example.com`)),
        '2026-11-11T00:00:00.000Z',
      ),
    );
    const cases = doc.children[0]!.children;
    expect(cases.map((c) => c.attrs.name)).toEqual([
      'Bell Escape[31m Null <u0@example.com>: Datenschutz <Grundlagen> & "Praxis"',
      'Lone  surrogate and  too,  <u1@example.com>: Datenschutz <Grundlagen> & "Praxis"',
      'Tab\there, line\nbreak, return\r <u2@example.com>: Datenschutz <Grundlagen> & "Praxis"',
      'Emoji 👩‍💼 and umlauts äöüß <u3@example.com>: Datenschutz <Grundlagen> & "Praxis"',
    ]);
  });

  it('names the assignment instead of the person without personal data', () => {
    const xml = junit([row('Anna Schmidt', 'anna@example.com')], '2026-11-11T00:00:00.000Z', { personal: false });
    expect(xml).not.toMatch(/Anna|anna@/);
    const [testcase] = parseXml(xml).children[0]!.children;
    expect(testcase!.attrs.name).toBe(
      'assignment 0193f0a0-0000-7000-8000-000000000001: Datenschutz <Grundlagen> & "Praxis"',
    );
  });
});
