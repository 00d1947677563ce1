/**
 * A scenario whose step body nested 20,000 levels deep made
 * POST /sandbox/v1/scenarios answer 500: the schema's recursive JSON type overflowed the stack. The
 * nesting is now checked without recursion before any schema runs (at most 32 levels), for a JSON
 * body, for `{ yaml }` text and for a YAML body alike: 422 VALIDATION_ERROR, nothing created, the
 * sandbox serving on.
 */
import { describe, expect, it } from "vitest";
import { expectError, harness, type Harness } from "../helpers.js";

const DEPTH = 20_000;
const json = { "content-type": "application/json" };
const yaml = { "content-type": "application/yaml" };

/** A one-merchant scenario whose only step has a request body nested `depth` levels deep. */
function jsonScenario(depth: number, kind: "array" | "object"): string {
  const deep = kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  return `{"name":"deep","merchants":{"shop":{}},"steps":[{"request":{"method":"POST","path":"/api/v1/payout/transfer","body":${deep}}}]}`;
}
function yamlScenario(depth: number, kind: "array" | "object"): string {
  const deep = kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : "{a: ".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  return ["name: deep", "merchants:", "  shop: {}", "steps:", "  - request:", "      method: POST", "      path: /api/v1/payout/transfer", `      body: ${deep}`, ""].join("\n");
}

async function stillServing(h: Harness, before: number) {
  expect(h.registry.size).toBe(before);
  expect((await h.call("GET", "/health")).body).toEqual({ success: true, status: "ok", merchants: before });
  const ok = await h.call("POST", "/sandbox/v1/scenarios", { body: { name: "fine", merchants: { shop: {} }, steps: [{ request: { method: "GET", path: "/api/v1/wallet/balance" } }] } });
  expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  expect(h.registry.size).toBe(before + 1);
}

describe("a scenario step nested 20,000 deep", () => {
  it.each(["array", "object"] as const)("as a JSON body (%s): 422 VALIDATION_ERROR naming the body, no merchant, the sandbox serves on", async (kind) => {
    const h = harness();
    const before = h.registry.size;
    const res = expectError(await h.call("POST", "/sandbox/v1/scenarios", { raw: jsonScenario(DEPTH, kind), headers: json }), 422, "VALIDATION_ERROR");
    expect(res.errors?.body?.join(" ")).toContain("at most 32 levels");
    await stillServing(h, before);
  });

  it.each(["array", "object"] as const)("as { yaml } text (%s): 422 VALIDATION_ERROR, no merchant, the sandbox serves on", async (kind) => {
    const h = harness();
    const before = h.registry.size;
    const res = expectError(await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: yamlScenario(DEPTH, kind) } }), 422, "VALIDATION_ERROR");
    await stillServing(h, before);
    // The same answer as for JSON and for a YAML document just past the limit (README, "Bounds":
    // errors.body), not the YAML library's stack overflow reported as "not valid YAML".
    expect(res.message).toBe("The scenario is invalid: nests deeper than 32 levels");
    expect(res.errors).toEqual({ body: ["nests deeper than 32 levels"] });
  });

  it.each(["array", "object"] as const)("as a YAML body (%s): the same answer as a JSON body, no merchant, the sandbox serves on", async (kind) => {
    const h = harness();
    const before = h.registry.size;
    const res = expectError(await h.call("POST", "/sandbox/v1/scenarios", { raw: yamlScenario(DEPTH, kind), headers: yaml }), 422, "VALIDATION_ERROR");
    expect(res.message).toBe("The request body nests deeper than 32 levels.");
    expect(res.errors).toEqual({ body: ["Must nest at most 32 levels deep."] });
    await stillServing(h, before);
  });

  it("just past the limit is refused the same way, and a step body at the limit loads", async () => {
    const h = harness();
    const before = h.registry.size;
    // The step body sits inside 4 containers (the document, steps, the step, request), so a body
    // 28 levels deep makes a document of 32 levels, and 29 makes 33.
    const atLimit = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: yamlScenario(28, "array") } });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);
    const past = expectError(await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: yamlScenario(29, "array") } }), 422, "VALIDATION_ERROR");
    expect(past.message).toBe("The scenario is invalid: nests deeper than 32 levels");
    expect(past.errors).toEqual({ body: ["nests deeper than 32 levels"] });
    expectError(await h.call("POST", "/sandbox/v1/scenarios", { raw: jsonScenario(29, "array"), headers: json }), 422, "VALIDATION_ERROR");
    expect((await h.call("POST", "/sandbox/v1/scenarios", { raw: jsonScenario(28, "array"), headers: json })).status).toBe(201);
    expectError(await h.call("POST", "/sandbox/v1/scenarios", { raw: yamlScenario(29, "array"), headers: yaml }), 422, "VALIDATION_ERROR");
    expect((await h.call("POST", "/sandbox/v1/scenarios", { raw: yamlScenario(28, "array"), headers: yaml })).status).toBe(201);
    expect(h.registry.size).toBe(before + 3);
  });
});
