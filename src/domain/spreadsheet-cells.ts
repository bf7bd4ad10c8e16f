/**
 * CSV cells that a spreadsheet would run (CSV injection, OWASP): Excel, LibreOffice Calc and Google Sheets read a
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, and much of what an export holds
 * comes from outside (a consent's user_id is whatever a website visitor sent). A CSV export writes such a cell with a
 * `'` in front, quoted, so a spreadsheet shows it as text; an import takes that `'` away again.
 *
 * The rule is reversible, so export and import give back the same values: a value that starts with quotes followed by
 * one of those characters (`'=x`) gets one quote more (`''=x`), and the import takes exactly one `'` from a cell that
 * starts with quotes followed by one of them. Other values that start with `'` (`'abc`) are written and read as they
 * are. Numbers such as `-5` count too (a spreadsheet computes `-5+A1` as well) and come back as `-5`.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** True when a spreadsheet would read the text as a formula (or it is a value that once was one, `'=…`). */
export const opensFormula = (text: string): boolean => FORMULA_START.test(text);

/** The text as a CSV export writes it for a spreadsheet: with a `'` in front where it would open a formula. */
export const guardedCell = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A cell as an import reads it back: the `'` that `guardedCell` put in front taken away. */
export const unguardedCell = (text: string): string =>
  text.startsWith("'") && FORMULA_START.test(text) ? text.slice(1) : text;
