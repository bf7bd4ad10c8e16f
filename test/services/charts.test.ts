import { describe, expect, it } from 'vitest';
import { chartPng, chartSize, chartSvg, wrapLabel } from '../../src/services/report/charts.js';
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

  it.each([
    ['0 – noch nicht eskaliert', 118, 11, ['0 – noch nicht', 'eskaliert']],
    ['4 – Compliance-Beauftragte(r)', 118, 11, ['4 – Compliance-', 'Beauftragte(r)']],
    ['3 – Geschäftsleitung', 118, 11, ['3 – Geschäftsleitung']], // a number and its dash stay with the word
    ['2 – Teamleitung', 118, 11, ['2 – Teamleitung']],
    ['Sept. 26', 49, 10, ['Sept. 26']], // twelve months
    ['aaaaa bbbbb ccccc ddddd eeeee', 30, 10, ['aaaaa', 'bbbbb', 'ccccc ddddd eeeee']], // three lines at most
    ['DatenpunktOhneLeerzeichen', 60, 11, ['DatenpunktOhneLeerzeichen']],
  ])('wraps the axis label %j into lines of %d units', (label, width, size, lines) => {
    expect(wrapLabel(label, width, size)).toEqual(lines);
  });

  it('wraps long names under vertical bars instead of cutting them, with room for the second line', () => {
    const spec: ChartSpec = {
      ...base,
      categories: ['0 – noch nicht eskaliert', '1 – Erinnerung', '2 – Teamleitung', '4 – Compliance-Beauftragte(r)'],
      axisLabels: undefined,
      series: [{ name: 'Überfällig', values: [50, 50, 150, 150] }],
      unit: 'count',
      max: undefined,
    };
    const svg = chartSvg(spec, 'de');
    const all = texts(parseXml(svg));
    expect(all).toEqual(expect.arrayContaining(['0 – noch nicht', 'eskaliert', '4 – Compliance-', 'Beauftragte(r)']));
    expect(all.join(' ')).not.toContain('…');
    expect(all.join(' ')).not.toContain('...');
    // the second line (its baseline at translate y + y, half the font size below) is inside the picture
    const second = /y="([\d.]+)" transform="translate\([\d.]+ ([\d.]+)\)"[^>]*>Beauftragte\(r\)</.exec(svg)!;
    expect(Number(second[1]) + Number(second[2]) + 6).toBeLessThanOrEqual(chartSize(spec).height);
  });

  it('draws the same chart as a PNG picture of the width asked for', async () => {
    const png = await chartPng(base, 'de', 1200);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
  });
});
