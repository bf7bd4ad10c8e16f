import type { Paragraph as ParagraphType, Table as TableType, TextRun as TextRunType } from 'docx';
import {
  chartTable,
  type Block,
  type ChartSpec,
  type ListItem,
  type ReportDoc,
  type Span,
} from '../../domain/report.js';
import { expandMarkdown } from './markdown-blocks.js';
import { TONE_COLOURS } from './tones.js';

type Docx = typeof import('docx');
type Part = ParagraphType | TableType;

const LANGUAGE = { de: 'de-DE', en: 'en-GB' } as const;
const GREY = '666666';
// Word's own checkbox glyphs; Word and LibreOffice find them in a symbol font when the text font lacks them
const BOX = { true: '☒', false: '☐' } as const;
/** The text width of an A4 page with Word's default margins of 2.54 cm, in twentieths of a point. */
const TEXT_WIDTH = 11906 - 2 * 1440;
/** The width of a chart in the document, in pixels at 96 dpi: the text width of the page. */
const CHART_PIXELS = 600;
/**
 * The height a chart may take, in pixels at 96 dpi: the text height of the page (A4 less Word's margins of 2.54 cm,
 * 930 px) less its title and the header and first row of its table, which Word keeps on the same page.
 */
const CHART_MAX_PIXELS_HIGH = 820;
const hex = (colour: string) => colour.replace('#', '').toUpperCase();

/** Where a block sits: its indentation (twentieths of a point), its list depth and whether it is set apart (grey). */
interface Place {
  indent: number;
  depth: number;
  muted: boolean;
}

