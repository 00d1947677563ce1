/**
 * The merchant API's hot path does each thing once (bench/FAST-PATH.md): these pin the shortcuts, so
 * that a change bringing a second pass back fails here rather than only in the benchmark.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { harness } from "../helpers.js";

const PAYOUT = { amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank" };

afterEach(() => vi.restoreAllMocks());

describe("a request body", () => {
  it("is parsed once, though the depth check and the route's validator both read it", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 1_000_000 });
    const text = JSON.stringify(PAYOUT);
    const parse = vi.spyOn(JSON, "parse");
    const res = await h.app.request(
      "/api/v1/payout/transfer",
      { method: "POST", headers: { ...m.keys, "content-type": "application/json" }, body: text },
      { incoming: { socket: { remoteAddress: "127.0.0.1" } } },
    );
    const parsedBodies = parse.mock.calls.filter(([t]) => t === text).length;
    parse.mockRestore();
    expect(res.status, await res.text()).toBe(201);
    expect(parsedBodies).toBe(1);
  });

  it("malformed JSON is still reported by the validator, and a body too deep by the depth check", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 1_000_000 });
    const bad = await m.call("POST", "/api/v1/payout/transfer", { raw: "{not json", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { a: deep };
    const tooDeep = await m.call("POST", "/api/v1/payout/transfer", { body: deep });
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.errors.body[0]).toMatch(/nest/);
  });
});
