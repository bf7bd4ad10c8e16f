/**
 * Edits that turn `a` into `b`: insertions, deletions, substitutions and swaps of neighbours (the optimal string
 * alignment distance), so `acmee`, `amce` and `acm` are each one edit from `acme`.
 */
export function editDistance(a: string, b: string): number {
  // each row is filled left to right from its first cell, so it starts with that cell alone
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      // a swap needs two letters on each side: before them, a[-1] and b[-1] are undefined and match no letter
      if (a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known tenants a name was probably meant to be, nearest first (at most `max`): those within a few edits of it
 * (a third of its length, at least two; case does not count), and those that begin with it or it with them (`acme`
 * for `acme-gmbh`).
 *
 * @example nearestTenants('acmee', ['acme', 'globex']) // ['acme']
 */
export function nearestTenants(name: string, known: readonly string[], max = 3): string[] {
  const wanted = name.toLowerCase();
  const reach = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<[string, number]> = [];
  for (const tenant of known) {
    if (tenant === name) continue;
    const t = tenant.toLowerCase();
    const distance = editDistance(wanted, t);
    const prefix = Math.min(t.length, wanted.length) >= 3 && (t.startsWith(wanted) || wanted.startsWith(t));
    if (distance <= reach || prefix) scored.push([tenant, distance]);
  }
  return scored
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .slice(0, max)
    .map(([t]) => t);
}
