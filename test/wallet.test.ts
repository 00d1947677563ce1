import { describe, expect, it } from "vitest";
import { balanceOf, expectError, expectLedgerConsistent, harness, START } from "./helpers.js";

describe("GET /api/v1/wallet/balance", () => {
  it("returns balance, currency and updated_at in a data wrapper", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 25_000.5 });
    const res = await m.call("GET", "/api/v1/wallet/balance");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { balance: 25_000.5, currency: "NGN", updated_at: new Date(START).toISOString() },
    });
    expectLedgerConsistent(m.tenant);
  });

  it("starts new merchants with the default 1,000,000 Naira", async () => {
    const m = await harness().merchant();
    expect(await balanceOf(m)).toBe(1_000_000);
  });

  it("updated_at follows the last ledger movement on the merchant's clock", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 0 });
    expect((await m.call("GET", "/api/v1/wallet/balance")).body.data.updated_at).toBe(new Date(START).toISOString());
    m.tenant.clock.advanceBy(90_000);
    const funded = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 500 } });
    expect(funded.status).toBe(200);
    const res = await m.call("GET", "/api/v1/wallet/balance");
    expect(res.body.data).toEqual({ balance: 500, currency: "NGN", updated_at: new Date(START + 90_000).toISOString() });
    expectLedgerConsistent(m.tenant);
  });

  it("requires credentials", async () => {
    const m = await harness().merchant();
    expectError(await m.call("GET", "/api/v1/wallet/balance", { anonymous: true }), 401, "MISSING_CREDENTIALS");
  });
});
