import type { ChartSpec } from '../../domain/report.js';
import { chartValue } from '../../domain/report.js';
import { formatNumber, formatPercent, type ReportLanguage } from '../../domain/report-locale.js';
import { init } from './echarts.js';

/** The font of the charts: DejaVu Sans as in the PDF, with fallbacks a browser or Word has. */
export const CHART_FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';

/** Series colours that stay apart for colour-blind readers (Okabe and Ito), and the tones of the risk scale. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#7F7F7F', '#000000'];
const TONES = { low: '#3A9D5D', medium: '#E0B000', high: '#E07B00', critical: '#C62828', neutral: '#9E9E9E' };

export const CHART_WIDTH = 680;

/** A chart's size in SVG units: horizontal bars grow with their categories, other charts are 680 × 250. */
export function chartSize(c: ChartSpec): { width: number; height: number } {
  const legend = c.series.length > 1 ? 30 : 0;
  if (c.horizontal)
    return {
      width: CHART_WIDTH,
      height: Math.max(160, 50 + legend + c.categories.length * (22 * Math.min(c.series.length, 3) + 6)),
    };
  return { width: CHART_WIDTH, height: 250 + legend };
}

/**
 * The least height a chart can be drawn at, in SVG units, with its text at its size: horizontal bars may stand closer
 * (a row no lower than its label), other charts keep their size.
 */
export function minChartHeight(c: ChartSpec): number {
  if (!c.horizontal) return chartSize(c).height;
  const legend = c.series.length > 1 ? 30 : 0;
  return Math.min(chartSize(c).height, 50 + legend + c.categories.length * (12 * Math.min(c.series.length, 3) + 4));
}

/**
 * Splits an axis label into lines no wider than `width` SVG units, between words and after a hyphen, at most three
 * lines: ECharts measures text only roughly without a browser, and its own wrapping left some long names whole and
 * broke others inside a word. A character is taken as 0.6 of the font size, about DejaVu Sans' average.
 */
export function wrapLabel(label: string, width: number, fontSize: number): string[] {
  const fits = Math.max(1, Math.floor(width / (fontSize * 0.6)));
  const words = label.match(/[^\s-]+-?|-/g) ?? [label];
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const joined = line === '' ? word : line.endsWith('-') ? line + word : `${line} ${word}`;
    // a number and its dash ("3 –") stay with the word after them, even a little too wide
    if (line.length > 4 && joined.length > fits) {
      lines.push(line);
      line = word;
    } else line = joined;
  }
  lines.push(line);
  return lines.length > 3 ? [...lines.slice(0, 2), lines.slice(2).join(' ')] : lines;
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!);

/**
 * Draws a chart as an SVG document on the server with Apache ECharts (no browser, no canvas): bars, stacked bars or
 * lines, numbers in the report's language, a `<title>` and `<desc>` and role="img" for screen readers. `height`
 * (between `minChartHeight` and `chartSize`) draws horizontal bars closer together at the same width and text size.
 */
export function chartSvg(c: ChartSpec, lang: ReportLanguage, height = chartSize(c).height): string {
  const { width } = chartSize(c);
  const chart = init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    const axisNumber = (v: number) => (c.unit === 'percent' ? formatPercent(v, lang) : formatNumber(v, lang));
    const rotated = !c.horizontal && c.categories.length > 14;
    const fontSize = !c.horizontal && c.categories.length > 8 ? 10 : 11;
    const place = Math.max(40, (width - 90) / Math.max(1, c.categories.length));
    const labels = (c.axisLabels ?? c.categories).map((l) =>
      c.horizontal || rotated ? l : wrapLabel(l, place, fontSize).join('\n'),
    );
    const lines = Math.max(1, ...labels.map((l) => l.split('\n').length));
    const categoryAxis = {
      type: 'category' as const,
      data: labels,
      inverse: c.horizontal === true,
      axisTick: { alignWithLabel: true },
      axisLabel: {
        color: '#333333',
        fontSize,
        lineHeight: fontSize + 3,
        // truncated with an ellipsis where a name is longer than its place (the table below has it whole); under
        // vertical bars names are wrapped first (labels), so only a word longer than the place is cut
        width: rotated ? undefined : c.horizontal ? 190 : place,
        overflow: rotated ? undefined : ('truncate' as const),
        interval: 0,
        rotate: rotated ? 45 : 0,
      },
    };
    const valueAxis = {
      type: 'value' as const,
      max: c.max,
      min: 0,
      minInterval: c.unit === 'count' ? 1 : undefined,
      axisLabel: { color: '#333333', fontSize: 11, formatter: axisNumber },
      splitLine: { lineStyle: { color: '#e3e3e3' } },
    };
    const barLabels = c.kind === 'bar' && c.categories.length * c.series.length <= 40;
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      textStyle: { fontFamily: CHART_FONT },
      aria: { enabled: true, label: { description: c.description } },
      color: c.series.map((s, i) => (s.tone ? TONES[s.tone] : PALETTE[i % PALETTE.length]!)),
      legend: c.series.length > 1 ? { top: 0, textStyle: { fontSize: 11, color: '#333333' }, itemGap: 16 } : undefined,
      // room for the category names (horizontal) or the value labels (vertical) left of the axis
      grid: {
        left: c.horizontal ? 222 : 56,
        right: c.horizontal ? 56 : 24,
        top: c.series.length > 1 ? 40 : 14,
        bottom: rotated ? 64 : 30 + (lines - 1) * (fontSize + 3),
      },
      xAxis: c.horizontal ? valueAxis : categoryAxis,
      yAxis: c.horizontal ? categoryAxis : valueAxis,
      series: c.series.map((s) => ({
        type: c.kind === 'line' ? 'line' : 'bar',
        name: s.name,
        data: s.values,
        stack: c.kind === 'stacked' ? 'all' : undefined,
        barMaxWidth: 28,
        connectNulls: false,
        symbolSize: 6,
        lineStyle: { width: 2 },
        label: barLabels
          ? {
              show: true,
              position: c.horizontal ? 'right' : 'top',
              fontSize: 10,
              color: '#333333',
              formatter: (p: { value: unknown }) => chartValue(p.value as number | null, c.unit, lang),
            }
          : undefined,
      })),
    });
    const svg = chart.renderToSVGString();
    // the title and description as the first children, and the role a screen reader announces
    return svg.replace(
      /^<svg([^>]*)>/,
      (_m, attrs: string) =>
        `<svg${attrs.replace(/\saria-label="[^"]*"/, '')} role="img" aria-label="${escapeXml(c.title)}"><title>${escapeXml(c.title)}</title><desc>${escapeXml(c.description)}</desc>`,
    );
  } finally {
    chart.dispose();
  }
}

/** A chart as a PNG picture `pixels` wide (for Word), drawn from its SVG by resvg with the fonts of the PDF. */
export async function chartPng(c: ChartSpec, lang: ReportLanguage, pixels: number): Promise<Buffer> {
  const { Resvg } = await import('@resvg/resvg-js');
  const { findFonts } = await import('./fonts.js');
  const fonts = findFonts();
  const resvg = new Resvg(chartSvg(c, lang), {
    fitTo: { mode: 'width', value: pixels },
    background: '#ffffff',
    font: {
      fontFiles: fonts ? [fonts.regular, fonts.bold] : [],
      loadSystemFonts: !fonts,
      defaultFontFamily: 'DejaVu Sans',
    },
  });
  return resvg.render().asPng();
}
