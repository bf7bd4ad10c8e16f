import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChartSpec, ReportDoc } from '../../src/domain/report.js';
import { chartSize, chartSvg } from '../../src/services/report/charts.js';
import { renderPdf } from '../../src/services/report/pdf.js';
import { tmp } from '../support/helpers.js';
import { filledTo, pdfWords as words, overlapping, renderPages } from '../support/pages.js';
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

  it('leaves no page but the last mostly empty: bars of many modules stand closer to fit the rest of a page', async (ctx) => {
    requirePrograms(ctx, 'pdftoppm', 'pdftotext');
    // as in the management report: a summary that fills the first page, then the training section on the next, a
    // block of fields and the bars of 32 modules (taller than what that page has left at their own spacing) with their
    // table, then a chart of the months
    const fields = Array.from({ length: 8 }, (_v, i): [string, string] => [`Kennzahl ${i + 1}`, String(i)]);
    const report: ReportDoc = {
      title: 'Bericht',
      lang: 'de',
      pageWords: ['Seite', 'von'],
      blocks: [
        { kind: 'heading', text: 'Auf einen Blick', level: 2 },
        { kind: 'table', head: ['Kennzahl', 'Wert'], rows: Array.from({ length: 34 }, (_v, i) => [`Zeile ${i}`, '1']) },
        { kind: 'heading', text: 'Schulungen', level: 2 },
        { kind: 'fields', rows: fields },
        { kind: 'chart', chart: chart({ horizontal: true }) },
        { kind: 'chart', chart: chart({ title: 'Je Monat', categories: modules.slice(0, 12) }) },
      ],
    };
    const pdf = join(tmp(), 'fill.pdf');
    writeFileSync(pdf, await renderPdf(report));
    const pages = renderPages(pdf, 40);
    expect(pages.length).toBeGreaterThan(2);
    pages.slice(0, -1).forEach((page, i) => {
      expect(filledTo(page), `page ${i + 1} of ${pages.length}`).toBeGreaterThan(0.6);
    });
    // the bars keep the text width and the labels their size: every label apart, on the page with the chart's title
    const { words: all } = words(pdf);
    // the chart's labels end at its axis; the table's cells start at the margin
    const labels = all.filter((w) => /^MODUL-\d+$/.test(w.text) && w.x0 > 60);
    expect(labels).toHaveLength(32);
    expect(new Set(labels.map((w) => w.page))).toEqual(new Set([1]));
    expect(overlapping(all.filter((w) => w.y0 < 842 - 50))).toEqual([]);
    expect(Math.min(...labels.map((w) => w.y1 - w.y0))).toBeGreaterThan(7);
  });

  it('never breaks a command-line option after its dashes, and keeps its text as written', async (ctx) => {
    requirePrograms(ctx, 'pdftotext');
    // the option lands at every place of a line, so some line ends just after its dashes
    const blocks: ReportDoc['blocks'] = Array.from({ length: 40 }, (_v, i) => ({
      kind: 'paragraph' as const,
      spans: [{ text: `${'ab '.repeat(i)}Set the thresholds with --threshold NAME=VALUE or -o FILE.` }],
    }));
    blocks.push({
      kind: 'table',
      head: ['Note', 'Value'],
      rows: Array.from({ length: 12 }, (_v, i) => [`${'x'.repeat(i)} use --threshold NAME=VALUE`, '1']),
    });
    const pdf = join(tmp(), 'options.pdf');
    writeFileSync(pdf, await renderPdf({ title: 'Options', lang: 'en', pageWords: ['Page', 'of'], blocks }));
    // what follows the dashes is on their line, right after them (pdftotext's boxes part the option at the joiner)
    const { words: all } = words(pdf);
    const after = all.filter((w) => w.text === 'threshold' || w.text === 'o');
    expect(after).toHaveLength(92);
    const dashesBefore = (w: (typeof all)[number]) =>
      all.some(
        (d) => d.page === w.page && Math.abs(d.y0 - w.y0) < 1 && Math.abs(d.x1 - w.x0) < 0.5 && /-$/.test(d.text),
      );
    expect(after.filter((w) => !dashesBefore(w)).map((w) => `${w.text} on page ${w.page + 1} at ${w.y0}`)).toEqual([]);
    // as a reader copies it: the options read as written (the word joiner copies as nothing)
    const text = execFileSync('pdftotext', [pdf, '-']).toString();
    expect(text.match(/(^|\s)--threshold\s+NAME=VALUE/g)).toHaveLength(52);
    expect(text.match(/(^|\s)-o\s+FILE\./g)).toHaveLength(40);
    expect(text).not.toContain('\u2060');
  });
});
