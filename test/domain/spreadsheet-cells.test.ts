import { describe, expect, it } from 'vitest';
import { guardedCell, opensFormula, unguardedCell } from '../../src/domain/spreadsheet-cells.js';

describe('cells a spreadsheet would run', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+49 170', "'+49 170"],
    ['-5', "'-5"],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['\t=x', "'\t=x"],
    ['\r@x', "'\r@x"],
    ["'=x", "''=x"],
    ["''-1", "'''-1"],
    ["'abc", "'abc"],
    ["'", "'"],
    ['', ''],
    ['a=b', 'a=b'],
    [' =x', ' =x'],
    ['anna@example.com', 'anna@example.com'],
  ])('%j is written %j and read back as it was', (value, written) => {
    expect(guardedCell(value)).toBe(written);
    expect(unguardedCell(written)).toBe(value);
    expect(/^[=+\-@\t\r]/.test(written)).toBe(false);
    expect(opensFormula(value)).toBe(written !== value);
  });

  it('reads a cell from another system that starts with a formula as it is (nothing to take away)', () => {
    expect(unguardedCell('=HYPERLINK("x")')).toBe('=HYPERLINK("x")');
    expect(unguardedCell("'plain")).toBe("'plain");
  });
});
