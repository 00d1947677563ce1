/**
 * How deeply a parsed JSON (or YAML) document nests, checked without recursion, so that a body
 * nested a hundred thousand levels deep is refused instead of overflowing a recursive validator.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  // Two stacks side by side, not one of pairs: no array made per value of every request body.
  const nodes: unknown[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) {
      if (child === null || typeof child !== "object") continue; // a leaf nests no deeper
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}
