import { describe, expect, it } from 'vitest';
import { formatDiff, lineDiff, MAX_DIFF_CELLS, type DiffLine } from '../../src/domain/legal-documents/line-diff.js';

const show = (d: DiffLine[]) => d.map((l) => `${l.op}${l.text}`);
const lines = (n: number, prefix = 'l') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('lineDiff', () => {
  it('reports identical texts as unchanged lines, whatever the line endings', () => {
    expect(show(lineDiff('a\nb\nc', 'a\nb\nc'))).toEqual([' a', ' b', ' c']);
    expect(show(lineDiff('a\r\nb', 'a\nb'))).toEqual([' a', ' b']);
    expect(show(lineDiff('', ''))).toEqual([' ']);
  });

  it('shows a change in the first line, removal before addition', () => {
    expect(show(lineDiff('x\nb\nc', 'y\nb\nc'))).toEqual(['-x', '+y', ' b', ' c']);
  });

  it('shows a change in the last line', () => {
    expect(show(lineDiff('a\nb\nx', 'a\nb\ny'))).toEqual([' a', ' b', '-x', '+y']);
  });

  it('shows a changed single line and a text that grows or shrinks at either end', () => {
    expect(show(lineDiff('x', 'y'))).toEqual(['-x', '+y']);
    expect(show(lineDiff('a\nb', 'z\na\nb'))).toEqual(['+z', ' a', ' b']);
    expect(show(lineDiff('a\nb', 'a\nb\nz'))).toEqual([' a', ' b', '+z']);
    expect(show(lineDiff('z\na\nb', 'a\nb'))).toEqual(['-z', ' a', ' b']);
    expect(show(lineDiff('a\nb\nz', 'a\nb'))).toEqual([' a', ' b', '-z']);
  });

  it('keeps the longest common run of lines when a line moves', () => {
    // moving l5 to the top: the table keeps l1-l4 in common and shows one line added and one removed
    const a = lines(5);
    const b = ['l5', ...lines(4)];
    expect(show(lineDiff(a.join('\n'), b.join('\n')))).toEqual(['+l5', ' l1', ' l2', ' l3', ' l4', '-l5']);
    // and moving l1 to the end the other way round
    expect(show(lineDiff(a.join('\n'), [...lines(5).slice(1), 'l1'].join('\n')))).toEqual([
      '-l1',
      ' l2',
      ' l3',
      ' l4',
      ' l5',
      '+l1',
    ]);
  });

  it('matches lines across interleaved edits in the middle', () => {
    const a = ['head', 'a', 'b', 'c', 'd', 'e', 'tail'].join('\n');
    const b = ['head', 'a', 'x', 'c', 'e', 'y', 'tail'].join('\n');
    expect(show(lineDiff(a, b))).toEqual([' head', ' a', '-b', '+x', ' c', '-d', ' e', '+y', ' tail']);
  });

  it('prefers the longer common subsequence over the first match', () => {
    // a greedy matcher would pair the first "a" and lose b, c, d; the LCS keeps three lines
    const d = lineDiff(['a', 'b', 'c', 'd'].join('\n'), ['b', 'c', 'd', 'a'].join('\n'));
    expect(show(d)).toEqual(['-a', ' b', ' c', ' d', '+a']);
    expect(d.filter((l) => l.op === ' ')).toHaveLength(3);
  });

  it('shows a line added to or removed from an empty text, and repeated lines where they changed', () => {
    expect(show(lineDiff('', 'a'))).toEqual(['-', '+a']);
    expect(formatDiff(lineDiff('', 'a'), 0)).toBe('-\n+a');
    // a repeated line: the first stays in place, the change is the line after it
    expect(show(lineDiff('a', 'a\na'))).toEqual([' a', '+a']);
    expect(show(lineDiff('a\na', 'a'))).toEqual([' a', '-a']);
    // the common last line stays at the end, the additions come before it
    expect(show(lineDiff('a', 'b\na\na'))).toEqual(['+b', '+a', ' a']);
    expect(show(lineDiff('a', 'b\nb\na\nb'))).toEqual(['+b', '+b', ' a', '+b']);
  });

  describe('on every pair of short texts over two letters', () => {
    // every text of one to four lines "a" and "b": 30 texts, 900 pairs
    const texts = [1, 2, 3, 4].flatMap((n) =>
      Array.from({ length: 2 ** n }, (_, k) => [...k.toString(2).padStart(n, '0')].map((c) => (c === '0' ? 'a' : 'b'))),
    );
    /** The length of the longest common subsequence, by the textbook recursion. */
    const lcsLength = (x: string[], y: string[]): number => {
      const memo = new Map<string, number>();
      const go = (i: number, j: number): number => {
        if (i === x.length || j === y.length) return 0;
        const key = `${i},${j}`;
        let r = memo.get(key);
        if (r === undefined) {
          r = x[i] === y[j] ? go(i + 1, j + 1) + 1 : Math.max(go(i + 1, j), go(i, j + 1));
          memo.set(key, r);
        }
        return r;
      };
      return go(0, 0);
    };
    const pairs = texts.flatMap((x) => texts.map((y) => [x, y] as const));

    it('gives back the old text from its unchanged and removed lines, the new one from its unchanged and added lines', () => {
      for (const [x, y] of pairs) {
        const d = lineDiff(x.join('\n'), y.join('\n'));
        expect(
          d.filter((l) => l.op !== '+').map((l) => l.text),
          `${x} -> ${y}`,
        ).toEqual(x);
        expect(
          d.filter((l) => l.op !== '-').map((l) => l.text),
          `${x} -> ${y}`,
        ).toEqual(y);
      }
    });

    it('keeps as many lines unchanged as the two texts have in common, and shows removals before additions', () => {
      for (const [x, y] of pairs) {
        const d = lineDiff(x.join('\n'), y.join('\n'));
        expect(d.filter((l) => l.op === ' ').length, `${x} -> ${y}`).toBe(lcsLength(x, y));
        // within a run of changed lines, no removal follows an addition
        expect(show(d).join('|'), `${x} -> ${y}`).not.toMatch(/\+[ab]\|-/);
      }
    });
  });

  it('refuses versions too different to diff in memory: more than 50 million cells', () => {
    expect(MAX_DIFF_CELLS).toBe(50_000_000);
    expect(() => lineDiff(lines(7100, 'a').join('\n'), lines(7100, 'b').join('\n'))).toThrow(
      /differ in too many lines to diff \(7100 x 7100\)/,
    );
  });

  it('diffs a changed middle of exactly the largest table it allows, and refuses one more line', () => {
    // common first and last lines do not count: the middle is 3 x 4 lines, 12 cells
    const a = ['same', ...lines(3, 'a'), 'end'].join('\n');
    const b = ['same', ...lines(4, 'b'), 'end'].join('\n');
    expect(lineDiff(a, b, 12)).toHaveLength(9);
    expect(() => lineDiff(a, b, 11)).toThrow('the versions differ in too many lines to diff (3 x 4)');
    const longer = ['same', ...lines(5, 'b'), 'end'].join('\n');
    expect(() => lineDiff(a, longer, 12)).toThrow('(3 x 5)');
  });
});

