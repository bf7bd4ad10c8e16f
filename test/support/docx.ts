import { readFileSync } from 'node:fs';
import { unzipSync, strFromU8 } from 'fflate';
import { parseXml, type XmlNode } from './xml.js';

/** A paragraph of a Word document: its style, whether it is in a list, and its text. */
export interface DocxParagraph {
  style?: string;
  list: boolean;
  text: string;
}

const walk = (n: XmlNode, visit: (n: XmlNode) => void): void => {
  visit(n);
  n.children.forEach((c) => walk(c, visit));
};
const find = (n: XmlNode, name: string): XmlNode[] => {
  const out: XmlNode[] = [];
  walk(n, (c) => c.name === name && out.push(c));
  return out;
};
const textOf = (n: XmlNode): string =>
  find(n, 'w:t')
    .map((t) => t.text)
    .join('');

/**
 * Opens a DOCX as a word processor does: unzips it, parses its parts with a conforming XML parser (which throws on
 * anything malformed) and reads the paragraphs of the body and the footer.
 */
export function readDocx(file: string) {
  const parts = unzipSync(readFileSync(file));
  const xml = (name: string) => {
    const part = parts[name];
    if (!part) throw new Error(`${file} has no ${name}; it has ${Object.keys(parts).join(', ')}`);
    return parseXml(strFromU8(part));
  };
  const paragraphs = (root: XmlNode): DocxParagraph[] =>
    find(root, 'w:p').map((p) => ({
      style: find(p, 'w:pStyle')[0]?.attrs['w:val'],
      list: find(p, 'w:numPr').length > 0,
      text: textOf(p),
    }));
  const body = xml('word/document.xml');
  const footer = xml('word/footer1.xml');
  return {
    parts: Object.keys(parts),
    body: paragraphs(body),
    footer: paragraphs(footer),
    /** Field instructions of the footer (PAGE, NUMPAGES). */
    footerFields: find(footer, 'w:instrText').map((n) => n.text.trim()),
    /** Shading colours of table cells. */
    shades: find(body, 'w:shd').map((n) => n.attrs['w:fill']),
    language: find(xml('word/styles.xml'), 'w:lang')[0]?.attrs['w:val'],
  };
}
