/**
 * Text a record keeps for its whole life, made in one piece. V8 holds a template literal as a tree of
 * its pieces (a cons string, about 20 bytes a node) until something reads it whole, and a record keeps
 * the tree: an airtime purchase's description was five nodes, a fifth of what the purchase keeps.
 * Array.prototype.join writes one flat string.
 */
export function keptText(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  const parts: Array<string | number> = [strings[0]!];
  for (let i = 0; i < values.length; i++) parts.push(values[i]!, strings[i + 1]!);
  return parts.join("");
}
