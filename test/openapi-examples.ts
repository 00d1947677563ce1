/**
 * The OpenAPI document's documented requests (see `Example` in src/http/openapi.ts): for each
 * operation, each request example name N with the request it describes (body and parameters of that
 * name) and the response documented under N. test/platform/openapi-examples.test.ts sends them to the
 * app, test/platform/prism-proxy.test.ts through Stoplight Prism to a running server.
 */
import { openApiDocument } from "./openapi-check.js";

type ExampleMap = Record<string, { summary?: string; value: unknown }>;
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  example?: unknown;
  examples?: ExampleMap;
}
export interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { examples?: ExampleMap }> };
  responses: Record<string, { content?: Record<string, { examples?: ExampleMap }> }>;
}

/** What makes a documented request incomplete (a missing parameter or response example). */
export const problems: string[] = [];

export const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };

export interface DocumentedRequest {
  operation: string;
  name: string;
  method: string;
  url: string;
  body?: unknown;
  anonymous: boolean;
  status: number;
  expected: unknown;
}

/** Every documented request of one operation, the pre-filled one (first) first. */
export function documentedRequests(path: string, method: string, op: Operation): DocumentedRequest[] {
  const operation = `${method.toUpperCase()} ${path}`;
  const bodyExamples = op.requestBody?.content["application/json"]?.examples;
  const responseOf = new Map<string, { status: number; value: unknown }>();
  for (const [status, response] of Object.entries(op.responses)) {
    for (const [name, example] of Object.entries(response.content?.["application/json"]?.examples ?? {})) {
      responseOf.set(name, { status: Number(status), value: example.value });
    }
  }
  const names = new Set<string>(Object.keys(bodyExamples ?? {}));
  for (const p of op.parameters ?? []) for (const name of Object.keys(p.examples ?? {})) names.add(name);
  // No named request example: the operation's one request is documented by its success response.
  if (names.size === 0) for (const [name, r] of responseOf) if (r.status < 300) names.add(name);

  return [...names].map((name) => {
    let url = path;
    const query = new URLSearchParams();
    for (const p of op.parameters ?? []) {
      const value = p.examples?.[name]?.value ?? p.example;
      if (value === undefined) {
        if (p.required) problems.push(`${operation}: required ${p.in} parameter ${p.name} has no example for "${name}"`);
        continue;
      }
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      if (p.in === "query") query.set(p.name, String(value));
    }
    if (query.size > 0) url += `?${query}`;
    const response = responseOf.get(name) ?? { status: 0, value: undefined };
    if (response.status === 0) problems.push(`${operation}: request example "${name}" has no response example of the same name`);
    if (bodyExamples && !bodyExamples[name]) problems.push(`${operation}: no body example "${name}"`);
    return {
      operation,
      name,
      method: method.toUpperCase(),
      url,
      body: bodyExamples?.[name]?.value,
      anonymous: Array.isArray(op.security) && op.security.length === 0,
      status: response.status,
      expected: response.value,
    };
  });
}

/** Every operation of the document with its documented requests, in document order. */
export const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op, requests: documentedRequests(path, method, op) })),
);

/**
 * The shape of a body, three levels deep (envelope, data, data's fields): the field names and value
 * types, not the values (ids, times differ). Arrays by their first item.
 */
export function shapeOf(value: unknown, depth = 3): unknown {
  if (value === null) return null;
  if (typeof value !== "object") return typeof value;
  if (depth === 0) return Array.isArray(value) ? "array" : "object";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0], depth - 1)];
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shapeOf(v, depth - 1)]));
}


/**
 * Where a body differs from its documented example, among the values that are deterministic: those two
 * fresh runs of the same request agree on (ids, times and amounts of the seeded demo merchant do; a
 * request_id or a new secret does not). Paths are dotted. A documented array as long as the sent one
 * compares item by item; a shorter one is an excerpt, each of whose items must be among those sent.
 */
export function valueDrift(actual: unknown, twin: unknown, expected: unknown, path = ""): string[] {
  const at = path || "body";
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (Array.isArray(actual) && Array.isArray(expected) && expected.length === 0 && actual.length > 0 && JSON.stringify(actual) === JSON.stringify(twin)) {
    return [`${at}: [] documented, ${actual.length} items sent`]; // an excerpt has at least one item
  }
  if (Array.isArray(actual) && Array.isArray(expected) && Array.isArray(twin) && expected.length < actual.length) {
    return expected.flatMap((item, i) =>
      actual.some((sent, j) => valueDrift(sent, twin[j], item).length === 0) ? [] : [`${at}.${i}: ${JSON.stringify(item)} documented, not among those sent`],
    );
  }
  if (isObject(actual) && isObject(expected) && isObject(twin)) {
    if (Array.isArray(actual) !== Array.isArray(expected)) return [`${at}: ${JSON.stringify(expected)} documented, ${JSON.stringify(actual)} sent`];
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    return [...keys].flatMap((k) => valueDrift(actual[k], twin[k], expected[k], path ? `${path}.${k}` : k));
  }
  if (WALL_CLOCK.has(path.slice(path.lastIndexOf(".") + 1))) return []; // real time: two runs may agree by chance
  if (JSON.stringify(actual) !== JSON.stringify(twin)) return []; // not deterministic
  if (JSON.stringify(actual) === JSON.stringify(expected)) return [];
  return [`${at}: ${JSON.stringify(expected)} documented, ${JSON.stringify(actual)} sent`];
}

/** Fields measured on the wall clock, never deterministic (a delivery's or request's latency, a doctor run's duration). */
const WALL_CLOCK = new Set(["latency_ms", "duration_ms"]);

/** The document's examples show links on the default server; the test app answers on its own origin. */
export const onOrigin = (value: unknown, origin: string): unknown =>
  JSON.parse(JSON.stringify(value).replaceAll(DOCUMENTED_ORIGIN, origin));
const DOCUMENTED_ORIGIN = "http://127.0.0.1:4010";
