import { existsSync } from 'node:fs';
import {
  chartTable,
  type Block,
  type ChartSpec,
  type ListItem,
  type ReportDoc,
  type Span,
} from '../../domain/report.js';
import { TONE_COLOURS } from './tones.js';
import { findFonts } from './fonts.js';

/**
 * Creates a pdfkit document with our fonts registered as `body`, `bold`, `italic`, `bolditalic` and `mono`. The
 * oblique and mono faces come with Debian's fonts-dejavu-extra / -core; where one is missing, emphasis falls back to
 * the upright face rather than to a font without the script's letters.
 */
export async function newPdf(opts: { title: string; layout?: 'portrait' | 'landscape' }) {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: opts.layout ?? 'portrait',
    margin: 50,
    bufferPages: true,
    info: { Title: opts.title, Producer: 'compliance' },
  });
  const fonts = findFonts();
  const face = (file: string, fallback: string, builtin: string) => {
    if (!fonts) return builtin;
    const path = `${fonts.dir}/${file}`;
    return existsSync(path) ? path : fallback;
  };
  doc.registerFont('body', fonts?.regular ?? 'Helvetica');
  doc.registerFont('bold', fonts?.bold ?? 'Helvetica-Bold');
  doc.registerFont('italic', face('DejaVuSans-Oblique.ttf', fonts?.regular ?? '', 'Helvetica-Oblique'));
  doc.registerFont('bolditalic', face('DejaVuSans-BoldOblique.ttf', fonts?.bold ?? '', 'Helvetica-BoldOblique'));
  doc.registerFont('mono', face('DejaVuSansMono.ttf', fonts?.regular ?? '', 'Courier'));
  doc.font('body');
  return doc;
}

export function pdfToBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** Head, rows, column fractions and the column set in bold (-1 for none) of a table or a block of fields. */
function tableParts(t: Extract<Block, { kind: 'table' | 'fields' }>): [string[], string[][], number[], number] {
  if (t.kind === 'fields') return [[], t.rows, [0.3, 0.7], 0];
  const n = t.head.length;
  return [t.head, t.rows, t.widths ?? Array(n).fill(1 / n), -1];
}

const SIZE = 10;
const GAP = 1.5;

/**
 * Text as it is laid out: a command-line option (`--threshold`, `-o`) is not broken after its dashes. A word joiner
 * (U+2060) after them forbids the break (Unicode line breaking, rule LB11); it has no width and no glyph, so the text
 * reads and copies as written.
 */
const unbreakable = (text: string): string => text.replace(/(?<![\p{L}\p{N}-])(--?)(?=\p{L})/gu, '$1\u2060');
const GREY = '#666666';
const LINE = '#b8b8b8';