/** Renders a report as a Word document (DOCX): headings in Word's own styles, lists, checkboxes, shaded tables. */
export async function renderDocx(report: ReportDoc): Promise<Buffer> {
  const d: Docx = await import('docx');
  let lists = 0; // each numbered list counts from 1
  const blocksIn = expandMarkdown(report.blocks);
  // charts become pictures before the document is built (resvg draws them from the same SVG as the other formats)
  const pictures = new Map<ChartSpec, { png: Buffer; width: number; height: number }>();
  const chartBlocks = blocksIn.filter((b): b is Extract<Block, { kind: 'chart' }> => b.kind === 'chart');
  if (chartBlocks.length) {
    const { chartPng, chartSize } = await import('./charts.js');
    for (const { chart } of chartBlocks) {
      const size = chartSize(chart);
      // the text width, or narrower for a chart that would be taller than a page (horizontal bars of many modules)
      const height = Math.min(Math.round((size.height * CHART_PIXELS) / size.width), CHART_MAX_PIXELS_HIGH);
      const width = Math.min(CHART_PIXELS, Math.round((height * size.width) / size.height));
      // drawn at twice the size it is shown at, so it stays sharp when printed or zoomed
      pictures.set(chart, { png: await chartPng(chart, report.lang, width * 2), width, height });
    }
  }

  const runs = (spans: Span[], place: Place, extra: { bold?: boolean } = {}): TextRunType[] =>
    spans.flatMap((s) =>
      s.text.split('\n').map(
        (text, i) =>
          new d.TextRun({
            text,
            break: i > 0 ? 1 : undefined,
            bold: s.bold || extra.bold,
            italics: s.italic || place.muted,
            font: s.code ? 'Consolas' : undefined,
            color: place.muted ? GREY : undefined,
          }),
      ),
    );

  const listParagraphs = (items: ListItem[], ordered: boolean, place: Place): Part[] => {
    const instance = ++lists;
    return items.flatMap((item) => {
      const level = Math.min(place.depth, 8);
      const options =
        item.checked !== undefined
          ? {
              indent: { left: place.indent + 360 * (level + 1), hanging: 300 },
              children: [
                new d.TextRun({ text: `${BOX[`${item.checked}`]} `, font: 'Segoe UI Symbol' }),
                ...runs(item.spans, place),
              ],
            }
          : {
              ...(ordered ? { numbering: { reference: 'ordered', level, instance } } : { bullet: { level } }),
              children: runs(item.spans, place),
            };
      const nested = { ...place, depth: place.depth + 1 };
      return [new d.Paragraph({ ...options, spacing: { after: 60 } }), ...parts(item.children ?? [], nested)];
    });
  };

  const cell = (text: string, width: number, fill?: string, bold = false) =>
    new d.TableCell({
      width: { size: Math.round(width * 100), type: d.WidthType.PERCENTAGE },
      shading: fill ? { fill: hex(fill), type: d.ShadingType.CLEAR, color: 'auto' } : undefined,
      margins: { top: 40, bottom: 40, left: 80, right: 80 },
      children: text
        .split('\n')
        .map((line) => new d.Paragraph({ children: [new d.TextRun({ text: line, bold, size: 18 })] })),
    });

  const table = (
    head: string[],
    rows: string[][],
    widths: number[],
    fill: (r: number, c: number) => string | undefined,
  ) =>
    new d.Table({
      width: { size: 100, type: d.WidthType.PERCENTAGE },
      // the grid is what LibreOffice lays a table out by; the cells' percentages alone it ignores
      columnWidths: widths.map((w) => Math.round(w * TEXT_WIDTH)),
      rows: [
        ...(head.length
          ? [
              new d.TableRow({
                tableHeader: true, // repeated at the top of each page the table goes on to
                cantSplit: true,
                children: head.map((h, i) => cell(h, widths[i]!, '#e6e6e6', true)),
              }),
            ]
          : []),
        ...rows.map(
          (r, ri) =>
            new d.TableRow({ cantSplit: true, children: r.map((c, ci) => cell(c, widths[ci]!, fill(ri, ci))) }),
        ),
      ],
    });

  const space = () => new d.Paragraph({ spacing: { after: 60 }, children: [] });

  const chart = (c: ChartSpec): Part[] => {
    const picture = pictures.get(c)!;
    const data = chartTable(c, report.lang);
    const n = data.head.length;
    const first = Math.min(0.5, Math.max(0.25, 1 - 0.2 * (n - 1)));
    return [
      new d.Paragraph({
        keepNext: true,
        spacing: { before: 200, after: 80 },
        children: [new d.TextRun({ text: c.title, bold: true })],
      }),
      new d.Paragraph({
        keepNext: true,
        children: [
          new d.ImageRun({
            type: 'png',
            data: picture.png,
            transformation: { width: picture.width, height: picture.height },
            altText: { name: c.title, title: c.title, description: c.description },
          }),
        ],
      }),
      table(data.head, data.rows, [first, ...Array(n - 1).fill((1 - first) / (n - 1))], () => undefined),
      space(),
    ];
  };

  function parts(blocks: Block[], place: Place): Part[] {
    return blocks.flatMap((b): Part[] => {
      switch (b.kind) {
        case 'heading':
          return [
            new d.Paragraph({
              heading:
                b.level === 1
                  ? d.HeadingLevel.HEADING_1
                  : b.level === 2
                    ? d.HeadingLevel.HEADING_2
                    : d.HeadingLevel.HEADING_3,
              keepNext: true,
              children: [new d.TextRun(b.text)],
            }),
          ];
        case 'paragraph':
          return [
            new d.Paragraph({
              indent: place.indent ? { left: place.indent } : undefined,
              spacing: { after: 120 },
              children: runs(b.spans, { ...place, muted: place.muted || b.muted === true }),
            }),
          ];
        case 'list':
          return listParagraphs(b.items, b.ordered === true, place);
        case 'fields':
          return [table([], b.rows, [0.3, 0.7], (_r, c) => (c === 0 ? '#f3f3f3' : undefined)), space()];
        case 'table': {
          const n = b.head.length;
          const fill = (r: number, c: number) => {
            const tone = b.tones?.[r]?.[c];
            return tone && TONE_COLOURS[tone];
          };
          return [table(b.head, b.rows, b.widths ?? Array(n).fill(1 / n), fill), space()];
        }
        case 'quote':
          return parts(b.blocks, { ...place, indent: place.indent + 400, muted: true });
        case 'chart':
          return chart(b.chart);
        case 'markdown': // expanded before rendering
          return [];
      }
    });
  }

  const [pageWord, ofWord] = report.pageWords;
  const document = new d.Document({
    title: report.title,
    creator: 'compliance',
    styles: {
      default: {
        document: { run: { font: 'Calibri', size: 21, language: { value: LANGUAGE[report.lang] } } },
      },
    },
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: [0, 1, 2, 3, 4, 5, 6, 7, 8].map((level) => ({
            level,
            format: d.LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: d.AlignmentType.START,
            style: { paragraph: { indent: { left: 360 * (level + 1), hanging: 300 } } },
          })),
        },
      ],
    },
    sections: [
      {
        properties: { page: { size: { width: 11906, height: 16838 } } }, // A4
        footers: {
          default: new d.Footer({
            children: [
              new d.Paragraph({
                tabStops: [{ type: d.TabStopType.RIGHT, position: d.TabStopPosition.MAX }],
                children: [
                  new d.TextRun({ text: report.footer ?? '', size: 16, color: '777777' }),
                  new d.TextRun({
                    size: 16,
                    color: '777777',
                    children: [
                      new d.Tab(),
                      `${pageWord} `,
                      d.PageNumber.CURRENT,
                      ` ${ofWord} `,
                      d.PageNumber.TOTAL_PAGES,
                    ],
                  }),
                ],
              }),
            ],
          }),
        },
        children: [
          new d.Paragraph({ heading: d.HeadingLevel.TITLE, children: [new d.TextRun(report.title)] }),
          ...(report.subtitle
            ? [
                new d.Paragraph({
                  spacing: { after: 240 },
                  children: [new d.TextRun({ text: report.subtitle, color: GREY, size: 18 })],
                }),
              ]
            : []),
          ...parts(blocksIn, { indent: 0, depth: 0, muted: false }),
        ],
      },
    ],
  });
  return d.Packer.toBuffer(document);
}
