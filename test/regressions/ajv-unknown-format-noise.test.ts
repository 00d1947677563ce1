/** 26 lines of "unknown format ... ignored" from Ajv in the test output. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { documentAjv } from "../openapi-check.js";

afterEach(() => vi.restoreAllMocks());

describe("the test suite's OpenAPI validator", () => {
  it("knows every format the document uses, so it checks them instead of warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const ajv = documentAjv();
    const doc = ajv.getSchema("openapi.json")!.schema as { paths: Record<string, Record<string, any>> };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const pointer = [path, method].map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
        if (ops[method].requestBody) ajv.compile({ $ref: `openapi.json#/paths/${pointer}/requestBody/content/application~1json/schema` });
      }
    }
    expect(warn).not.toHaveBeenCalled();
    const email = ajv.compile({ type: "string", format: "email" });
    expect(email("not-an-email")).toBe(false);
  });
});
