import type { ReportDoc } from '../../domain/report.js';

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Renders a report as GitHub-flavoured Markdown. */
export function renderMarkdown(doc: ReportDoc): string {
  const out: string[] = [`# ${doc.title}`, ''];
  if (doc.subtitle) out.push(`_${doc.subtitle}_`, '');
  for (const b of doc.blocks) {
    switch (b.kind) {
      case 'heading':
        out.push(`${'#'.repeat(b.level)} ${b.text}`, '');
        break;
      case 'fields':
        out.push('| Field | Value |', '|---|---|', ...b.rows.map(([k, v]) => `| ${esc(k)} | ${esc(v)} |`), '');
        break;
      case 'paragraph':
        out.push(b.text, '');
        break;
      case 'list':
        out.push(...b.items.map((i) => `- ${i}`), '');
        break;
      case 'table':
        out.push(
          `| ${b.head.map(esc).join(' | ')} |`,
          `|${b.head.map(() => '---').join('|')}|`,
          ...b.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
          '',
        );
        break;
    }
  }
  return out.join('\n');
}
