/** A document independent of its format: rendered as Markdown or as a PDF by services/report. */
export type Block =
  | { kind: 'heading'; text: string; level: 1 | 2 | 3 }
  | { kind: 'fields'; rows: Array<[string, string]> }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] };

export interface ReportDoc {
  title: string;
  subtitle?: string;
  blocks: Block[];
}
