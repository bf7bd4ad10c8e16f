import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChartSpec, ReportDoc } from '../../src/domain/report.js';
import { chartSize, chartSvg } from '../../src/services/report/charts.js';
import { renderPdf } from '../../src/services/report/pdf.js';
import { tmp } from '../support/helpers.js';
import { pdfWords as words, overlapping } from '../support/pages.js';
import { requirePrograms } from '../support/programs.js';

// Where the words of a report's PDF land: every chart inside the text area of its page, at the size the layout
// reserved for it, so its axis does not run under the table that follows it or into the margin.
const modules = Array.from({ length: 32 }, (_v, i) => `MODUL-${String(i + 1).padStart(2, '0')}`);
const chart = (change: Partial<ChartSpec>): ChartSpec => ({
  kind: 'bar',
  title: 'Abschlussquote je Modul',
  description: 'Balkendiagramm',
  categoryLabel: 'Modul',
  categories: modules,
  series: [{ name: 'Abschlussquote', values: modules.map((_m, i) => 30 + i) }],
  unit: 'percent',
  max: 100,
  ...change,
});

describe('the PDF of a report', () => {
  it('draws each chart at the text width, within the page, its axis clear of the table below', async (ctx) => {
    requirePrograms(ctx, 'pdftotext');
    const months = chart({
      title: 'Abschlüsse je Monat',
      categories: modules.slice(0, 12).map((_m, i) => `M${i + 1}`),
    });
    const report: ReportDoc = {
      title: 'Bericht',
      lang: 'de',
      footer: 'Zeitraum: 01.01.2026 – 31.03.2026',
      pageWords: ['Seite', 'von'],
      blocks: [
        { kind: 'heading', text: 'Schulungen', level: 2 },
        { kind: 'fields', rows: [['Module', '32']] },
        // taller than a page at the text width: drawn smaller, not over the table's header
        { kind: 'chart', chart: chart({ horizontal: true }) },
        { kind: 'chart', chart: months },
      ],
    };
    const pdf = join(tmp(), 'report.pdf');
    writeFileSync(pdf, await renderPdf(report));
    const { width, height, words: all } = words(pdf);
    const [left, right, top, bottom] = [50, width - 50, 50, height - 50];
    const body = all.filter((w) => w.y0 < bottom);
    for (const w of body) {
      expect(w.x0, `${w.text} on page ${w.page + 1}`).toBeGreaterThanOrEqual(left - 0.5);
      expect(w.x1, `${w.text} on page ${w.page + 1}`).toBeLessThanOrEqual(right + 0.5);
      expect(w.y0, `${w.text} on page ${w.page + 1}`).toBeGreaterThanOrEqual(top - 0.5);
    }
    // no word drawn over another (an axis label under a table's header, a label into the next chart)
    expect(overlapping(body)).toEqual([]);
    // a table's header (its first cell at the left margin) has a row of its own under it on the same page
    const headers = body.filter((w) => w.text === 'Modul' && w.x0 < left + 10);
    expect(headers.length).toBeGreaterThan(0);
    for (const head of headers)
      expect(
        body.some((w) => w.page === head.page && w.x0 < left + 10 && w.y0 > head.y1 && /^(MODUL-|M)\d+$/.test(w.text)),
        `header on page ${head.page + 1}`,
      ).toBe(true);
    // the month chart is scaled to the text width: its last axis label is where the SVG puts it, times that scale
    const [, x] = new RegExp(`translate\\(([\\d.]+) [\\d.]+\\)"[^>]*>M12<`).exec(chartSvg(months, 'de'))!;
    const label = body.find((w) => w.text === 'M12')!; // the axis's, drawn before the table's
    expect((label.x0 + label.x1) / 2).toBeCloseTo(left + (Number(x) * (right - left)) / chartSize(months).width, 0);
  });

  it('never leaves a table header alone at the foot of a page', async (ctx) => {
    requirePrograms(ctx, 'pdftotext');
    // tables too long to keep together, after a line of text of one to three lines: their headers land at every
    // height of a page, some where the header fits and its first row does not
    const blocks: ReportDoc['blocks'] = [];
    for (let t = 0; t < 24; t++)
      blocks.push(
        { kind: 'paragraph', spans: [{ text: `Abschnitt ${t} `.repeat(1 + 14 * (t % 3)) }] },
        {
          kind: 'table',
          head: ['Kopf', 'Wert'],
          rows: Array.from({ length: 23 + (t % 5) }, (_v, r) => [`Zeile${r}`, `${r}`]),
        },
      );
    const pdf = join(tmp(), 'tables.pdf');
    writeFileSync(pdf, await renderPdf({ title: 'Tabellen', lang: 'de', pageWords: ['Seite', 'von'], blocks }));
    const { words: all } = words(pdf);
    const heads = all.filter((w) => w.text === 'Kopf');
    expect(heads.length).toBeGreaterThan(24); // headers repeated on the pages a table goes on to
    for (const head of heads)
      expect(
        all.some((w) => w.page === head.page && w.y0 > head.y1 && w.text.startsWith('Zeile')),
        `header on page ${head.page + 1}`,
      ).toBe(true);
  });

  it('does not split a paragraph of two or three lines between pages', async (ctx) => {
    requirePrograms(ctx, 'pdftotext');
    const blocks: ReportDoc['blocks'] = Array.from({ length: 90 }, (_v, i) => ({
      kind: 'paragraph' as const,
      spans: [{ text: `Anfang${i} ${'Wort '.repeat(20 + (i % 3) * 14)}Ende${i}` }],
    }));
    const pdf = join(tmp(), 'text.pdf');
    writeFileSync(pdf, await renderPdf({ title: 'Text', lang: 'de', pageWords: ['Seite', 'von'], blocks }));
    const { words: all } = words(pdf);
    const pageOf = (text: string) => all.find((w) => w.text === text)!.page;
    expect(pageOf('Ende89')).toBeGreaterThan(1);
    for (let i = 0; i < 90; i++) expect(pageOf(`Ende${i}`), `paragraph ${i}`).toBe(pageOf(`Anfang${i}`));
  });
});
