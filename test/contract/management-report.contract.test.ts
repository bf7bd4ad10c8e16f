import { beforeAll, describe, expect, it } from 'vitest';
import type { ManagementReport } from '../../src/domain/report/management-report.schema.js';
import { lintCookieBanner } from '../../src/domain/cookie-banner/cookie-banner.lint.js';
import { parseXml, type XmlNode } from '../support/xml.js';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';

// The management report against each area's own routes on generated data: every figure it shows must equal what the
// statistics routes (or the lists they summarise) answer for the same store, on every engine and face.
const questions = [
  { question: 'Eins?', options: ['a', 'b'], correct_index: 0 },
  { question: 'Zwei?', options: ['a', 'b', 'c'], correct_index: 2 },
];
const month = (ts: string) => ts.slice(0, 7);
const count = <T>(xs: T[], key: (x: T) => string) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
};

describe.each(BACKEND_NAMES)('management report on the %s backend', (name) => {
  let now = new Date('2026-01-10T08:00:00.000Z');
  const clock = { now: () => new Date(now) };
  const T = { tenant: 'mgmt', actor: 'officer' };
  const O = { tenant: 'other-mgmt', actor: 'officer' };
  const period = { from: '2026-01-01', to: '2026-03-31' };
  let report: ManagementReport;
  const mod: Record<string, string> = {};

  const b = useBackend(name, { clock });
  beforeAll(async () => {
    const tr = b.backend.training;
    for (const code of ['A-1', 'B-1']) {
      mod[code] = (
        await tr.createModule({
          ...T,
          body: {
            module_code: code,
            title: `Modul ${code}`,
            regulation_area: 'dsgvo',
            frequency_type: 'annual',
            questions,
          },
        })
      ).id;
    }
    await tr.setMatrix({ ...T, body: { role_code: 'R9', module_id: mod['A-1']! } });
    await tr.setMatrix({ ...T, body: { role_code: 'R9', module_id: mod['B-1']! } });
    await tr.setMatrix({ ...T, body: { role_code: 'R1', module_id: mod['A-1']! } });
    for (const u of ['u1', 'u2', 'u3', 'u4', 'u5'])
      await tr.compute({
        ...T,
        body: {
          user_id: u,
          user_name: `User ${u}`,
          user_email: `${u}@example.com`,
          roles: u === 'u5' ? ['R1'] : ['R9'],
        },
      });
    const assignments = await tr.listAssignments({ ...T, query: { limit: 500 } });
    const of = (u: string, code: string) => assignments.find((a) => a.user_id === u && a.module_code === code)!.id;
    const quiz = await tr.quiz({ ...T, params: { moduleId: mod['A-1']! } });
    const answers = (right: boolean) =>
      quiz.questions.map((q, i) => ({ question_id: q.id, selected_index: right ? [0, 2][i]! : 1 }));
    const finish = async (u: string, code: string, pass?: boolean) => {
      const id = of(u, code);
      await tr.start({ ...T, params: { id } });
      if (pass !== undefined)
        await tr.submitQuiz({
          ...T,
          params: { moduleId: mod[code]! },
          body: { assignment_id: id, answers: answers(pass) },
        });
      await tr.complete({ ...T, params: { id } });
      if (pass) await tr.generateCertificate({ ...T, params: { assignmentId: id }, body: {} });
    };
    await finish('u1', 'A-1', true);
    await finish('u2', 'A-1', false);
    await finish('u3', 'B-1');
    now = new Date('2026-02-14T09:00:00.000Z');
    await finish('u4', 'A-1', true);
    // one open assignment with a later deadline: 10 days overdue on March 20 (level 1), the rest 39 days (level 3)
    await tr.updateAssignment({
      ...T,
      params: { id: of('u4', 'B-1') },
      body: { deadline: '2026-03-10T00:00:00.000Z' },
    });

    // consents in three months (recorded afterwards, with the time they were given); two revoked in March
    now = new Date('2026-03-20T12:00:00.000Z');
    const c = b.backend.consents;
    const grants: Array<[string, boolean, string]> = [
      ['newsletter', true, '2026-01-05T10:00:00Z'],
      ['newsletter', true, '2026-01-20T10:00:00Z'],
      ['newsletter', false, '2026-01-21T10:00:00Z'],
      ['newsletter', true, '2026-02-02T10:00:00Z'],
      ['newsletter', true, '2026-03-01T10:00:00Z'],
      ['analytics', false, '2026-02-03T10:00:00Z'],
      ['analytics', false, '2026-02-04T10:00:00Z'],
      ['analytics', true, '2026-02-05T10:00:00Z'],
      ['analytics', true, '2025-12-24T10:00:00Z'], // before the period: counted in the totals, not in the months
    ];
    const created = [];
    for (const [i, [dp, granted, at]] of grants.entries())
      created.push(
        await c.create({ ...T, body: { user_id: `p${i}@example.com`, data_point_id: dp, granted, granted_at: at } }),
      );
    await c.create({ ...O, body: { user_id: 'x@example.com', data_point_id: 'newsletter', granted: true } });

    // assessments: one approved after 35 days, one past its review date, one that needs an update
    const d = b.backend.dsfa;
    now = new Date('2026-01-10T08:00:00.000Z');
    const a1 = await d.create({ ...T, body: { title: 'Videoüberwachung', risk_level: 'high' } });
    const a2 = await d.create({
      ...T,
      body: { title: 'Bewerbermanagement', risk_level: 'medium', review_date: '2026-03-01' },
    });
    const a3 = await d.create({ ...T, body: { title: 'Newsletter', risk_level: 'low', status: 'in-review' } });
    now = new Date('2026-02-14T08:00:00.000Z');
    await d.setStatus({ ...T, params: { id: a1.id }, body: { status: 'approved', approved_by: 'dpo' } });
    await d.setStatus({ ...T, params: { id: a3.id }, body: { status: 'approved', approved_by: 'dpo' } });
    await d.update({ ...T, params: { id: a3.id }, body: { description: 'geändert' } }); // -> needs-update
    void a2;
    await d.create({ ...O, body: { title: 'Fremd', risk_level: 'critical' } });

    // legal documents: one published in February, one never; a banner with an optional category on by default
    const l = b.backend.legalDocuments;
    const doc = await l.create({ ...T, body: { title: 'Datenschutzerklärung', document_type: 'privacy_policy' } });
    await l.create({ ...T, body: { title: 'Impressum', document_type: 'imprint' } });
    const v = await l.addVersion({ ...T, params: { id: doc.id }, body: { title: 'v1', content: '# Datenschutz' } });
    await l.submit({ ...T, params: { id: v.id }, body: {} });
    await l.approve({ ...T, params: { id: v.id }, body: { approved_by: 'dpo' } });
    await l.publish({ ...T, params: { id: v.id }, body: {} });
    const banner = await b.backend.cookieBanner.get(T);
    await b.backend.cookieBanner.put({
      ...T,
      body: {
        categories: banner.categories.map((x) => (x.id === 'analytics' ? { ...x, defaultEnabled: true } : x)),
        config: banner.config,
      },
    });

    now = new Date('2026-03-20T12:00:00.000Z');
    await c.revoke({ ...T, params: { id: created[0]!.id } });
    await c.revoke({ ...T, params: { id: created[1]!.id } });
    report = await b.backend.reports.management({ ...T, query: period });
  });
  it('training: completion, overdue and quiz figures equal the training statistics and lists', async () => {
    const tr = b.backend.training;
    const stats = await tr.stats(T);
    const t = report.training;
    expect(t.total_assignments).toBe(stats.total_assignments);
    expect(t.completed).toBe(stats.completed_count);
    expect(t.completion_rate).toBe(stats.completion_rate);
    expect(t.overdue).toBe(stats.overdue_count);
    expect(t.total_modules).toBe(stats.total_modules);
    expect(t.quiz.avg_score).toBe(stats.avg_quiz_score); // every attempt lies in the period
    expect(t.total_assignments).toBe(9); // u1-u4 two modules each, u5 one
    expect(t.completion_rate).toBe(44.4);
    // per module and per role: the list of assignments counted by hand
    const all = await tr.listAssignments({ ...T, query: { limit: 500 } });
    for (const m of t.by_module) {
      const mine = all.filter((a) => a.module_id === m.module_id);
      expect([m.total, m.completed]).toEqual([mine.length, mine.filter((a) => a.status === 'completed').length]);
    }
    for (const r of t.by_role) {
      const mine = all.filter((a) => a.role_code === r.role_code);
      expect([r.total, r.completed]).toEqual([mine.length, mine.filter((a) => a.status === 'completed').length]);
    }
    expect(t.by_role.map((r) => r.role_code)).toEqual(['R1', 'R9']);
    // overdue by level: the overdue route's assignments, by the higher of stored level and days overdue
    const overdue = await tr.overdue({ ...T, query: {} });
    const level = (days: number) => (days >= 45 ? 4 : days >= 30 ? 3 : days >= 14 ? 2 : days >= 7 ? 1 : 0);
    const byLevel = count(overdue, (a) => String(Math.max(a.escalation_level, level(a.days_overdue))));
    expect(t.overdue_by_level).toEqual([0, 1, 2, 3, 4].map((l) => ({ level: l, count: byLevel.get(String(l)) ?? 0 })));
    expect(t.overdue_by_level.find((l) => l.level === 1)!.count).toBe(1);
    // completions and certificates per month
    const completions = count(
      all.filter((a) => a.completed_at),
      (a) => month(a.completed_at!),
    );
    expect(t.completions_per_month).toEqual(
      report.period.months.map((m) => ({ month: m, count: completions.get(m) ?? 0 })),
    );
    const certificates = await tr.certificates(T);
    expect(t.certificates.total).toBe(certificates.length);
    expect(t.certificates.in_period).toBe(2);
    expect(t.certificates.per_month.map((m) => m.count)).toEqual([1, 1, 0]);
    // quiz: module A-1 had 3 attempts (pass 100, fail 0, pass 100)
    expect(t.quiz.attempts).toBe(3);
    expect(t.quiz.by_module).toEqual([
      {
        module_id: mod['A-1'],
        module_code: 'A-1',
        module_title: 'Modul A-1',
        attempts: 3,
        avg_score: 66.7,
        pass_rate: 66.7,
      },
    ]);
  });

  it('consents: the state per data point equals the consent statistics, the months count the consents recorded', async () => {
    const c = b.backend.consents;
    const stats = await c.stats(T);
    const k = report.consents;
    expect([k.total, k.active, k.revoked, k.conversion_rate]).toEqual([
      stats.total_consents,
      stats.active_consents,
      stats.revoked_consents,
      stats.conversion_rate,
    ]);
    expect(k.refused).toBe(stats.total_consents - stats.active_consents - stats.revoked_consents);
    for (const d of k.by_data_point) {
      const s = stats.by_data_point[d.data_point_id]!;
      expect([d.total, d.active, d.revoked]).toEqual([s.total, s.active, s.revoked]);
      expect(d.refused).toBe(s.total - s.active - s.revoked);
    }
    expect(k.by_data_point.map((d) => d.data_point_id)).toEqual(Object.keys(stats.by_data_point));
    // opt-in per month from the listed consents: granted_at in the period
    const { consents } = await c.list({ ...T, query: { limit: 500 } });
    const inPeriod = consents.filter((x) => x.granted_at >= '2026-01-01' && x.granted_at < '2026-04-01');
    for (const d of k.opt_in)
      for (const m of d.per_month) {
        const mine = inPeriod.filter((x) => x.data_point_id === d.data_point_id && month(x.granted_at) === m.month);
        expect([m.decisions, m.granted]).toEqual([mine.length, mine.filter((x) => x.granted).length]);
      }
    const news = k.opt_in.find((d) => d.data_point_id === 'newsletter')!;
    expect(news.per_month.map((m) => m.rate)).toEqual([66.7, 100, 100]);
    expect(news.rate).toBe(80);
    const analytics = k.opt_in.find((d) => d.data_point_id === 'analytics')!;
    expect(analytics.per_month.map((m) => m.rate)).toEqual([null, 33.3, null]);
    expect(k.revocations_per_month).toEqual([
      { month: '2026-01', count: 0 },
      { month: '2026-02', count: 0 },
      { month: '2026-03', count: 2 },
    ]);
    expect(k.by_data_point.find((d) => d.data_point_id === 'newsletter')!.revocation_rate).toBe(50);
  });

  it('impact assessments: counts equal the DSFA statistics; reviews due; days to approval from the audit trail', async () => {
    const d = b.backend.dsfa;
    const stats = await d.stats(T);
    const r = report.dsfa;
    expect(r.total).toBe(stats.total);
    expect(r.by_status).toEqual(stats.by_status);
    expect(r.by_risk_level).toEqual(stats.by_risk_level);
    expect(r.by_status_and_risk.reduce((n, x) => n + x.count, 0)).toBe(stats.total);
    expect(r.reviews_due.map((x) => [x.title, x.reason])).toEqual([
      ['Bewerbermanagement', 'review_due'],
      ['Newsletter', 'needs_update'],
    ]);
    // the first approval of each assessment, from its audit trail
    const audit = await d.auditLog({ ...T, query: { limit: 500 } });
    const approvals = audit.filter((e) => e.new_values.status === 'approved');
    expect(r.approvals.count).toBe(approvals.length);
    expect(r.approvals.items.map((i) => [i.title, i.days])).toEqual([
      ['Videoüberwachung', 35],
      ['Newsletter', 35],
    ]);
    expect([r.approvals.median_days, r.approvals.mean_days, r.approvals.max_days]).toEqual([35, 35, 35]);
    expect(r.approvals.buckets.find((x) => x.bucket === '31-90')!.count).toBe(2);
  });

  it('legal documents and banner: published versions and the lint of the stored configuration', async () => {
    const l = report.legal;
    const docs = await b.backend.legalDocuments.list({ ...T, query: {} });
    expect(l.documents.map((x) => x.id).sort()).toEqual(docs.map((x) => x.id).sort());
    const published = l.documents.find((x) => x.title === 'Datenschutzerklärung')!;
    expect(published.published_version).toBe(1);
    expect(published.published_at!.startsWith('2026-02-14')).toBe(true);
    expect(l.documents.find((x) => x.title === 'Impressum')!.published_version).toBeNull();
    expect(l.published_in_period.map((v) => [v.title, v.version_number])).toEqual([['Datenschutzerklärung', 1]]);
    const banner = await b.backend.cookieBanner.get(T);
    expect(l.banner.findings).toEqual(lintCookieBanner(banner));
    expect(l.banner.findings.length).toBeGreaterThan(0);
    expect(l.banner.configured).toBe(true);
  });

  it('summary: the figures past their thresholds, with thresholds from the query', async () => {
    const flagged = report.attention.map((a) => [a.threshold, a.scope, a.value]);
    expect(flagged).toEqual([
      ['min_completion_rate', 'tenant', 44.4],
      ['min_completion_rate', 'module', 25],
      ['max_overdue', 'tenant', 5],
      ['min_quiz_score', 'module', 66.7],
      ['min_opt_in_rate', 'data_point', 33.3],
      ['max_revocation_rate', 'data_point', 50],
      ['max_reviews_due', 'tenant', 2],
      ['max_unpublished_documents', 'tenant', 1],
      ['max_banner_findings', 'tenant', report.legal.banner.findings.length],
    ]);
    expect(report.attention[1]!.subjects).toEqual([
      { subject: 'B-1', value: 25 },
      { subject: 'A-1', value: 60 },
    ]);
    const relaxed = await b.backend.reports.management({
      ...T,
      query: {
        ...period,
        min_completion_rate: '40',
        max_overdue: 10,
        min_quiz_score: 50,
        min_opt_in_rate: 0,
        max_revocation_rate: 100,
        max_reviews_due: 5,
        max_unpublished_documents: 1,
        max_banner_findings: 9,
        max_approval_days: 30,
      },
    });
    expect(relaxed.attention.map((a) => [a.threshold, a.scope, a.value, a.limit])).toEqual([
      ['min_completion_rate', 'module', 25, 40],
      ['max_approval_days', 'tenant', 35, 30],
    ]);
    expect(relaxed.thresholds.min_completion_rate).toBe(40);
  });

  it('refuses bad input naming the field: thresholds, days, a period too long or backwards', async () => {
    const ask = (query: Record<string, string | number>) => failure(b.backend.reports.management({ ...T, query }));
    let e = await ask({ min_completion_rate: 101 });
    expect([e.code, e.details[0]!.path]).toEqual(['validation', 'min_completion_rate']);
    e = await ask({ max_overdue: 'many' });
    expect([e.code, e.details[0]!.path]).toEqual(['bad_request', 'max_overdue']);
    e = await ask({ max_overdue: 1.5 }); // not a whole number: of the wrong type, like limit=1.5
    expect([e.code, e.details[0]!.path]).toEqual(['bad_request', 'max_overdue']);
    e = await ask({ max_overdue: -1 });
    expect([e.code, e.details[0]!.path]).toEqual(['validation', 'max_overdue']);
    e = await ask({ from: '2026-02-30' });
    expect([e.code, e.details[0]!.path, e.details[0]!.message]).toEqual([
      'validation',
      'from',
      'no such day in the calendar',
    ]);
    for (const [field, value] of [
      ['from', '2026-13-01'], // no month 13: Date cannot even print it (was an unexpected error)
      ['to', '2026-00-10'],
      ['from', '2026-01-32'],
    ]) {
      e = await ask({ [field!]: value! });
      expect([e.code, e.details[0]!.path, e.details[0]!.message], value).toEqual([
        'validation',
        field,
        'no such day in the calendar',
      ]);
    }
    e = await ask({ to: '31.03.2026' });
    expect(e.details[0]!.path).toBe('to');
    e = await ask({ from: '2026-04-01', to: '2026-03-01' });
    expect([e.code, e.details[0]!.path]).toEqual(['validation', 'from']);
    e = await ask({ from: '2020-01-01', to: '2026-03-31' });
    expect([e.code, e.message]).toEqual(['validation', 'the period spans 75 months; a report covers at most 60']);
    e = await failure(b.backend.reports.managementHtml({ ...T, query: { time_zone: 'Mars/Olympus' } }));
    expect([e.code, e.details[0]!.path]).toEqual(['validation', 'time_zone']);
    e = await failure(b.backend.reports.managementHtml({ ...T, query: { lang: 'fr' } }));
    expect([e.code, e.details[0]!.path]).toEqual(['validation', 'lang']);
  });

  it("keeps tenants apart: another tenant's report holds only its own records", async () => {
    const other = await b.backend.reports.management({ ...O, query: period });
    expect(other.consents.total).toBe(1);
    expect(other.dsfa.total).toBe(1);
    expect(other.training.total_assignments).toBe(0);
    expect(other.legal.documents).toEqual([]);
    expect(other.legal.banner.configured).toBe(false);
  });

  it('answers the HTML page whole: one figure per chart, its SVG well-formed XML with a title, and the period', async () => {
    const page = await b.backend.reports.managementHtml({
      ...T,
      query: { ...period, lang: 'en', time_zone: 'Europe/Berlin' },
    });
    expect(page.content_type).toMatch(/^text\/html/);
    const html = Buffer.from(page.data).toString('utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<script|<link|src="http|url\(http/i);
    const svgs = [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    expect(svgs.length).toBe([...html.matchAll(/<figure class="chart"/g)].length);
    expect(svgs.length).toBeGreaterThanOrEqual(9);
    for (const svg of svgs) {
      const root = parseXml(svg);
      expect(root.name).toBe('svg');
      expect(root.attrs.role).toBe('img');
      const title = root.children.find((n: XmlNode) => n.name === 'title');
      expect(title?.text).toBeTruthy();
    }
    expect(html).toContain('Period: 1 Jan 2026 – 31 Mar 2026');
    expect(html).toMatch(/Generated: 20 Mar 2026, 13:00 CET/);
  });
});
