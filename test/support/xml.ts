import { SaxesParser } from 'saxes';

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/**
 * Reads a document with saxes, a conforming XML 1.0 parser: it refuses what a CI server's parser refuses
 * (characters XML cannot carry, unbalanced tags, unknown entities), so a report that passes here parses there.
 */
export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser();
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  let failure: Error | undefined;
  parser.on('error', (e) => (failure ??= e));
  parser.on('opentag', (tag) => {
    const node: XmlNode = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [], text: '' };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => (stack[stack.length - 1]!.text += t));
  parser.write(xml).close();
  if (failure) throw failure;
  return root.children[0]!;
}
