import { existsSync } from 'node:fs';
import { openSync } from 'fontkit';
import { describe, expect, it } from 'vitest';
import { findFonts, openFont, WITHOUT_MARKS } from '../../src/services/report/fonts.js';

// The PDF's fonts skip their mark positioning for text without marks (reading those tables was most of a face's first
// line): the text must be laid out exactly as with every feature, and text with marks still gets them placed.
const fonts = findFonts();
const faces = fonts
  ? ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSans-Oblique', 'DejaVuSans-BoldOblique', 'DejaVuSansMono']
      .map((f) => `${fonts.dir}/${f}.ttf`)
      .filter((f) => existsSync(f))
  : [];

interface Run {
  glyphs: { id: number }[];
  positions: unknown[];
}
const shape = (font: { layout(text: string): unknown }, text: string) => {
  const run = font.layout(text) as Run;
  return { glyphs: run.glyphs.map((g) => g.id), positions: run.positions };
};

describe.skipIf(!faces.length)('the fonts of the PDF', () => {
  it.each(faces)('lay out every character the plain path takes exactly as with every feature: %s', async (file) => {
    const fast = await openFont(file);
    const full = openSync(file);
    const plain = Array.from({ length: 0x2800 }, (_v, c) => String.fromCodePoint(c)).filter((ch) =>
      WITHOUT_MARKS.test(ch),
    );
    expect(plain.length).toBeGreaterThan(2000);
    // alone, after a letter, before one that forms ligatures, and in a line of the report
    const texts = plain.flatMap((ch) => [ch, `A${ch}`, `f${ch}i`]);
    texts.push('Schulungsübersicht für Mitarbeitende (Datenschutz, § 35 DSGVO) – 95,5 % → ✓ „erledigt“ ffi');
    const differ = texts.filter((t) => JSON.stringify(shape(fast, t)) !== JSON.stringify(shape(full, t)));
    expect(differ).toEqual([]);
  });

  it('place combining marks as before (text outside the plain path gets every feature)', async () => {
    const file = faces[0]!;
    const fast = await openFont(file);
    const full = openSync(file);
    // u + combining diaeresis, and a letter of Latin Extended Additional that DejaVu Sans Oblique positions as a mark
    for (const text of ['Mu\u0308ller', 'A\u1e12']) {
      expect(WITHOUT_MARKS.test(text)).toBe(false);
      expect(shape(fast, text)).toEqual(shape(full, text));
    }
    const marked = shape(fast, 'Mu\u0308ller').positions as { xOffset: number; yOffset: number }[];
    expect(marked.some((p) => p.xOffset !== 0 || p.yOffset !== 0)).toBe(true);
  });
});
