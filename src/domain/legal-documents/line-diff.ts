/** One line of a diff: unchanged (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** The largest table of the changed middle a diff builds: 50 million cells of 4 bytes, 200 MB. */
export const MAX_DIFF_CELLS = 50_000_000;

/**
 * A line diff by longest common subsequence: lines only in `a` are removed, lines only in `b` added. Common prefix and
 * suffix are peeled off first, so the quadratic table covers only the changed middle, of at most `maxCells` cells.
 */
export function lineDiff(aText: string, bText: string, maxCells = MAX_DIFF_CELLS): DiffLine[] {
  const a = aText.split(/\r?\n/);
  const b = bText.split(/\r?\n/);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length,
    endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA),
    midB = b.slice(start, endB);
  const n = midA.length,
    m = midB.length;
  if (n * m > maxCells) throw new Error(`the versions differ in too many lines to diff (${n} x ${m})`);
  // lcs[i][j] = LCS length of midA[i..] and midB[j..]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: ' ', text }));
  let i = 0,
    j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      out.push({ op: ' ', text: midA[i++]! });
      j++;
    }
    // removals before additions, as diff -u shows a changed line
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push({ op: '-', text: midA[i++]! });
    else out.push({ op: '+', text: midB[j++]! });
  }
  for (const text of a.slice(endA)) out.push({ op: ' ', text });
  return out;
}

/** Renders a diff with `context` unchanged lines around each change, like `diff -u` without headers. */
export function formatDiff(lines: DiffLine[], context = 3): string {
  const keep = new Array(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.op !== ' ')
      for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const out: string[] = [];
  let skipped = false;
  lines.forEach((l, i) => {
    if (!keep[i]) {
      if (!skipped) out.push('…');
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`${l.op}${l.text}`);
  });
  return out.join('\n');
}
