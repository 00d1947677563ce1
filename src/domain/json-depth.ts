/**
 * How deeply a parsed JSON (or YAML) document nests, checked without recursion, so that a body
 * nested a hundred thousand levels deep is refused instead of overflowing a recursive validator.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
