/**
 * The document's examples are a contract (src/http/openapi.ts, `Example`): every documented request
 * (a request example named N: the body's, or a parameter's) is sent to a fresh demo merchant with its
 * sample activity, as `npm start` makes it and /docs "try it" calls it, and must get the response
 * documented under the same name: that status, that error_code, and the same shape of fields.
 */
import { describe, expect, it } from "vitest";
import { harness, DEMO_KEYS } from "../helpers.js";
import { openApiDocument } from "../openapi-check.js";

type ExampleMap = Record<string, { summary?: string; value: unknown }>;
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  example?: unknown;
  examples?: ExampleMap;
}
interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { examples?: ExampleMap }> };
  responses: Record<string, { content?: Record<string, { examples?: ExampleMap }> }>;
}

const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };

interface DocumentedRequest {
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
function documentedRequests(path: string, method: string, op: Operation): DocumentedRequest[] {
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
        expect(p.required, `${operation}: required ${p.in} parameter ${p.name} has an example for "${name}"`).not.toBe(true);
        continue;
      }
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      if (p.in === "query") query.set(p.name, String(value));
    }
    if (query.size > 0) url += `?${query}`;
    const response = responseOf.get(name);
    expect(response, `${operation}: request example "${name}" has a response example of the same name`).toBeDefined();
    if (bodyExamples) expect(bodyExamples[name], `${operation}: body example "${name}"`).toBeDefined();
    return {
      operation,
      name,
      method: method.toUpperCase(),
      url,
      body: bodyExamples?.[name]?.value,
      anonymous: Array.isArray(op.security) && op.security.length === 0,
      status: response!.status,
      expected: response!.value,
    };
  });
}

const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op, requests: documentedRequests(path, method, op) })),
);

/**
 * The shape of a body, three levels deep (envelope, data, data's fields): the field names and value
 * types, not the values (ids, times differ). Arrays by their first item.
 */
function shapeOf(value: unknown, depth = 3): unknown {
  if (value === null) return null;
  if (typeof value !== "object") return typeof value;
  if (depth === 0) return Array.isArray(value) ? "array" : "object";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0], depth - 1)];
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shapeOf(v, depth - 1)]));
}

describe("the OpenAPI document's examples", () => {
  it("cover every operation: each has documented requests, and the first (the one /docs pre-fills) succeeds", () => {
    expect(operations.length).toBeGreaterThan(60);
    for (const { path, method, requests } of operations) {
      expect(requests.length, `${method.toUpperCase()} ${path} has a documented request`).toBeGreaterThan(0);
      expect(requests[0]!.status, `${method.toUpperCase()} ${path}: its first example is a success`).toBeLessThan(300);
    }
  });

  it("document every response with an example and every request body with examples", () => {
    for (const { path, method, op } of operations) {
      const at = `${method.toUpperCase()} ${path}`;
      if (op.requestBody) expect(Object.keys(op.requestBody.content["application/json"]?.examples ?? {}), `${at} body examples`).not.toEqual([]);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(Object.keys(response.content?.["application/json"]?.examples ?? {}), `${at} ${status} examples`).not.toEqual([]);
      }
    }
  });

  for (const { requests } of operations) {
    for (const request of requests) {
      it(`${request.operation} "${request.name}" gets ${request.status}`, async () => {
        const h = harness();
        await h.demoWithActivity();
        const res = await h.call(request.method, request.url, {
          body: request.body,
          headers: request.anonymous ? {} : { ...DEMO_KEYS },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(request.status);
        const expected = request.expected as { error_code?: string };
        if (expected.error_code) expect(res.body.error_code).toBe(expected.error_code);
        expect(shapeOf(res.body), "the example has the fields the sandbox sends").toEqual(shapeOf(request.expected));
      });
    }
  }
});
