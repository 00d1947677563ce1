/**
 * The document left out what generated code needs. The virtual-account rules
 * were not in it (validators accepted bodies the sandbox refused), request fields with a `default`
 * became required in openapi-typescript's output, and `webhooks` was empty.
 */
import { describe, expect, it } from "vitest";
import { documentAjv, openApiDocument } from "../openapi-check.js";
import { EVENT_TYPES } from "../../src/domain/event-records.js";

const doc = openApiDocument() as unknown as Record<string, any>;

describe("what generators read from /openapi.json", () => {
  it("the virtual-account body refuses what the sandbox refuses (per customer type)", () => {
    const ajv = documentAjv();
    const validate = ajv.getSchema("openapi.json#/paths/~1api~1v1~1virtual-account~1create/post/requestBody/content/application~1json/schema")!;
    const base = { email: "ada@example.com", reference: "r-1", bank: "partnerbank" };
    expect(validate({ ...base, first_name: "Ada", last_name: "Obi", bvn: "22212345678" })).toBe(true);
    expect(validate({ ...base, customer_type: "business", business_name: "Mama Put", cac_number: "RC1234567" })).toBe(true);
    expect(validate({ ...base })).toBe(false); // an individual without names
    expect(validate({ ...base, customer_type: "business", business_name: "Mama Put" })).toBe(false); // no cac_number
    expect(validate({ ...base, customer_type: "business", business_name: "Mama Put", cac_number: "RC1234567", bvn: "22212345678" })).toBe(false);
  });

  it("no schema declares a `default` (generators would make the field required); defaults are stated in descriptions", () => {
    const defaults: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      if ("default" in node) defaults.push(at);
      for (const [k, v] of Object.entries(node)) if (k !== "examples") walk(v, `${at}/${k}`);
    };
    // Every schema, request bodies and parameters, the control API's and the records they reference.
    walk(doc.paths, "#/paths");
    walk(doc.components.schemas, "#/components/schemas");
    expect(defaults).toEqual([]);
    const failFirst = doc.components.schemas.NewMerchant.properties.webhook_capture.properties.fail_first;
    expect(failFirst.description).toMatch(/Default: \d+\./);
  });

  it("`webhooks` holds every event the sandbox sends, with its payload and signature scheme", () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const op = doc.webhooks[type].post;
      expect(op.security).toEqual([{ WebhookSignature: [] }]);
      expect(op.requestBody.content["application/json"].schema).toBeDefined();
    }
    expect(doc.components.securitySchemes.WebhookSignature).toMatchObject({ type: "apiKey", in: "header", name: "X-Webhook-Signature" });
  });
});
