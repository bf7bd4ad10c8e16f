import { existsSync } from 'node:fs';
import type { ReportDoc } from '../../domain/report.js';

const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu', '/Library/Fonts'];

/** DejaVu Sans covers every European script; pdfkit's built-in Helvetica still covers German (ä ö ü ß €). */
export function findFonts(): { regular: string; bold: string } | undefined {
  for (const dir of FONT_DIRS) {
    const regular = `${dir}/DejaVuSans.ttf`;
    const bold = `${dir}/DejaVuSans-Bold.ttf`;
    if (existsSync(regular) && existsSync(bold)) return { regular, bold };
  }
  return undefined;
}

/** Creates a pdfkit document with our fonts registered as `body` and `bold`. */
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
  doc.registerFont('body', fonts?.regular ?? 'Helvetica');
  doc.registerFont('bold', fonts?.bold ?? 'Helvetica-Bold');
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

/** Renders a report as an A4 PDF. */
export async function renderPdf(report: ReportDoc): Promise<Buffer> {
  const doc = await newPdf({ title: report.title });
  const width = doc.page.width - 100;
  const left = 50;
  const ensure = (h: number) => {
    if (doc.y + h > doc.page.height - 60) doc.addPage();
  };
  doc.font('bold').fontSize(18).text(report.title, { width });
  if (report.subtitle)
    doc.moveDown(0.3).font('body').fontSize(9).fillColor('#555').text(report.subtitle, { width }).fillColor('black');
  doc.moveDown();

  for (const b of report.blocks) {
    switch (b.kind) {
      case 'heading':
        ensure(40);
        doc
          .moveDown(0.5)
          .font('bold')
          .fontSize(b.level === 1 ? 16 : b.level === 2 ? 13 : 11)
          .text(b.text, left, doc.y, { width });
        doc.moveDown(0.3).font('body').fontSize(10);
        break;
      case 'paragraph':
        doc.font('body').fontSize(10).text(b.text, left, doc.y, { width });
        doc.moveDown(0.4);
        break;
      case 'list':
        doc
          .font('body')
          .fontSize(10)
          .list(b.items, left + 10, doc.y, { width: width - 10, bulletRadius: 1.5 });
        doc.moveDown(0.4);
        break;
      case 'fields':
        table(doc, [], b.rows, [0.3, 0.7]);
        break;
      case 'table': {
        const n = b.head.length;
        table(doc, b.head, b.rows, n === 4 ? [0.2, 0.2, 0.22, 0.38] : Array(n).fill(1 / n));
        break;
      }
    }
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0; // the footer sits below the text area; without this pdfkit would start a new page
    doc
      .font('body')
      .fontSize(8)
      .fillColor('#777')
      .text(`${i + 1} / ${range.count}`, left, doc.page.height - 40, { width, align: 'right', lineBreak: false });
  }
  return pdfToBuffer(doc);

  function table(d: PDFKit.PDFDocument, head: string[], rows: string[][], fractions: number[]) {
    const widths = fractions.map((f) => f * width);
    const pad = 3;
    const drawRow = (cells: string[], bold: boolean) => {
      d.font(bold ? 'bold' : 'body').fontSize(9);
      const h = Math.max(...cells.map((c, i) => d.heightOfString(c || ' ', { width: widths[i]! - 2 * pad }))) + 2 * pad;
      ensure(h);
      const y = d.y;
      let x = left;
      cells.forEach((c, i) => {
        d.rect(x, y, widths[i]!, h).strokeColor('#bbb').lineWidth(0.5).stroke();
        d.fillColor('black').text(c || ' ', x + pad, y + pad, { width: widths[i]! - 2 * pad });
        x += widths[i]!;
      });
      d.x = left;
      d.y = y + h;
    };
    if (head.length) drawRow(head, true);
    for (const r of rows) drawRow(r, false);
    d.moveDown(0.5);
  }
}