/** Renders a report as an A4 PDF: headings, fields, rich text, lists with checkboxes, shaded tables, page footer. */
export async function renderPdf(report: ReportDoc): Promise<Buffer> {
  const doc = await newPdf({ title: report.title });
  // the Markdown parser loads with the report renderers only, not with every PDF (certificates)
  const { expandMarkdown } = await import('./markdown-blocks.js');
  // charts load only for a report that has some: ECharts and the SVG-to-PDF converter are large
  const charting = report.blocks.some((b) => b.kind === 'chart')
    ? { svg: await import('./charts.js'), toPdf: (await import('svg-to-pdfkit')).default }
    : undefined;
  const left = 50;
  const width = doc.page.width - 100;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  let colour = 'black';
  /** Starts a new page when less than `h` points are left, so a line, a row or a heading is not cut. */
  const ensure = (h: number) => {
    if (doc.y + h > bottom()) doc.addPage();
  };
  const fontOf = (s: Span) =>
    s.code ? 'mono' : s.bold && s.italic ? 'bolditalic' : s.bold ? 'bold' : s.italic ? 'italic' : 'body';

  function write(spans: Span[], x: number, w: number, size = SIZE) {
    const parts = spans.length ? spans : [{ text: ' ' }];
    // a paragraph of up to three lines is not split between pages (measured only near the foot of a page, as text
    // layout is the costly part of drawing); a longer one keeps at least a line together
    const threeLines = size * 4;
    if (doc.y + threeLines > bottom()) {
      const text = unbreakable(parts.map((s) => s.text).join(''));
      const whole = doc.font('body').fontSize(size).heightOfString(text, { width: w, lineGap: GAP });
      ensure(Math.max(size * 1.4, Math.min(whole, threeLines)));
    }
    doc.fillColor(colour).fontSize(size);
    parts.forEach((s, i) => {
      const options = { width: w, lineGap: GAP, continued: i < parts.length - 1 };
      doc.font(fontOf(s));
      if (i === 0) doc.text(unbreakable(s.text), x, doc.y, options);
      else doc.text(unbreakable(s.text), options);
    });
    doc.font('body');
  }

  function checkbox(x: number, y: number, checked: boolean) {
    doc.save().lineWidth(0.8).strokeColor('#333333').rect(x, y, 8, 8).stroke();
    if (checked)
      doc
        .lineWidth(1.4)
        .moveTo(x + 1.6, y + 4.2)
        .lineTo(x + 3.5, y + 6.4)
        .lineTo(x + 7, y + 1.4)
        .stroke();
    doc.restore();
  }

  function list(items: ListItem[], ordered: boolean, x: number, w: number, nested: boolean) {
    const marker = ordered ? 16 : 11;
    items.forEach((item, n) => {
      ensure(SIZE * 1.5);
      const y = doc.y;
      const boxed = item.checked !== undefined;
      if (boxed) checkbox(x, y + 1.5, item.checked!);
      else if (ordered)
        doc
          .font('body')
          .fontSize(SIZE)
          .fillColor(colour)
          .text(`${n + 1}.`, x, y, { width: marker, lineBreak: false });
      else
        doc
          .circle(x + 3, y + 5.5, 1.6)
          .fill(colour)
          .fillColor(colour);
      const textX = x + (boxed ? 14 : marker);
      doc.y = y;
      write(item.spans, textX, w - (textX - x));
      if (item.children?.length) {
        doc.moveDown(0.15);
        blocks(item.children, textX, w - (textX - x), true);
      }
      doc.moveDown(0.2);
    });
    if (!nested) doc.moveDown(0.3);
  }

  const PAD = 3;
  /** The height of a table row: its tallest cell, in 9-point text. */
  // a row is measured for keeping a table together and again when it is drawn: text layout is the costly part
  const measured = new Map<string, number>();
  function rowHeight(cells: string[], widths: number[], bold: (c: number) => boolean): number {
    const key = `${cells.join('\u0000')}\u0001${widths.join(',')}\u0001${cells.map((_c, i) => (bold(i) ? 1 : 0)).join('')}`;
    // the rows are drawn in the size they are measured in, which this sets
    doc.fontSize(9);
    const known = measured.get(key);
    if (known !== undefined) return known;
    const heights = cells.map((c, i) =>
      doc.font(bold(i) ? 'bold' : 'body').heightOfString(unbreakable(c) || ' ', { width: widths[i]! - 2 * PAD }),
    );
    const h = Math.max(...heights) + 2 * PAD;
    measured.set(key, h);
    return h;
  }

  /** The height a whole table takes. */
  function tableHeight(t: Extract<Block, { kind: 'table' | 'fields' }>, w: number): number {
    const [head, rows, fractions, boldColumn] = tableParts(t);
    const widths = fractions.map((f) => f * w);
    const heights = rows.map((r) => rowHeight(r, widths, (c) => c === boldColumn));
    if (head.length) heights.push(rowHeight(head, widths, () => true));
    return heights.reduce((a, b) => a + b, 0);
  }

  /** A table that fits on a page this tall or less is kept together (the risk matrix, a block of fields). */
  const KEEP_TOGETHER = 260;

  function table(
    head: string[],
    rows: string[][],
    fractions: number[],
    x: number,
    w: number,
    shade: (r: number, c: number) => string | undefined,
    boldColumn = -1,
  ) {
    const widths = fractions.map((f) => f * w);
    const total = tableHeight({ kind: 'table', head, rows, widths: fractions }, w);
    if (total <= KEEP_TOGETHER && doc.y + total > bottom()) doc.addPage();
    // a header is never left alone at the foot of a page: it goes on with its first row
    const first = rows[0] ? rowHeight(rows[0], widths, (c) => c === boldColumn) : 0;
    if (head.length && doc.y + rowHeight(head, widths, () => true) + first > bottom()) doc.addPage();
    const draw = (cells: string[], r: number) => {
      const header = r < 0;
      const bold = (c: number) => header || c === boldColumn;
      const h = rowHeight(cells, widths, bold);
      if (doc.y + h > bottom()) {
        doc.addPage();
        if (!header && head.length) draw(head, -1); // a table that goes on on a new page repeats its header
      }
      const y = doc.y;
      let cx = x;
      cells.forEach((c, i) => {
        const fill = header ? '#e6e6e6' : shade(r, i);
        if (fill) doc.rect(cx, y, widths[i]!, h).fill(fill);
        doc.rect(cx, y, widths[i]!, h).lineWidth(0.5).strokeColor(LINE).stroke();
        doc
          .font(bold(i) ? 'bold' : 'body')
          .fillColor('black')
          .text(unbreakable(c) || ' ', cx + PAD, y + PAD, { width: widths[i]! - 2 * PAD });
        cx += widths[i]!;
      });
      doc.x = x;
      doc.y = y + h;
    };
    if (head.length) draw(head, -1);
    rows.forEach((r, i) => draw(r, i));
    doc.font('body').fontSize(SIZE);
    doc.moveDown(0.6);
  }

  /**
   * A chart as vectors, scaled to the text width, with its title above and its data as a table below; a chart taller
   * than a page (horizontal bars of many modules) is scaled down to what a page holds beside its title and the
   * table's header.
   */
  function chart(c: ChartSpec, x: number, w: number) {
    const { svg, toPdf } = charting!;
    const size = svg.chartSize(c);
    const data = chartTable(c, report.lang);
    const n = data.head.length;
    const first = Math.min(0.5, Math.max(0.25, 1 - 0.2 * (n - 1)));
    const widths = [first, ...Array(n - 1).fill((1 - first) / (n - 1))];
    const cols = widths.map((f) => f * w);
    // the table's header and first row, which stay with the chart
    const header =
      rowHeight(data.head, cols, () => true) + (data.rows[0] ? rowHeight(data.rows[0], cols, () => false) : 0);
    const title = doc.font('bold').fontSize(11).heightOfString(c.title, { width: w });
    const page = bottom() - doc.page.margins.top;
    const scale = w / size.width;
    const natural = Math.min(size.height * scale, page - title - header - 40);
    // horizontal bars (of many modules) stand closer together, at the same width and text size, to fit the room left
    // on this page or a page's height, rather than leave most of a page empty; a chart that cannot moves on whole
    const room = bottom() - doc.y - title - header - 32;
    const least = svg.minChartHeight(c) * scale;
    const h = room < natural && room >= least ? room : natural;
    // the title, the chart and the start of its table stay on one page
    ensure(title + h + header + 32);
    doc.moveDown(0.3);
    doc.font('bold').fontSize(11).fillColor('black').text(c.title, x, doc.y, { width: w });
    doc.moveDown(0.3);
    const top = doc.y;
    // without preserveAspectRatio svg-to-pdfkit ignores width and height and draws the SVG's own size in px as pt ×
    // 0.75 (510 pt for 680 px: wider than the text and taller than reserved, its axis under the table that follows)
    const drawn = c.horizontal ? Math.max(svg.minChartHeight(c), h / scale) : size.height;
    toPdf(doc, svg.chartSvg(c, report.lang, drawn), x, top, {
      width: w,
      height: h,
      preserveAspectRatio: 'xMidYMin meet',
      fontCallback: (_family: string, bold: boolean) => (bold ? 'bold' : 'body'),
    });
    doc.x = x;
    doc.y = top + h + 6;
    doc.font('body');
    table(data.head, data.rows, widths, x, w, () => undefined);
  }

  function blocks(list_: Block[], x: number, w: number, nested = false) {
    list_.forEach((b, i) => {
      const next = list_[i + 1];
      switch (b.kind) {
        case 'heading': {
          const size = b.level === 1 ? 16 : b.level === 2 ? 13 : 11;
          // keep a heading with the start of what follows it: a small table whole, else a few lines
          const tabular = next?.kind === 'table' || next?.kind === 'fields';
          const follow = tabular ? Math.min(tableHeight(next, w), KEEP_TOGETHER) : 40;
          ensure(size * 1.5 + follow + 10);
          doc.moveDown(b.level === 3 ? 0.3 : 0.6);
          doc.font('bold').fontSize(size).fillColor('black').text(b.text, x, doc.y, { width: w });
          doc.moveDown(0.3);
          break;
        }
        case 'paragraph':
          if (b.muted) {
            const saved = colour;
            colour = GREY;
            write(
              b.spans.map((s) => ({ ...s, italic: true })),
              x,
              w,
            );
            colour = saved;
          } else write(b.spans, x, w);
          doc.moveDown(0.45);
          break;
        case 'list':
          list(b.items, b.ordered === true, x, w, nested);
          break;
        case 'fields':
        case 'table': {
          const [head, rows, fractions, boldColumn] = tableParts(b);
          const shade = (r: number, c: number) => {
            if (b.kind === 'fields') return c === 0 ? '#f3f3f3' : undefined;
            const tone = b.tones?.[r]?.[c];
            return tone && TONE_COLOURS[tone];
          };
          table(head, rows, fractions, x, w, shade, boldColumn);
          break;
        }
        case 'quote': {
          const saved = colour;
          const [page, top] = [doc.bufferedPageRange().count, doc.y];
          colour = GREY;
          blocks(b.blocks, x + 12, w - 12);
          colour = saved;
          if (doc.bufferedPageRange().count === page)
            doc
              .save()
              .lineWidth(2)
              .strokeColor('#cccccc')
              .moveTo(x + 3, top)
              .lineTo(x + 3, doc.y - 6)
              .stroke()
              .restore();
          break;
        }
        case 'chart':
          chart(b.chart, x, w);
          break;
        case 'markdown': // expanded before rendering
          break;
      }
    });
  }

  doc.font('bold').fontSize(18).text(report.title, left, doc.y, { width });
  if (report.subtitle) doc.moveDown(0.3).font('body').fontSize(9).fillColor(GREY).text(report.subtitle, { width });
  doc
    .moveDown(0.5)
    .lineWidth(0.8)
    .strokeColor(LINE)
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.fillColor('black').moveDown(0.8);
  blocks(expandMarkdown(report.blocks), left, width);

  const range = doc.bufferedPageRange();
  const [pageWord, ofWord] = report.pageWords;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0; // the footer sits below the text area; without this pdfkit would start a new page
    const y = doc.page.height - 38;
    doc.font('body').fontSize(8).fillColor('#777777');
    if (report.footer) {
      const footer = report.footer.length > 95 ? `${report.footer.slice(0, 94)}…` : report.footer;
      doc.text(footer, left, y, { width: width - 80, lineBreak: false });
    }
    doc.text(`${pageWord} ${i + 1} ${ofWord} ${range.count}`, left + width - 80, y, {
      width: 80,
      align: 'right',
      lineBreak: false,
    });
  }
  return pdfToBuffer(doc);
}
