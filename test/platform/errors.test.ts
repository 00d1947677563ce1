import { describe, expect, it, vi } from "vitest";
import { expectError, harness } from "../helpers.js";

describe("the error envelope", () => {
  it("unknown routes are 404 NOT_FOUND in the envelope", async () => {
    const h = harness();
    const m = await h.merchant();
    expectError(await m.call("GET", "/api/v1/nothing-here"), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/no/such/page"), 404, "NOT_FOUND");
    // A wrong method on a real path is an unknown route too.
    expectError(await m.call("DELETE", "/api/v1/wallet/balance"), 404, "NOT_FOUND");
  });

  it("malformed JSON is 400 INVALID_JSON, and nothing changes", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", "/api/v1/payout/transfer", { raw: '{"amount": 5000,', headers: { "content-type": "application/json" } });
    expectError(res, 400, "INVALID_JSON");
    expect(m.tenant.state.payouts.size).toBe(0);
    expect(m.tenant.state.ledger).toHaveLength(1);
  });

  it("a JSON body that is not an object is a validation error on the body", async () => {
    const m = await harness().merchant();
    for (const raw of ["[]", '"text"', "null", "42"]) {
      const res = await m.call("POST", "/api/v1/vtu/airtime", { raw, headers: { "content-type": "application/json" } });
      expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty("body");
    }
  });

  it("a non-JSON body is 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", "/api/v1/vtu/airtime", { raw: "network=mtn&amount=100", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("bodies over 1 MB are 413 PAYLOAD_TOO_LARGE", async () => {
    const m = await harness().merchant();
    const raw = JSON.stringify({ amount: 100, narration: "x".repeat(1024 * 1024) });
    const res = await m.call("POST", "/api/v1/payout/transfer", { raw, headers: { "content-type": "application/json", "content-length": String(raw.length) } });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(m.tenant.state.payouts.size).toBe(0);
  });

  it("an unexpected error is 500 INTERNAL_ERROR with a request id and no stack trace", async () => {
    const h = harness();
    const m = await h.merchant();
    // Simulate a bug deep inside: the ledger throws a plain Error.
    Object.defineProperty(m.tenant.state, "ledger", { get: () => { throw new Error("boom: secret internals"); } });
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await m.call("GET", "/api/v1/wallet/balance");
    spy.mockRestore();
    const body = expectError(res, 500, "INTERNAL_ERROR");
    expect(body).toHaveProperty("request_id");
    expect(res.headers.get("x-request-id")).toBe((body as { request_id?: string }).request_id);
    expect(JSON.stringify(body)).not.toContain("boom");
    expect(JSON.stringify(body)).not.toContain("at ");
  });

  it("validation errors name every bad field, with nested paths for settings", async () => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/merchants", {
      body: { limits: { payout_min: -1 }, capabilities: { vtu: "yes" }, unknown_field: 1 },
    });
    const body = expectError(res, 422, "VALIDATION_ERROR");
    expect(Object.keys(body.errors!).sort()).toEqual(["capabilities.vtu", "limits.payout_min", "unknown_field"]);
    expect(h.registry.list()).toHaveLength(1); // only the demo merchant: nothing was created
  });
});
