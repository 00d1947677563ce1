/**
 * Turns the scenario schema's zod issues into problems a person can act on: every issue, each at its
 * dotted path; an unknown key named at its own path with the known key it was probably meant to be; a
 * step that fits none of its shapes explained by the shape the author meant.
 */
import type { z } from "zod";
import { closestName } from "./closest-name.js";
import type { ScenarioProblem } from "./scenario-error.js";

type Issue = z.core.$ZodIssue;
type Schema = z.core.$ZodType;
type Path = readonly PropertyKey[];

/** The parts of a zod schema's definition this walk reads. */
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  valueType?: Schema;
  element?: Schema;
  options?: Schema[];
  innerType?: Schema;
  in?: Schema;
  getter?: () => Schema;
}
const defOf = (s: Schema) => s._zod.def as unknown as Def;

export function problemsOf(issues: Issue[], schema: Schema, doc: unknown): ScenarioProblem[] {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return [{ path: "", detail: `expected a scenario (a mapping with name, merchants...), got ${doc === null ? "nothing" : Array.isArray(doc) ? "a list" : typeof doc}` }];
  }
  // One problem per path: a second rule a field breaks is most often the first one again (1e308 has
  // "too many decimals" too), and the fix for the first settles it.
  const byPath = new Map<string, ScenarioProblem>();
  for (const problem of issues.flatMap((issue) => explain(issue, [schema], doc, []))) if (!byPath.has(problem.path)) byPath.set(problem.path, problem);
  return [...byPath.values()];
}

/** One issue, whose path is relative to `data` (the value at `prefix`), which one of `roots` describes. */
function explain(issue: Issue, roots: Schema[], data: unknown, prefix: Path): ScenarioProblem[] {
  const path = [...prefix, ...issue.path];
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = keysOf(schemasAt(roots, issue.path, data));
      return issue.keys.map((key) => ({ path: dotted([...path, key]), detail: unknownField(key, known) }));
    }
    case "invalid_union":
      return explainUnion(issue, roots, data, prefix);
    case "invalid_key":
      return issue.issues.map((inner) => ({ path: dotted(path), detail: inner.message }));
    case "invalid_type":
      if (issue.path.length > 0 && valueAt(data, issue.path) === undefined) return [{ path: dotted(path), detail: "Required." }];
      return [{ path: dotted(path), detail: issue.message }];
    default:
      return [{ path: dotted(path), detail: issue.message }];
  }
}

/**
 * A value that fits no branch of a union (a step is a request, an advance, an expect_webhook or an
 * expect_balance). The branch meant is one whose own key is there and which no other branch's key
 * joins; its issues are the answer. Without one, the value's unknown keys are named (with the kind
 * each was probably meant to be), or, when none is near a kind, the kinds are listed.
 */
function explainUnion(issue: Extract<Issue, { code: "invalid_union" }>, roots: Schema[], data: unknown, prefix: Path): ScenarioProblem[] {
  const path = [...prefix, ...issue.path];
  const value = valueAt(data, issue.path);
  const union = unionsAt(roots, issue.path, data);
  const branches = union.length === 1 ? defOf(union[0]!).options!.map(bare) : [];
  if (branches.length !== issue.errors.length || value === null || typeof value !== "object") return [{ path: dotted(path), detail: issue.message }];
  const meant = fittingBranches(branches, value);
  if (meant.length > 0) {
    const j = meant.reduce((a, b) => (issue.errors[b]!.length < issue.errors[a]!.length ? b : a));
    return issue.errors[j]!.flatMap((inner) => explain(inner, [branches[j]!], value, path));
  }
  const known = keysOf(branches);
  const kinds = [...new Set(branches.flatMap(requiredKeys))];
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  const unknownProblems = unknown.map((key) => ({ path: dotted([...path, key]), detail: unknownField(key, known) }));
  if (unknown.some((key) => kinds.includes(closestName(key, known) ?? ""))) return unknownProblems;
  return [{ path: dotted(path), detail: `expected exactly one of ${kinds.join(", ")}` }, ...unknownProblems];
}

export function unknownField(key: string, known: readonly string[]): string {
  const near = closestName(key, known);
  return near === undefined ? "Unknown field." : `Unknown field. Did you mean \`${near}\`?`;
}

/**
 * The object schemas that may describe the value at `path` under `roots`, `data` being the value at
 * the roots: of a union, the branches that value fits (all of them if it fits none).
 */
function schemasAt(roots: Schema[], path: Path, data: unknown): Schema[] {
  let value = data;
  let nodes = roots.flatMap((root) => branchesOf(root, value));
  for (const key of path) {
    value = valueAt(value, [key]);
    nodes = nodes.flatMap((node) => branchesOf(childOf(node, key), value));
  }
  return nodes;
}

/** The unions at `path` under `roots`, whole (a union inside a union's branch found through the branch it fits). */
function unionsAt(roots: Schema[], path: Path, data: unknown): Schema[] {
  const here = path.length === 0 ? roots : schemasAt(roots, path.slice(0, -1), data).flatMap((parent) => childOf(parent, path.at(-1)!) ?? []);
  return here.map(bare).filter((s) => defOf(s).type === "union");
}

function branchesOf(schema: Schema | undefined, value: unknown): Schema[] {
  if (!schema) return [];
  const s = bare(schema);
  const def = defOf(s);
  if (def.type !== "union") return [s];
  const branches = def.options!.flatMap((option) => branchesOf(option, value));
  const fitting = fittingBranches(branches, value);
  return fitting.length > 0 ? fitting.map((j) => branches[j]!) : branches;
}

/**
 * The indexes of the object branches a value was meant for: those whose required keys it has, and
 * none of the keys another branch requires (a step with `advance` is an advance step).
 */
function fittingBranches(branches: Schema[], value: unknown): number[] {
  if (value === null || typeof value !== "object" || !branches.every((b) => defOf(b).type === "object")) return [];
  const own = branches.map(requiredKeys);
  const kinds = new Set(own.flat());
  const keys = Object.keys(value);
  return own.flatMap((mine, j) => (mine.every((key) => keys.includes(key)) && keys.every((key) => mine.includes(key) || !kinds.has(key)) ? [j] : []));
}

/** The schema under optional, default, refinement pipes and lazy references. */
function bare(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    const next = def.innerType ?? (def.type === "pipe" ? def.in : def.type === "lazy" ? def.getter!() : undefined);
    if (!next) return s;
    s = next;
  }
}

function childOf(schema: Schema, key: PropertyKey): Schema | undefined {
  const def = defOf(schema);
  if (def.type === "object") return typeof key === "string" && Object.hasOwn(def.shape!, key) ? def.shape![key] : undefined;
  if (def.type === "record") return def.valueType;
  if (def.type === "array") return def.element;
  return undefined;
}

function keysOf(schemas: Schema[]): string[] {
  return [...new Set(schemas.flatMap((s) => (defOf(s).type === "object" ? Object.keys(defOf(s).shape!) : [])))];
}

const requiredKeys = (schema: Schema) => Object.entries(defOf(schema).shape!).filter(([, s]) => s._zod.optin !== "optional").map(([k]) => k);

function valueAt(data: unknown, path: Path): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const dotted = (path: Path) => path.map(String).join(".");
