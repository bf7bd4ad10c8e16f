import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmp } from './helpers.js';

/** One rendered page: RGB pixels, row by row. */
export interface Page {
  width: number;
  height: number;
  rgb: Buffer;
}

/** Reads a binary PPM (P6), the simplest format pdftoppm writes. */
function readPpm(file: string): Page {
  const data = readFileSync(file);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error(`${file}: not a binary PPM`);
  return { width: Number(header[1]), height: Number(header[2]), rgb: data.subarray(header[0].length) };
}

/** Renders every page of a PDF with pdftoppm, as a person would see it (call requirePrograms first). */
export function renderPages(pdf: string, dpi = 60): Page[] {
  const dir = tmp('pages-');
  execFileSync('pdftoppm', ['-r', String(dpi), pdf, join(dir, 'p')]);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ppm'))
    .sort()
    .map((f) => readPpm(join(dir, f)));
}

/** The share of pixels in a band of rows (fractions of the height) that are not near white: 0 for a blank band. */
export function ink(page: Page, from = 0, to = 1): number {
  const [y0, y1] = [Math.floor(from * page.height), Math.floor(to * page.height)];
  let dark = 0;
  for (let i = y0 * page.width * 3; i < y1 * page.width * 3; i += 3)
    if (page.rgb[i]! + page.rgb[i + 1]! + page.rgb[i + 2]! < 600) dark++;
  return dark / ((y1 - y0) * page.width);
}

/**
 * How far down its text area a page is drawn on: the lowest row with ink, as a share of the area between the margins
 * (`margin` points of a `pageHeight`-point page, A4 by default), the footer below the bottom margin left out.
 */
export function filledTo(page: Page, margin = 50, pageHeight = 842): number {
  const [top, bottom] = [margin / pageHeight, 1 - margin / pageHeight];
  const rows = Math.floor((bottom - top) * page.height);
  const first = Math.floor(top * page.height);
  for (let r = rows; r > 0; r--)
    if (ink(page, (first + r - 1) / page.height, (first + r) / page.height) > 0) return r / rows;
  return 0;
}

/** How many pixels of a page have a colour within `tolerance` of `hex` in each channel. */
export function pixelsOf(page: Page, hex: string, tolerance = 8): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < page.rgb.length; i += 3)
    if (
      Math.abs(page.rgb[i]! - r!) <= tolerance &&
      Math.abs(page.rgb[i + 1]! - g!) <= tolerance &&
      Math.abs(page.rgb[i + 2]! - b!) <= tolerance
    )
      n++;
  return n;
}

/** A word of a PDF where pdftotext finds it, in points from the top left of its page (pages count from 0). */
export interface PdfWord {
  page: number;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The words of a PDF with their boxes and the size of its (first) page, from `pdftotext -bbox`. */
export function pdfWords(pdf: string): { width: number; height: number; words: PdfWord[] } {
  const xml = execFileSync('pdftotext', ['-bbox', pdf, '-']).toString();
  const [, width, height] = /<page width="([\d.]+)" height="([\d.]+)"/.exec(xml)!.map(Number);
  const words: PdfWord[] = [];
  xml
    .split('<page ')
    .slice(1)
    .forEach((page, i) => {
      for (const m of page.matchAll(
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
      ))
        words.push({ page: i, text: m[5]!, x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]! });
    });
  return { width: width!, height: height!, words };
}

/** Pairs of words drawn over each other on the same page (by more than half a point each way), as text. */
export function overlapping(words: PdfWord[]): string[] {
  const found: string[] = [];
  for (const [i, a] of words.entries())
    for (const b of words.slice(i + 1))
      if (
        a.page === b.page &&
        Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 &&
        Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5
      )
        found.push(`"${a.text}" and "${b.text}" on page ${a.page + 1}`);
  return found;
}
