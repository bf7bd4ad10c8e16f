import { describe, expect, it } from 'vitest';
import { attention, resolvePeriod } from '../../src/domain/report/management-report.service.js';
import { managementDocument } from '../../src/domain/report/management-report.document.js';
import type { ManagementReport } from '../../src/domain/report/management-report.schema.js';
import { DEFAULT_THRESHOLDS, crosses } from '../../src/domain/report/management-report.thresholds.js';
import { chartTable, type Block, type ChartSpec } from '../../src/domain/report.js';
import { formatMonth, formatNumber, formatPercent } from '../../src/domain/report-locale.js';
import type { DomainError } from '../../src/domain/errors.js';

const fails = (f: () => unknown): DomainError => {
  try {
    f();
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected an error');
};

describe('the period of a management report', () => {
  it.each([
    [{}, '2026-11-25T10:00:00Z', '2025-12-01', '2026-11-25', 12, '2026-11-26'],
    [{ to: '2026-03-31' }, '2026-11-25T10:00:00Z', '2025-04-01', '2026-03-31', 12, '2026-04-01'],
    [{ from: '2026-01-15', to: '2026-01-20' }, '2026-11-25T10:00:00Z', '2026-01-15', '2026-01-20', 1, '2026-01-21'],
    [{ from: '2025-12-31', to: '2026-01-01' }, '2026-11-25T10:00:00Z', '2025-12-31', '2026-01-01', 2, '2026-01-02'],
    [{ from: '2021-12-01', to: '2026-11-30' }, '2026-11-25T10:00:00Z', '2021-12-01', '2026-11-30', 60, '2026-12-01'],
  ])('%j at %s: %s to %s, %i months, until %s', (q, now, from, to, months, until) => {
    const p = resolvePeriod(q, new Date(now));
    expect([p.from, p.to, p.months.length, p.until]).toEqual([from, to, months, until]);
    expect(p.months[0]).toBe(from.slice(0, 7));
    expect(p.months.at(-1)).toBe(to.slice(0, 7));
  });

  it('refuses a period that ends before it starts, or spans more than 60 months, naming from', () => {
    let e = fails(() => resolvePeriod({ from: '2026-02-01', to: '2026-01-31' }, new Date()));
    expect([e.code, e.details]).toEqual([
      'validation',
      [{ path: 'from', message: 'must not be after to (2026-01-31)' }],
    ]);
    e = fails(() => resolvePeriod({ from: '2021-11-30', to: '2026-11-30' }, new Date()));
    expect([e.code, e.details[0]!.path, e.message]).toEqual([
      'validation',
      'from',
      'the period spans 61 months; a report covers at most 60',
    ]);
  });
});

describe('thresholds', () => {
  it.each([
    ['min_completion_rate', 89.9, true],
    ['min_completion_rate', 90, false],
    ['max_overdue', 0, false],
    ['max_overdue', 1, true],
    ['max_revocation_rate', 20, false],
    ['max_revocation_rate', 20.1, true],
  ] as const)('%s at %d crosses the default: %s', (name, value, flagged) => {
    expect(crosses(name, value, DEFAULT_THRESHOLDS[name])).toBe(flagged);
  });
});

/** A report with nothing in it, to change one part at a time. */
function emptyReport(): ManagementReport {
  return {
    tenant_id: 't',
    generated_at: '2026-03-20T12:00:00.000Z',
    period: { from: '2026-01-01', to: '2026-03-31', months: ['2026-01', '2026-02', '2026-03'] },
    thresholds: { ...DEFAULT_THRESHOLDS },
    attention: [],
    training: {
      total_modules: 0,
      total_assignments: 0,
      completed: 0,
      completion_rate: 0,
      overdue: 0,
      overdue_by_level: [0, 1, 2, 3, 4].map((level) => ({ level, count: 0 })),
      by_module: [],
      by_role: [],
      completions_per_month: ['2026-01', '2026-02', '2026-03'].map((month) => ({ month, count: 0 })),
      certificates: {
        total: 0,
        in_period: 0,
        per_month: ['2026-01', '2026-02', '2026-03'].map((month) => ({ month, count: 0 })),
      },
      quiz: { attempts: 0, avg_score: 0, by_module: [] },
    },
    consents: {
      total: 0,
      active: 0,
      revoked: 0,
      refused: 0,
      conversion_rate: 0,
      by_data_point: [],
      opt_in: [],
      revocations_per_month: ['2026-01', '2026-02', '2026-03'].map((month) => ({ month, count: 0 })),
    },
    dsfa: {
      total: 0,
      by_status: {},
      by_risk_level: {},
      by_status_and_risk: [],
      reviews_due: [],
      approvals: { count: 0, median_days: null, mean_days: null, max_days: null, buckets: [], items: [] },
    },
    legal: { documents: [], published_in_period: [], banner: { configured: false, updated_at: null, findings: [] } },
  };
}

describe('what needs attention', () => {
  it('lists tenant-wide figures once and per-subject figures with the subjects that crossed, worst first', () => {
    const r = emptyReport();
    r.training.total_assignments = 10;
    r.training.completion_rate = 80;
    r.training.by_module = [
      { module_id: 'a', module_code: 'A', module_title: 'A', total: 5, completed: 5, completion_rate: 100 },
      { module_id: 'b', module_code: 'B', module_title: 'B', total: 5, completed: 2, completion_rate: 40 },
      { module_id: 'c', module_code: 'C', module_title: 'C', total: 5, completed: 1, completion_rate: 20 },
    ];
    r.consents.by_data_point = [
      { data_point_id: 'x', total: 10, active: 5, revoked: 5, refused: 0, revocation_rate: 50 },
      { data_point_id: 'y', total: 10, active: 7, revoked: 3, refused: 0, revocation_rate: 30 },
      { data_point_id: 'z', total: 10, active: 0, revoked: 0, refused: 10, revocation_rate: 0 },
    ];
    expect(attention(r, DEFAULT_THRESHOLDS)).toEqual([
      { threshold: 'min_completion_rate', section: 'training', scope: 'tenant', value: 80, limit: 90 },
      {
        threshold: 'min_completion_rate',
        section: 'training',
        scope: 'module',
        value: 20,
        limit: 90,
        subjects: [
          { subject: 'C', value: 20 },
          { subject: 'B', value: 40 },
        ],
        of: 3,
      },
      {
        threshold: 'max_revocation_rate',
        section: 'consents',
        scope: 'data_point',
        value: 50,
        limit: 20,
        subjects: [
          { subject: 'x', value: 50 },
          { subject: 'y', value: 30 },
        ],
        of: 2, // a data point with refusals only has nothing to revoke
      },
      // and a tenant without legal documents has no privacy policy
      { threshold: 'min_privacy_policies', section: 'legal', scope: 'tenant', value: 0, limit: 1 },
    ]);
  });

  it('flags an empty tenant for its missing privacy policy only, and then a banner finding', () => {
    const r = emptyReport();
    expect(attention(r, DEFAULT_THRESHOLDS)).toEqual([
      { threshold: 'min_privacy_policies', section: 'legal', scope: 'tenant', value: 0, limit: 1 },
    ]);
    r.legal.banner.findings = [{ rule: 'decline-all', path: 'config', message: 'm' }];
    expect(attention(r, DEFAULT_THRESHOLDS).map((a) => a.threshold)).toEqual([
      'min_privacy_policies',
      'max_banner_findings',
    ]);
  });

  it('counts a privacy policy only once it has a published version; 0 turns the rule off', () => {
    const r = emptyReport();
    const policy = {
      id: 'd1',
      title: 'Datenschutzerklärung',
      document_type: 'privacy_policy',
      language: 'de',
      published_version: null as number | null,
      published_at: null as string | null,
    };
    r.legal.documents = [{ ...policy, id: 'd0', document_type: 'imprint', published_version: 1 }, policy];
    expect(attention(r, DEFAULT_THRESHOLDS).map((a) => [a.threshold, a.value])).toEqual([
      ['max_unpublished_documents', 1],
      ['min_privacy_policies', 0],
    ]);
    policy.published_version = 1;
    expect(attention(r, DEFAULT_THRESHOLDS)).toEqual([]);
    r.legal.documents = [];
    expect(attention(r, { ...DEFAULT_THRESHOLDS, min_privacy_policies: 0 })).toEqual([]);
  });
});

describe('the management report as a document', () => {
  const charts = (blocks: Block[]): ChartSpec[] =>
    blocks.filter((b): b is Extract<Block, { kind: 'chart' }> => b.kind === 'chart').map((b) => b.chart);

  it('writes numbers, months, the period and the generation time in the language asked for', () => {
    const r = emptyReport();
    r.consents = {
      ...r.consents,
      total: 1234,
      active: 1000,
      conversion_rate: 87.5,
      by_data_point: [
        { data_point_id: 'newsletter', total: 1234, active: 1000, revoked: 34, refused: 200, revocation_rate: 3.3 },
      ],
    };
    const de = managementDocument(r, { lang: 'de', timeZone: 'Europe/Berlin' });
    const en = managementDocument(r, { lang: 'en', timeZone: 'Europe/London' });
    expect(de.footer).toBe('Zeitraum: 01.01.2026 – 31.03.2026 · Erstellt: 20.03.2026, 13:00 MEZ');
    expect(en.footer).toBe('Period: 1 Jan 2026 – 31 Mar 2026 · Generated: 20 Mar 2026, 12:00 GMT');
    expect(de.pageWords).toEqual(['Seite', 'von']);
    const fields = (d: typeof de) => d.blocks.find((b) => b.kind === 'fields') as Extract<Block, { kind: 'fields' }>;
    expect(fields(de).rows).toContainEqual(['Aktive Einwilligungen (von allen)', '1.000 / 1.234']);
    expect(fields(en).rows).toContainEqual(['Active consents (of all)', '1,000 / 1,234']);
    const revocations = charts(de.blocks).find((c) => c.title === 'Widerrufe je Monat')!;
    expect(revocations.categories).toEqual(['Jan. 2026', 'Feb. 2026', 'März 2026']);
    expect(revocations.axisLabels).toEqual(['Jan. 26', 'Feb. 26', 'März 26']);
    expect(charts(en.blocks).find((c) => c.title === 'Revocations per month')!.categories).toEqual([
      'Jan 2026',
      'Feb 2026',
      'Mar 2026',
    ]);
  });

  it('gives every chart a description and a table of its data', () => {
    const r = emptyReport();
    r.training.total_assignments = 2;
    r.training.by_module = [
      { module_id: 'a', module_code: 'A', module_title: 'Alpha', total: 2, completed: 1, completion_rate: 50 },
    ];
    r.training.by_role = [{ role_code: null, total: 2, completed: 1, completion_rate: 50 }];
    const doc = managementDocument(r, { lang: 'de', timeZone: 'UTC' });
    const all = charts(doc.blocks);
    expect(all.map((c) => c.kind)).toEqual(['bar', 'bar', 'bar', 'line']);
    for (const c of all)
      expect(c.description).toMatch(
        /^(Balkendiagramm|Liniendiagramm) „.+“: \d+ Werte; die Daten stehen in der Tabelle darunter\.$/,
      );
    const byModule = all[0]!;
    expect(chartTable(byModule, 'de')).toEqual({
      head: ['Modul', 'Abschlussquote'],
      rows: [['A – Alpha', '50\u00a0%']],
    });
    expect(all[1]!.categories).toEqual(['ohne Rolle']);
    expect(chartTable({ ...byModule, series: [{ name: 'x', values: [null] }] }, 'en').rows).toEqual([
      ['A – Alpha', '–'],
    ]);
  });
});

describe('report locale', () => {
  it.each([
    [1234.56, 'de', '1.234,6', '1.234,6\u00a0%'], // a space that does not break, as Intl writes it
    [1234.56, 'en', '1,234.6', '1,234.6%'],
    [0, 'de', '0', '0\u00a0%'],
  ] as const)('%d in %s: %s and %s', (n, lang, number, percent) => {
    expect(formatNumber(n, lang)).toBe(number);
    expect(formatPercent(n, lang)).toBe(percent);
  });
  it('names months in either language', () => {
    expect([formatMonth('2026-09', 'de'), formatMonth('2026-09', 'en', true)]).toEqual(['Sept. 2026', 'Sept 26']);
  });
});
