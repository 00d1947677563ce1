/** JSON Schema (as zod writes it) in the docs' words: a field's type and its bounds. */
import { code, thousands } from "./markdown.js";

/** A JSON Schema node, as zod writes one. */
export interface Node {
  type?: string;
  anyOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: Node;
  properties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  propertyNames?: Node;
  required?: string[];
  description?: string;
  format?: string;
  pattern?: string;
  $ref?: string;
}

/** Bounds beyond which a number is not really bounded (JavaScript's safe integers). */
const unbounded = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;

export function typeOf(node: Node): string {
  if (node.$ref) return "any JSON";
  if (node.anyOf) return [...new Set(node.anyOf.map(typeOf))].join(" or ");
  if (node.enum) return node.enum.map((v) => code(String(v))).join(", ");
  if (node.const !== undefined) return code(JSON.stringify(node.const));
  if (node.type === "array") return `list of ${typeOf(node.items ?? {})}`;
  if (node.type === "object") return node.properties ? "object" : "map";
  if (node.type === "string" && node.format === "date-time") return "ISO 8601 time";
  if (node.type === "string" && node.format === "uri") return "URL";
  return node.type ?? "any JSON";
}

export function boundsOf(node: Node): string {
  const parts: string[] = [];
  const digits = node.pattern && /^\^\\d\{(\d+)\}\$$/.exec(node.pattern);
  if (digits) parts.push(`${digits[1]} digits`);
  if (node.minLength !== undefined && node.minLength > 1) parts.push(`at least ${node.minLength} characters`);
  if (node.maxLength !== undefined) parts.push(`at most ${thousands(node.maxLength)} characters`);
  const max = unbounded(node.maximum) ? "" : thousands(node.maximum!);
  if (node.exclusiveMinimum !== undefined) parts.push(`above ${node.exclusiveMinimum}${max ? `, at most ${max}` : ""}`);
  else if (!unbounded(node.minimum) && max) parts.push(`${thousands(node.minimum!)} to ${max}`);
  else if (max) parts.push(`at most ${max}`);
  if (node.maxItems !== undefined) parts.push(`at most ${thousands(node.maxItems)} entries`);
  for (const alt of node.anyOf ?? []) if (alt.type !== "null") parts.push(boundsOf(alt));
  return parts.filter(Boolean).join("; ");
}
