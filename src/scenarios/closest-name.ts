/**
 * "Did you mean": the known name a misspelt one most likely stands for. Near means a few edits (a
 * letter added, dropped or changed, or two neighbours swapped), scaled to the name's length, so that
 * `advanse` finds `advance` while `wallet` does not claim `wallet_balance`.
 */

/** Names longer than this are not typos of a field name; comparing them would only cost time. */
const LONGEST_NAME = 64;

/** The known name nearest to `name` (case aside), or undefined when none is near enough. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  if (name.length > LONGEST_NAME) return undefined;
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.max(1, Math.floor(wanted.length / 3))) + 1;
  for (const candidate of known) {
    if (Math.abs(candidate.length - wanted.length) >= bestDistance) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Optimal string alignment distance: Levenshtein's insert, delete and substitute, plus a swap of neighbours. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    [before, previous] = [previous, row];
  }
  return previous[b.length]!;
}
