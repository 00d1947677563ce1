/**
 * The wallet: GET /api/v1/wallet/balance (its envelope, the default opening balance, updated_at on
 * the merchant's clock, credentials).
 */
import { describe, expect, it } from "vitest";
import { at, client } from "../client.js";
import { expectError, expectLedgerConsistent, harness } from "../helpers.js";

describe("GET /api/v1/wallet/balance", () => {
  it("returns balance, currency and updated_at in a data wrapper", async () => {
    const c = client(await harness().merchant({ wallet_balance: 25_000.5 }));
    const res = await c.call("GET", "/api/v1/wallet/balance");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { balance: 25_000.5, currency: "NGN", updated_at: at(0) },
    });
    expectLedgerConsistent(c.tenant);
  });

  it("starts new merchants with the default 1,000,000 Naira", async () => {
    const c = client(await harness().merchant());
    expect(await c.balance()).toBe(1_000_000);
  });

  it("updated_at follows the last ledger movement on the merchant's clock", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    expect((await c.call("GET", "/api/v1/wallet/balance")).body.data.updated_at).toBe(at(0));
    await c.advance(90);
    await c.fund(500);
    const res = await c.call("GET", "/api/v1/wallet/balance");
    expect(res.body.data).toEqual({ balance: 500, currency: "NGN", updated_at: at(90) });
    expectLedgerConsistent(c.tenant);
  });

  it("requires credentials", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("GET", "/api/v1/wallet/balance", { anonymous: true }), 401, "MISSING_CREDENTIALS");
  });
});
