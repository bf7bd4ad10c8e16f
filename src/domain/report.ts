import type { ReportLanguage } from './report-locale.js';

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
