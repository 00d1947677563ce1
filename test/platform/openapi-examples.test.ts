/**
 * The document's examples are a contract (src/http/openapi.ts, `Example`): every documented request
 * (a request example named N: the body's, or a parameter's) is sent to a fresh demo merchant with its
 * sample activity, as `npm start` makes it and /docs "try it" calls it, and must get the response
 * documented under the same name: that status, that error_code, the same shape of fields, and the same
 * values wherever the answer is deterministic (two fresh runs agree on them).
 */
import { describe, expect, it } from "vitest";
import { harness, DEMO_KEYS } from "../helpers.js";
import { onOrigin, operations, problems, shapeOf, valueDrift } from "../openapi-examples.js";

describe("the OpenAPI document's examples", () => {
  it("cover every operation: each has documented requests, and the first (the one /docs pre-fills) succeeds", () => {
    expect(problems).toEqual([]);
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
        const send = async () => {
          const h = harness();
          await h.demoWithActivity();
          return h.call(request.method, request.url, { body: request.body, headers: request.anonymous ? {} : { ...DEMO_KEYS } });
        };
        const [res, twin] = [await send(), await send()];
        expect(res.status, JSON.stringify(res.body)).toBe(request.status);
        const expected = request.expected as { error_code?: string };
        if (expected.error_code) expect(res.body.error_code).toBe(expected.error_code);
        expect(shapeOf(res.body), "the example has the fields the sandbox sends").toEqual(shapeOf(request.expected));
        expect(valueDrift(res.body, twin.body, onOrigin(request.expected, "http://localhost")), "the example's values are the ones the sandbox sends").toEqual([]);
      });
    }
  }
});
