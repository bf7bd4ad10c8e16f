import { formatNumber, formatPercent, type ReportLanguage } from './report-locale.js';

/** A run of text with its emphasis, inside a paragraph, a list item or a field. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

/** An item of a list: a checkbox when `checked` is set (true ticked, false empty), and lists nested in it. */
export interface ListItem {
  spans: Span[];
  checked?: boolean;
  children?: Block[];
}

/** A level of a risk scale, for cells shaded by what they stand for (the risk matrix). */
export type Tone = 'low' | 'medium' | 'high' | 'critical';

/** How a chart draws its series: bars side by side, bars stacked, or lines. */
export type ChartKind = 'bar' | 'stacked' | 'line';

/**
 * A chart and the data behind it: every format draws it (SVG in HTML, vectors in PDF, a picture in DOCX) and prints
 * its data as a table below it, for screen readers and for print.
 */
export interface ChartSpec {
  kind: ChartKind;
  title: string;
  /** One sentence for screen readers and the picture's alternative text. */
  description: string;
  /** The header of the table's first column: what the categories are (Monat, Modul, …). */
  categoryLabel: string;
  categories: string[];
  /** Shorter names of the categories for the chart's axis (a module's code, a month as `Sept. 26`); the table keeps `categories`. */
  axisLabels?: string[];
  /** Values per category; null where there is nothing to show (a rate without any decision). */
  series: Array<{ name: string; values: Array<number | null>; tone?: Tone | 'neutral' }>;
  /** Bars grow to the right, categories listed downwards (long names, many categories). */
  horizontal?: boolean;
  unit: 'count' | 'percent' | 'days';
  /** The axis ends here (100 for rates) instead of at the largest value. */
  max?: number;
}

/** A part of a report document. */
export type Block =
  | { kind: 'heading'; text: string; level: 1 | 2 | 3 }
  /** Label and value pairs; a value may span lines. */
  | { kind: 'fields'; rows: Array<[string, string]> }
  /** `muted` marks a note about the document itself ("not stated"), set apart from the content. */
  | { kind: 'paragraph'; spans: Span[]; muted?: boolean }
  | { kind: 'list'; ordered?: boolean; items: ListItem[] }
  /** `widths` are fractions of the text width; `tones` shade cells (same shape as `rows`). */
  | { kind: 'table'; head: string[]; rows: string[][]; widths?: number[]; tones?: Array<Array<Tone | undefined>> }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'chart'; chart: ChartSpec }
  /** Text a person wrote in Markdown: Markdown output keeps it as written, the other formats render it. */
  | { kind: 'markdown'; text: string };

/** A document independent of its format: rendered as Markdown, PDF or DOCX by services/report. */
export interface ReportDoc {
  title: string;
  subtitle?: string;
  lang: ReportLanguage;
  /** A line at the foot of every page (PDF, DOCX), beside the page number. */
  footer?: string;
  /** The word before the page number and between it and the page count: ["Seite", "von"]. */
  pageWords: [string, string];
  blocks: Block[];
}

/** A paragraph of plain text. */
export const para = (text: string, muted = false): Block => ({ kind: 'paragraph', spans: [{ text }], muted });

/** A value of a chart as its table shows it: `87,5 %`, `1.234`, `12,5`; a dash where there is none. */
export function chartValue(v: number | null, unit: ChartSpec['unit'], lang: ReportLanguage): string {
  if (v === null) return '–';
  return unit === 'percent' ? formatPercent(v, lang) : formatNumber(v, lang);
}

/** The data behind a chart as a table: a row per category, a column per series. */
export function chartTable(c: ChartSpec, lang: ReportLanguage): { head: string[]; rows: string[][] } {
  return {
    head: [c.categoryLabel, ...c.series.map((s) => s.name)],
    rows: c.categories.map((cat, i) => [cat, ...c.series.map((s) => chartValue(s.values[i] ?? null, c.unit, lang))]),
  };
}