describe('formatDiff', () => {
  // eleven lines: l1-l4 unchanged, l5 replaced by X, l6-l10 unchanged
  const a = lines(10).join('\n');
  const b = lines(10)
    .map((l) => (l === 'l5' ? 'X' : l))
    .join('\n');

  it('shows three lines of context by default and one … per skipped run', () => {
    expect(formatDiff(lineDiff(a, b)).split('\n')).toEqual([
      '…',
      ' l2',
      ' l3',
      ' l4',
      '-l5',
      '+X',
      ' l6',
      ' l7',
      ' l8',
      '…',
    ]);
  });

  it('honours the context asked for', () => {
    expect(formatDiff(lineDiff(a, b), 0).split('\n')).toEqual(['…', '-l5', '+X', '…']);
    expect(formatDiff(lineDiff(a, b), 1).split('\n')).toEqual(['…', ' l4', '-l5', '+X', ' l6', '…']);
    expect(formatDiff(lineDiff(a, b), 4).split('\n')).toEqual([
      ' l1',
      ' l2',
      ' l3',
      ' l4',
      '-l5',
      '+X',
      ' l6',
      ' l7',
      ' l8',
      ' l9',
      '…',
    ]);
  });

  it('shows changes in the first and last line without a leading or trailing …', () => {
    const first = formatDiff(lineDiff(lines(6).join('\n'), ['X', ...lines(6).slice(1)].join('\n')), 1);
    expect(first.split('\n')).toEqual(['-l1', '+X', ' l2', '…']);
    const last = formatDiff(lineDiff(lines(6).join('\n'), [...lines(5), 'X'].join('\n')), 1);
    expect(last.split('\n')).toEqual(['…', ' l5', '-l6', '+X']);
  });

  it('joins two changes whose context touches and separates them when a line lies between', () => {
    // changes at l2 and l8: with context 2 the kept ranges end at l4 and start at l6, so l5 is skipped
    const twoApart = lines(10)
      .map((l) => (l === 'l2' ? 'Y' : l === 'l8' ? 'Z' : l))
      .join('\n');
    expect(formatDiff(lineDiff(a, twoApart), 2).split('\n')).toEqual([
      ' l1',
      '-l2',
      '+Y',
      ' l3',
      ' l4',
      '…',
      ' l6',
      ' l7',
      '-l8',
      '+Z',
      ' l9',
      ' l10',
    ]);
    // with context 3 the ranges meet and nothing is skipped
    expect(formatDiff(lineDiff(a, twoApart), 3)).not.toContain('…');
  });

  it('renders an unchanged text as a single …', () => {
    expect(formatDiff(lineDiff(a, a))).toBe('…');
  });
});
