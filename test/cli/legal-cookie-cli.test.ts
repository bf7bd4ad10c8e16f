import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrast, lintCookieBanner } from '../../src/domain/cookie-banner/cookie-banner.lint.js';
import { defaultCookieBanner } from '../../src/domain/cookie-banner/cookie-banner.schema.js';
import { lineDiff } from '../../src/domain/legal-documents/line-diff.js';
import { cli, tmp, tmpDb } from '../support/helpers.js';

const write = (name: string, content: string) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};

describe('legal-docs on the command line', () => {
  it('creates, versions, publishes and diffs', async () => {
    const db = tmpDb();
    const run = (...a: string[]) => cli(['--db', db, ...a]);
    const doc = JSON.parse((await run('legal-docs', 'create', '--title', 'AGB', '--type', 'terms', '--json')).stdout);
    const v1 = JSON.parse(
      (
        await run(
          'legal-docs',
          'add-version',
          doc.id,
          '--file',
          write('v1.md', '# AGB\n\n§1 Geltung\n§2 Preise\n§3 Haftung\n'),
          '--json',
        )
      ).stdout,
    );
    const v2 = JSON.parse(
      (
        await run(
          'legal-docs',
          'add-version',
          doc.id,
          '--file',
          write('v2.md', '# AGB\n\n§1 Geltung\n§2 Preise inkl. USt.\n§3 Haftung\n§4 Gerichtsstand\n'),
          '--summary',
          'Preise',
          '--json',
        )
      ).stdout,
    );
    expect(v2.version_number).toBe(2);
    for (const step of ['submit', 'approve', 'publish']) expect((await run('legal-docs', step, v1.id)).code).toBe(0);
    expect((await run('legal-docs', 'publish', v2.id)).code).toBe(5);
    const diff = await run('legal-docs', 'diff', '1', '2', '--document', doc.id);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('-§2 Preise\n+§2 Preise inkl. USt.');
    expect(diff.stdout).toContain('+§4 Gerichtsstand');
    expect((await run('legal-docs', 'diff', v1.id, v2.id)).stdout).toBe(diff.stdout);
    const versions = await run('legal-docs', 'versions', doc.id);
    expect(versions.stdout.split('\n')[1]).toMatch(/\t1\tAGB\tpublished\t/);
    expect((await run('legal-docs', 'create', '--title', 'x', '--type', 'contract')).code).toBe(2);
    expect((await run('legal-docs', 'diff', '1', '9', '--document', doc.id)).code).toBe(3);
  });

  it('diffs lines by longest common subsequence', () => {
    const d = lineDiff('a\nb\nc\nd', 'a\nc\nx\nd');
    expect(d.map((l) => l.op + l.text)).toEqual([' a', '-b', ' c', '+x', ' d']);
    expect(lineDiff('a\nold\nz', 'a\nnew\nz').map((l) => l.op + l.text)).toEqual([' a', '-old', '+new', ' z']);
    expect(lineDiff('same', 'same').every((l) => l.op === ' ')).toBe(true);
  });
});

describe('cookie-banner lint', () => {
  it('passes the default configuration', () => {
    expect(lintCookieBanner(defaultCookieBanner('t'))).toEqual([]);
  });

  it('computes WCAG contrast', () => {
    expect(contrast('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('exits 6 with its findings for a banner that breaks the rules, 0 once fixed', async () => {
    const db = tmpDb();
    const bad = {
      categories: [
        { id: 'necessary', name: 'N', isRequired: true, defaultEnabled: true },
        { id: 'marketing', name: 'M', isRequired: false, defaultEnabled: true },
      ],
      config: {
        position: 'bottom',
        style: 'bar',
        primaryColor: '#ffcc00',
        showDeclineAll: false,
        showSettings: true,
        banner_texts: { title: '', description: 'Cookies.', privacyLink: '' },
      },
    };
    expect(
      (await cli(['--db', db, 'cookie-banner', 'set', '--file', write('bad.json', JSON.stringify(bad))])).code,
    ).toBe(0);
    const r = await cli(['--db', db, 'cookie-banner', 'lint', '--json']);
    expect(r.code).toBe(6);
    const rules = JSON.parse(r.stdout).findings.map((f: { rule: string }) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['decline-all', 'no-preticked', 'privacy-link', 'texts', 'contrast']));
    const good = {
      ...bad,
      categories: [bad.categories[0], { ...bad.categories[1], defaultEnabled: false }],
      config: {
        ...bad.config,
        primaryColor: '#0b5cab',
        showDeclineAll: true,
        banner_texts: {
          title: 'Cookies',
          description: 'Wir setzen Marketing-Cookies nur mit Ihrer Einwilligung ein.',
          privacyLink: '/datenschutz',
        },
      },
    };
    const fileLint = await cli([
      '--db',
      db,
      'cookie-banner',
      'lint',
      '--file',
      write('good.json', JSON.stringify(good)),
    ]);
    expect(fileLint.code).toBe(0);
    expect(fileLint.stdout).toContain('no findings');
    expect(
      (
        await cli([
          '--db',
          db,
          'cookie-banner',
          'set',
          '--file',
          write('red.json', JSON.stringify({ ...good, config: { ...good.config, primaryColor: 'red' } })),
        ])
      ).code,
    ).toBe(2);
  });
});
