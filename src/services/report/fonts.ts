import { existsSync } from 'node:fs';

const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu', '/Library/Fonts'];

/** DejaVu Sans covers every European script; pdfkit's built-in Helvetica still covers German (ä ö ü ß €). */
export function findFonts(): { regular: string; bold: string; dir: string } | undefined {
  for (const dir of FONT_DIRS) {
    const regular = `${dir}/DejaVuSans.ttf`;
    const bold = `${dir}/DejaVuSans-Bold.ttf`;
    if (existsSync(regular) && existsSync(bold)) return { regular, bold, dir };
  }
  return undefined;
}

/**
 * Characters whose layout the fonts' mark positioning (the OpenType features `mark` and `mkmk`, which place an accent
 * or other combining mark on its letter) never changes: Latin letters with their accents precomposed, punctuation,
 * currency, arrows and symbols; no combining mark (U+0300–U+036F, U+20D0–U+20FF lie outside). Checked for every
 * DejaVu face by test/services/report-fonts.test.ts; a character of Latin Extended Additional (U+1E00–U+1EFF) is not in
 * it, as DejaVu Sans Oblique positions some of those as marks.
 */
export const WITHOUT_MARKS = /^[\t\n\r\u0020-\u007e\u00a0-\u024f\u2000-\u206f\u20a0-\u20cf\u2100-\u27bf]*$/;
const NO_MARK_POSITIONING = { mark: false, mkmk: false };

/**
 * Opens a TrueType font for pdfkit, laid out as pdfkit would lay it out, but without reading the font's mark
 * positioning tables for text that has no marks to place: reading them is most of the cost of a font's first line
 * (about 0.15 s of CPU for each DejaVu face, against a few milliseconds for all the text of a report after it), and
 * they change nothing in such text. Text with other characters is laid out with every feature.
 */
export async function openFont(path: string): Promise<import('fontkit').Font> {
  const { openSync } = await import('fontkit');
  const font = openSync(path);
  const layout = font.layout.bind(font);
  const plain = (text: unknown) => typeof text === 'string' && WITHOUT_MARKS.test(text);
  font.layout = (text, features, ...rest) =>
    layout(text, features ?? (plain(text) ? NO_MARK_POSITIONING : undefined), ...rest);
  return font;
}
