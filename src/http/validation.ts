/**
 * Turns zod failures into the envelope's `errors` object: one key per bad field (dotted path), with
 * "required" said plainly when the field was simply not sent.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./env.js";
import { errorResponse } from "./errors.js";

type Issue = z.core.$ZodIssue;

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * A body that fits no branch of a union (a virtual account of one customer type or the other): report
 * the branch the caller meant, the one whose literal fields (customer_type) matched, with the fewest
 * issues, as if it were the only schema. Its issues carry paths relative to the union.
 */
function meantBranch(issue: Extract<Issue, { code: "invalid_union" }>): Issue[] {
  const depth = issue.path.length + 1;
  const mismatch = (i: Issue) => i.code === "invalid_value" && i.path.length <= depth;
  const candidates = issue.errors.filter((branch) => !branch.some(mismatch));
  const pool = candidates.length > 0 ? candidates : issue.errors;
  const best = pool.reduce((a, b) => (b.length < a.length ? b : a));
  return best.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue);
}

function formatIssues(issues: Issue[], data: unknown, rootKey = "body"): Record<string, string[]> {
  issues = issues.flatMap((i) => (i.code === "invalid_union" && i.errors.length > 0 ? meantBranch(i) : [i]));
  // A Map, not a plain object: a field named "__proto__" or "constructor" must not hit Object.prototype.
  const errors = new Map<string, string[]>();
  const add = (key: string, message: string) => {
    const list = errors.get(key) ?? [];
    if (!list.includes(message)) list.push(message);
    errors.set(key, list);
  };
  for (const issue of issues) {
    const key = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const unknown of issue.keys) add(key ? `${key}.${unknown}` : unknown, "Unknown field.");
      continue;
    }
    const missing = issue.code === "invalid_type" && issue.path.length > 0 && valueAt(data, issue.path) === undefined;
    add(key || rootKey, missing ? `The ${key} field is required.` : issue.message);
  }
  return Object.fromEntries(errors);
}

const ROOT_KEYS: Record<string, string> = { json: "body", query: "query", param: "path", header: "headers" };

export function validationHook(
  result: { success: boolean; error?: { issues: Issue[] }; data: unknown; target: string },
  c: Context<AppEnv>,
) {
  if (result.success || !result.error) return;
  const errors = formatIssues(result.error.issues, result.data, ROOT_KEYS[result.target] ?? result.target);
  return errorResponse(c, "VALIDATION_ERROR", "The given data was invalid.", { errors });
}

/** Every router is made here so that every route validates through the same hook. */
export const router = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
