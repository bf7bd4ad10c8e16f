import { Lexer, type Token, type Tokens } from 'marked';
import type { Block, ListItem, Span } from '../../domain/report.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

// marked's lexer keeps character references as written; Markdown means the character
const decode = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? all;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });

type Style = Omit<Span, 'text'>;

/** Inline tokens as spans of text with their emphasis; a soft line break is a space, as Markdown reads it. */
function spans(tokens: Token[] | undefined, style: Style = {}): Span[] {
  const out: Span[] = [];
  for (const t of tokens ?? []) {
    switch (t.type) {
      case 'strong':
        out.push(...spans((t as Tokens.Strong).tokens, { ...style, bold: true }));
        break;
      case 'em':
        out.push(...spans((t as Tokens.Em).tokens, { ...style, italic: true }));
        break;
      case 'codespan':
        out.push({ ...style, code: true, text: decode((t as Tokens.Codespan).text) });
        break;
      case 'br':
        out.push({ ...style, text: '\n' });
        break;
      case 'link': {
        const link = t as Tokens.Link;
        out.push(...spans(link.tokens, style));
        // the address is printed: a report on paper has no links to follow
        if (link.href && link.href !== link.text) out.push({ ...style, text: ` (${link.href})` });
        break;
      }
      case 'image':
        out.push({ ...style, text: (t as Tokens.Image).text });
        break;
      case 'checkbox':
        break;
      default: {
        const nested = (t as { tokens?: Token[] }).tokens;
        if (nested?.length) out.push(...spans(nested, style));
        else out.push({ ...style, text: decode(String((t as { text?: string }).text ?? t.raw)).replace(/\n/g, ' ') });
      }
    }
  }
  return merge(out.filter((s) => s.text !== ''));
}

const sameStyle = (a: Span, b: Span) => !a.bold === !b.bold && !a.italic === !b.italic && !a.code === !b.code;

/** Neighbouring spans of one style as one, so a line is never broken where only a token ended (before a "."). */
function merge(list: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of list) {
    const last = out[out.length - 1];
    if (last && sameStyle(last, s)) out[out.length - 1] = { ...last, text: last.text + s.text };
    else out.push(s);
  }
  return out;
}

const cellText = (cell: Tokens.TableCell): string =>
  spans(cell.tokens)
    .map((s) => s.text)
    .join('');

function listItem(item: Tokens.ListItem): ListItem {
  const [first, ...rest] = item.tokens.filter((t) => t.type !== 'checkbox' && t.type !== 'space');
  const leading = first && (first.type === 'text' || first.type === 'paragraph');
  const out: ListItem = { spans: leading ? spans((first as Tokens.Text).tokens ?? [first]) : [] };
  if (item.task) out.checked = item.checked === true;
  const children = blocks(leading ? rest : item.tokens);
  if (children.length) out.children = children;
  return out;
}

function blocks(tokens: Token[]): Block[] {
  const out: Block[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'paragraph':
      case 'text':
        out.push({ kind: 'paragraph', spans: spans((t as Tokens.Paragraph).tokens ?? [t]) });
        break;
      case 'heading':
        // headings inside a text stay below the report's own section headings
        out.push({ kind: 'paragraph', spans: spans((t as Tokens.Heading).tokens, { bold: true }) });
        break;
      case 'list': {
        const list = t as Tokens.List;
        out.push({ kind: 'list', ordered: list.ordered, items: list.items.map(listItem) });
        break;
      }
      case 'code':
        out.push({ kind: 'paragraph', spans: [{ text: (t as Tokens.Code).text, code: true }] });
        break;
      case 'blockquote':
        out.push({ kind: 'quote', blocks: blocks((t as Tokens.Blockquote).tokens) });
        break;
      case 'table': {
        const table = t as Tokens.Table;
        out.push({ kind: 'table', head: table.header.map(cellText), rows: table.rows.map((r) => r.map(cellText)) });
        break;
      }
      case 'html':
        out.push({ kind: 'paragraph', spans: [{ text: (t as Tokens.HTML).text.trim() }] });
        break;
      default: // space, hr, def: nothing to show
    }
  }
  return out.filter((b) => b.kind !== 'paragraph' || b.spans.length);
}

/**
 * Markdown (CommonMark and GitHub's tables and task lists) as report blocks: paragraphs, bullet and numbered lists
 * with their nesting, checkboxes, bold, italics and code, quotes and tables. Headings become bold paragraphs.
 */
export function markdownBlocks(source: string): Block[] {
  return blocks(Lexer.lex(source, { gfm: true }));
}

/** The blocks of a report with every Markdown text expanded, for the formats that render it. */
export function expandMarkdown(input: Block[]): Block[] {
  return input.flatMap((b): Block[] => {
    if (b.kind === 'markdown') return markdownBlocks(b.text);
    if (b.kind === 'quote') return [{ kind: 'quote', blocks: expandMarkdown(b.blocks) }];
    if (b.kind === 'list')
      return [
        {
          ...b,
          items: b.items.map((i) => (i.children ? { ...i, children: expandMarkdown(i.children) } : i)),
        },
      ];
    return [b];
  });
}
