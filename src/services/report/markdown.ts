import { Lexer, type Token, type Tokens } from 'marked';
import { chartTable, type Block, type ListItem, type ReportDoc, type Span } from '../../domain/report.js';

/** The level a person's shallowest heading takes: below the report's own `###` subsections. */
const FIRST_LEVEL = 4;

const headings = (tokens: Token[] | undefined): Tokens.Heading[] =>
  (tokens ?? []).flatMap((t) =>
    t.type === 'heading' ? [t as Tokens.Heading] : t.type === 'blockquote' ? headings(t.tokens) : [],
  );

function demoted(t: Token, shift: number): string {
  const trailing = /\n*$/.exec(t.raw)![0];
  if (t.type === 'heading') {
    const h = t as Tokens.Heading;
    return `${'#'.repeat(Math.min(6, h.depth + shift))} ${h.text.replace(/\s*\n\s*/g, ' ')}${trailing}`;
  }
  if (t.type === 'blockquote' && headings(t.tokens).length) {
    const inner = (t.tokens ?? [])
      .map((x) => demoted(x, shift))
      .join('')
      .replace(/\n+$/, '');
    return (
      inner
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n') + trailing
    );
  }
  return t.raw;
}

/**
 * A person's Markdown with its headings moved below the report's own: the shallowest becomes `####`, the others keep
 * their distance to it (`######` at most), so a `## Zweck` in a description never reads as a section of the report.
 * Setext headings (`Zweck` over `===`) become ATX headings; everything else stays as written.
 */
export function demoteHeadings(text: string): string {
  const tokens = Lexer.lex(text, { gfm: true });
  const found = headings(tokens);
  if (!found.length) return text;
  const shift = FIRST_LEVEL - Math.min(...found.map((h) => h.depth));
  return tokens.map((t) => demoted(t, shift)).join('');
}

const plain = (s: string): string => s.replace(/([\\`*_[\]<>#|~])/g, '\\$1');
const cell = (s: string): string => plain(s).replace(/\n/g, '<br>');

function inline(spans: Span[]): string {
  return spans
    .map((s) => {
      if (s.code) return `\`${s.text}\``;
      let t = plain(s.text).replace(/\n/g, '\\\n');
      if (s.italic) t = `_${t}_`;
      if (s.bold) t = `**${t}**`;
      return t;
    })
    .join('');
}

const indent = (lines: string[], by: string): string[] => lines.map((l) => (l ? by + l : l));

function item(i: ListItem, marker: string): string[] {
  const box = i.checked === undefined ? '' : i.checked ? '[x] ' : '[ ] ';
  const [first = '', ...more] = inline(i.spans).split('\n');
  const pad = ' '.repeat(marker.length + 1);
  return [`${marker} ${box}${first}`, ...indent(more, pad), ...indent(render(i.children ?? []).slice(0, -1), pad)];
}

function render(blocks: Block[], lang: ReportDoc['lang'] = 'en'): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        out.push(`${'#'.repeat(b.level)} ${plain(b.text)}`, '');
        break;
      case 'fields':
        for (const [k, v] of b.rows) out.push(`- **${plain(k)}:** ${plain(v).replace(/\n/g, '\\\n  ')}`);
        out.push('');
        break;
      case 'paragraph':
        out.push(b.muted ? `_${inline(b.spans)}_` : inline(b.spans), '');
        break;
      case 'list':
        b.items.forEach((i, n) => out.push(...item(i, b.ordered ? `${n + 1}.` : '-')));
        out.push('');
        break;
      case 'table':
        out.push(
          `| ${b.head.map(cell).join(' | ')} |`,
          `|${b.head.map(() => '---').join('|')}|`,
          ...b.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
          '',
        );
        break;
      case 'quote':
        out.push(
          ...render(b.blocks)
            .map((l) => (l ? `> ${l}` : '>'))
            .slice(0, -1),
          '',
        );
        break;
      case 'chart': {
        // Markdown draws no pictures: the chart's data as a table under its title
        const t = chartTable(b.chart, lang);
        out.push(
          `**${plain(b.chart.title)}**`,
          '',
          `| ${t.head.map(cell).join(' | ')} |`,
          `|${t.head.map(() => '---').join('|')}|`,
          ...t.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
          '',
        );
        break;
      }
      case 'markdown':
        // text a person wrote in Markdown stays as written, its headings below the report's
        out.push(demoteHeadings(b.text).trim(), '');
        break;
    }
  }
  return out;
}

/** Renders a report as GitHub-flavoured Markdown; Markdown in the content passes through, its headings demoted. */
export function renderMarkdown(doc: ReportDoc): string {
  const out: string[] = [`# ${plain(doc.title)}`, ''];
  if (doc.subtitle) out.push(`_${plain(doc.subtitle)}_`, '');
  out.push(...render(doc.blocks, doc.lang));
  return out.join('\n').replace(/\n+$/, '\n');
}
