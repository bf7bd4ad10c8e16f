/**
 * The columns of a row type, listed once as an object whose keys the type checks: every column of `Row` must be
 * named and no other, so a column added to the row type does not compile until the list (and what writes from it)
 * names it.
 */
export function rowColumns<Row>(columns: Record<keyof Row, true>): Array<keyof Row & string> {
  return Object.keys(columns) as Array<keyof Row & string>;
}
