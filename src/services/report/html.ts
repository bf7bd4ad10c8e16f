import {
  chartTable,
  type Block,
  type ChartSpec,
  type ListItem,
  type ReportDoc,
  type Span,
  type Tone,
} from '../../domain/report.js';
import { chartSvg } from './charts.js';
import { expandMarkdown } from './markdown-blocks.js';
import { TONE_COLOURS } from './tones.js';

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[ch]!);
const text = (s: string) => esc(s).replace(/\n/g, '<br>');

function inline(spans: Span[]): string {
  return spans
    .map((s) => {
      let t = text(s.text);
      if (s.code) t = `<code>${t}</code>`;
      if (s.italic) t = `<em>${t}</em>`;
      if (s.bold) t = `<strong>${t}</strong>`;
      return t;
    })
    .join('');
}

// Everything inline: the page loads nothing, so it opens offline, in a mail client and in an archive years later.
const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; font-size: 10.5pt; line-height: 1.45; color: #1a1a1a;
  max-width: 190mm; margin: 0 auto; padding: 12mm 10mm 20mm; background: #fff; }
header { border-bottom: 1px solid #b8b8b8; margin-bottom: 1.2em; }
h1 { font-size: 18pt; margin: 0 0 .3em; }
h2 { font-size: 14pt; margin: 1.6em 0 .5em; border-bottom: 1px solid #e3e3e3; padding-bottom: .15em; }
h3 { font-size: 11.5pt; margin: 1.2em 0 .4em; }
.subtitle { color: #555; font-size: 9pt; margin: 0 0 .8em; }
p.muted { color: #666; font-style: italic; }
table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; font-size: 9pt; }
th, td { border: 1px solid #b8b8b8; padding: 3px 5px; text-align: left; vertical-align: top; }
thead th { background: #e6e6e6; }
table.fields th { background: #f3f3f3; width: 38%; font-weight: bold; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
figure.chart { margin: 1em 0 1.4em; break-inside: avoid; page-break-inside: avoid; }
figure.chart figcaption { font-weight: bold; margin-bottom: .3em; }
/* on a narrow screen a chart keeps a legible size and scrolls sideways inside its figure */
.chart-svg { overflow-x: auto; }
.chart-svg svg { display: block; width: 100%; min-width: 480px; max-width: 680px; height: auto; }
table.chart-data { font-size: 8.5pt; }
table.chart-data caption { text-align: left; color: #555; font-size: 8.5pt; padding-bottom: 2px; caption-side: top; }
.page-footer { margin-top: 2em; border-top: 1px solid #e3e3e3; color: #777; font-size: 8pt; padding-top: .3em; }
/* on a phone a table too wide for its long words (Folgenabschätzungen, max_unpublished_documents) scrolls sideways
   by itself instead of widening the page */
@media screen and (max-width: 600px) {
  table { display: block; overflow-x: auto; }
}
@page { size: A4; margin: 15mm 12mm 18mm; }
@media print {
  body { padding: 0; max-width: none; }
  /* printed, the footer is in the page's margin (pageMargins); a fixed footer lay over the last lines of a page */
  .page-footer { display: none; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr { break-inside: avoid; }
}
`;

/** A CSS string literal that cannot end the string or the style element, whatever the text. */
const cssString = (s: string) =>
  `"${s.replace(/[\\"<>]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `).replace(/[\r\n]+/g, ' ')}"`;

/**
 * The footer and the page number in the bottom margin of every printed page (CSS page-margin boxes, Chromium 131 and
 * later; other browsers print the period and the generation time once, in the header).
 */
function pageMargins(report: ReportDoc): string {
  const box = 'font-family: "DejaVu Sans", Verdana, Arial, sans-serif; font-size: 8pt; color: #777;';
  const [pageWord, ofWord] = report.pageWords;
  return `@page {
  ${report.footer ? `@bottom-left { content: ${cssString(report.footer)}; ${box} }` : ''}
  @bottom-right { content: ${cssString(`${pageWord} `)} counter(page) ${cssString(` ${ofWord} `)} counter(pages); ${box} }
}`;
}

const isNumber = (s: string) => /^[–-]?[\d.,\s\u00a0\u202f]+%?$/.test(s.trim()) || s === '–';

/** Renders a report as one self-contained HTML page: no script, no style or font from the network, charts as SVG. */
export async function renderHtml(report: ReportDoc): Promise<string> {
  let charts = 0;
  const table = (
    head: string[],
    rows: string[][],
    opts: { tones?: Array<Array<Tone | undefined>>; caption?: string; cls?: string } = {},
  ) => {
    const tones = opts.tones;
    const numeric = head.map((_h, c) => c > 0 && rows.length > 0 && rows.every((r) => isNumber(r[c] ?? '')));
    const cell = (v: string, r: number, c: number) => {
      const tone = tones?.[r]?.[c];
      const style = tone ? ` style="background:${TONE_COLOURS[tone]}"` : '';
      return `<td${numeric[c] ? ' class="num"' : ''}${style}>${text(v)}</td>`;
    };
    return (
      `<table${opts.cls ? ` class="${opts.cls}"` : ''}>` +
      (opts.caption ? `<caption>${esc(opts.caption)}</caption>` : '') +
      `<thead><tr>${head.map((h, c) => `<th scope="col"${numeric[c] ? ' class="num"' : ''}>${text(h)}</th>`).join('')}</tr></thead>` +
      `<tbody>${rows.map((r, ri) => `<tr>${r.map((v, ci) => cell(v, ri, ci)).join('')}</tr>`).join('')}</tbody></table>`
    );
  };

  const chart = (c: ChartSpec): string => {
    const n = ++charts;
    const id = `chart-${n}`;
    const data = chartTable(c, report.lang);
    const caption = report.lang === 'de' ? `Daten: ${c.title}` : `Data: ${c.title}`;
    return (
      `<figure class="chart" id="${id}" aria-labelledby="${id}-title">` +
      `<figcaption id="${id}-title">${esc(c.title)}</figcaption>` +
      `<div class="chart-svg">${chartSvg(c, report.lang)}</div>` +
      table(data.head, data.rows, { caption, cls: 'chart-data' }) +
      `</figure>`
    );
  };

  const list = (items: ListItem[], ordered: boolean): string => {
    const tag = ordered ? 'ol' : 'ul';
    return `<${tag}>${items
      .map((i) => {
        const box = i.checked === undefined ? '' : `<input type="checkbox" disabled${i.checked ? ' checked' : ''}> `;
        return `<li>${box}${inline(i.spans)}${i.children?.length ? blocks(i.children) : ''}</li>`;
      })
      .join('')}</${tag}>`;
  };

  function blocks(list_: Block[]): string {
    return list_
      .map((b) => {
        switch (b.kind) {
          case 'heading': {
            const level = Math.min(b.level + 1, 4);
            return `<h${level}>${esc(b.text)}</h${level}>`;
          }
          case 'paragraph':
            return `<p${b.muted ? ' class="muted"' : ''}>${inline(b.spans)}</p>`;
          case 'list':
            return list(b.items, b.ordered === true);
          case 'fields':
            return `<table class="fields"><tbody>${b.rows
              .map(([k, v]) => `<tr><th scope="row">${text(k)}</th><td>${text(v)}</td></tr>`)
              .join('')}</tbody></table>`;
          case 'table':
            return table(b.head, b.rows, { tones: b.tones });
          case 'quote':
            return `<blockquote>${blocks(b.blocks)}</blockquote>`;
          case 'chart':
            return chart(b.chart);
          case 'markdown': // expanded before rendering
            return '';
        }
      })
      .join('\n');
  }

  const body = blocks(expandMarkdown(report.blocks));
  return `<!DOCTYPE html>
<html lang="${report.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="compliance">
<title>${esc(report.title)}</title>
<style>${STYLE}${pageMargins(report)}</style>
</head>
<body>
<header><h1>${esc(report.title)}</h1>${report.subtitle ? `<p class="subtitle">${esc(report.subtitle)}</p>` : ''}</header>
<main>
${body}
</main>
${report.footer ? `<footer class="page-footer">${esc(report.footer)}</footer>` : ''}
</body>
</html>
`;
}
