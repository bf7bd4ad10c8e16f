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
