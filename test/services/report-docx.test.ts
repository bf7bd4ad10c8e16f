import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ChartSpec, ReportDoc } from '../../src/domain/report.js';
import { renderDocx } from '../../src/services/report/docx.js';

// The charts of a Word report as pictures that fit the page: the text width, or smaller for one taller than a page.
const EMU_PER_INCH = 914_400;
const TEXT_WIDTH = ((11906 - 2 * 1440) / 1440) * EMU_PER_INCH; // A4 less Word's margins of 2.54 cm
const TEXT_HEIGHT = ((16838 - 2 * 1440) / 1440) * EMU_PER_INCH;

const chart = (categories: number, horizontal: boolean): ChartSpec => {
  const names = Array.from({ length: categories }, (_v, i) => `MODUL-${i + 1}`);
  return {
    kind: 'bar',
    title: `${categories} Module`,
    description: 'Balkendiagramm',
    categoryLabel: 'Modul',
    categories: names,
    series: [{ name: 'Abschlussquote', values: names.map((_n, i) => i) }],
    unit: 'percent',
    max: 100,
    horizontal,
  };
};

describe('the Word document of a report', () => {
  it('shows a chart at the text width, and one taller than a page smaller, within the page', async () => {
    const report: ReportDoc = {
      title: 'Bericht',
      lang: 'de',
      pageWords: ['Seite', 'von'],
      blocks: [
        { kind: 'chart', chart: chart(12, false) },
        { kind: 'chart', chart: chart(60, true) },
      ],
    };
    const xml = strFromU8(unzipSync(new Uint8Array(await renderDocx(report)))['word/document.xml']!);
    const extents = [...xml.matchAll(/<wp:extent cx="(\d+)" cy="(\d+)"\/>/g)].map((m) => [+m[1]!, +m[2]!]);
    expect(extents).toHaveLength(2);
    const [[w1], [w2, h2]] = extents as [[number, number], [number, number]];
    expect(w1 / TEXT_WIDTH).toBeGreaterThan(0.95);
    expect(w1).toBeLessThanOrEqual(TEXT_WIDTH);
    expect(h2).toBeLessThan(TEXT_HEIGHT * 0.9); // room for the title and the start of the table on its page
    expect(w2).toBeLessThan(w1);
  });
});
