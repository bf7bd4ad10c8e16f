import { describe, expect, it } from 'vitest';
import { chartPng, chartSize, chartSvg } from '../../src/services/report/charts.js';
import type { ChartSpec } from '../../src/domain/report.js';
import { parseXml, type XmlNode } from '../support/xml.js';

// The charts as SVG documents: parsed by a conforming XML parser, titled for screen readers, numbers in the
// report's language; and as PNG for Word.
const texts = (n: XmlNode): string[] => [n.text.trim(), ...n.children.flatMap(texts)].filter(Boolean);
const find = (n: XmlNode, name: string): XmlNode[] => [
  ...(n.name === name ? [n] : []),
  ...n.children.flatMap((c) => find(c, name)),
];

const base: ChartSpec = {
  kind: 'bar',
  title: 'Abschlussquote je Modul & Rolle <intern>',
  description: 'Balkendiagramm „Abschlussquote“: 3 Werte',
  categoryLabel: 'Modul',
  categories: ['DSGVO-BASIS – Grundlagen', 'NIS2-MELDE – Meldepflichten', 'AI – KI'],
  axisLabels: ['DSGVO-BASIS', 'NIS2-MELDE', 'AI & "Co" <x>'],
  series: [{ name: 'Quote', values: [87.5, 45, null] }],
  unit: 'percent',
  max: 100,
};

describe('charts', () => {
  it.each([
    ['bar', {}],
    ['horizontal bar', { horizontal: true }],
    [
      'stacked bar',
      {
        kind: 'stacked',
        series: [
          { name: 'a', values: [1, 2, 3], tone: 'low' },
          { name: 'b', values: [3, 2, 1], tone: 'critical' },
        ],
        unit: 'count',
        max: undefined,
      },
    ],
    [
      'line',
      {
        kind: 'line',
        series: [
          { name: 'a', values: [10, null, 30] },
          { name: 'b', values: [5, 6, 7] },
        ],
      },
    ],
  ] as const)('draws a %s chart as well-formed SVG with a title, a description and role img', (_kind, change) => {
    const spec = { ...base, ...change } as ChartSpec;
    const svg = chartSvg(spec, 'de');
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attrs.role).toBe('img');
    expect(root.attrs['aria-label']).toBe(spec.title);
    expect(root.children[0]).toMatchObject({ name: 'title', text: spec.title });
    expect(root.children[1]).toMatchObject({ name: 'desc', text: spec.description });
    const { width, height } = chartSize(spec);
    expect([Number(root.attrs.width), Number(root.attrs.height)]).toEqual([width, height]);
    expect(find(root, 'path').length).toBeGreaterThan(5);
    expect(svg).not.toMatch(/<script|href="http/);
  });

  it('writes the numbers of axes and labels in the language of the report', () => {
    const de = texts(parseXml(chartSvg(base, 'de')));
    const en = texts(parseXml(chartSvg(base, 'en')));
    expect(de).toEqual(expect.arrayContaining(['87,5\u00a0%', '100\u00a0%', 'DSGVO-BASIS']));
    expect(en).toEqual(expect.arrayContaining(['87.5%', '100%']));
  });

  it('grows horizontal bars with their categories', () => {
    const many = {
      ...base,
      horizontal: true,
      categories: Array(30).fill('x'),
      series: [{ name: 'q', values: Array(30).fill(50) }],
    };
    expect(chartSize(many).height).toBeGreaterThan(chartSize({ ...base, horizontal: true }).height * 3);
  });

  it('draws the same chart as a PNG picture of the width asked for', async () => {
    const png = await chartPng(base, 'de', 1200);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
  });
});
