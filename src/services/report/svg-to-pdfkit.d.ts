// svg-to-pdfkit ships no types: the one call the PDF report makes.
declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    /** Names a font registered in the document for an SVG font family, weight and style. */
    fontCallback?: (family: string, bold: boolean, italic: boolean) => string;
    warningCallback?: (message: string) => void;
    assumePt?: boolean;
  }
  /** Draws an SVG document (text) into a pdfkit document at x, y as vectors. */
  export default function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: SvgToPdfOptions,
  ): void;
}
