import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, expectLedgerConsistent, harness, START } from "../helpers.js";

describe("POST /sandbox/v1/merchants", () => {
  it("creates a merchant with fresh keys and documented defaults (201, no auth needed)", async () => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/merchants", { body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        merchant_id: expect.stringMatching(/^mch_[0-9A-Za-z]{14}$/),
        business_name: "Sandbox Merchant",
        api_key: expect.stringMatching(/^pk_test_[0-9A-Za-z]{24}$/),
        api_secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{32}$/),
        webhook_secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
        capabilities: { payouts: true, vtu: true, virtual_cards: true, checkout: true },
        kyc: { bvn: null, nin: null },
        ip_allowlist: [],
        webhook_url: null,
        webhook_capture: null,
        limits: {
          payout_min: 100,
          payout_max: 5_000_000,
          payout_hourly_amount: 20_000_000,
          payout_daily_amount: 100_000_000,
          payout_attempts_per_hour: 100,
          payout_attempts_per_ip_per_hour: 20,
          payout_review_threshold: 1_000_000,
          requests_per_minute: 1_000,
        },
        card_funding_fee_usd: 1,
        usd_ngn_rate: 1_600,
        delays: { payout_settlement_seconds: 30, vtu_settlement_seconds: 60, kyc_approval_seconds: 120 },
        webhook: {
          signature_algorithm: "sha256",
          signature_encoding: "hex",
          timeout_seconds: 10,
          retry_schedule_seconds: [60, 300, 1_800, 7_200, 21_600, 86_400],
        },
        created_at: new Date(START).toISOString(),
        wallet_balance: 1_000_000,
        clock: { mode: "manual", speed: 1, now: new Date(START).toISOString() },
      },
    });
  });

  it("takes every setting, and the new keys work at once", async () => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/merchants", {
      body: {
        business_name: "Chops & Co",
        capabilities: { vtu: false },
        wallet_balance: 1234.56,
        kyc: { bvn: "22298765432", nin: "12345678901" },
        ip_allowlist: ["127.0.0.1"],
        webhook_url: "http://127.0.0.1:3001/webhooks",
        limits: { payout_min: 500, payout_review_threshold: 250_000 },
        card_funding_fee_usd: 0.5,
        usd_ngn_rate: 1550.25,
        clock: { mode: "manual", now: "2027-01-01T00:00:00Z" },
      },
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({
      business_name: "Chops & Co",
      capabilities: { payouts: true, vtu: false, virtual_cards: true, checkout: true },
      wallet_balance: 1234.56,
      kyc: { bvn: "22298765432", nin: "12345678901" },
      ip_allowlist: ["127.0.0.1"],
      webhook_url: "http://127.0.0.1:3001/webhooks",
      card_funding_fee_usd: 0.5,
      usd_ngn_rate: 1550.25,
      clock: { mode: "manual", now: "2027-01-01T00:00:00.000Z" },
    });
    expect(d.limits).toMatchObject({ payout_min: 500, payout_review_threshold: 250_000, payout_max: 5_000_000 });
    const balance = await h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": d.api_key, "x-api-secret": d.api_secret } });
    expect(balance.body.data).toEqual({ balance: 1234.56, currency: "NGN", updated_at: "2027-01-01T00:00:00.000Z" });
  });

  it("refuses invalid settings with VALIDATION_ERROR naming each field", async () => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/merchants", {
      body: { kyc: { bvn: "123" }, ip_allowlist: ["not-an-ip"], webhook_url: "ftp://x", wallet_balance: -5, clock: { mode: "sometimes" } },
    });
    const body = expectError(res, 422, "VALIDATION_ERROR");
    expect(Object.keys(body.errors!).sort()).toEqual(["clock.mode", "ip_allowlist.0", "kyc.bvn", "wallet_balance", "webhook_url"]);
  });
});

describe("GET and PATCH /sandbox/v1/merchant", () => {
  it("GET returns the caller's own config; it needs the caller's credentials", async () => {
    const h = harness();
    const m = await h.merchant({ business_name: "Suya Spot" });
    const res = await m.call("GET", "/sandbox/v1/merchant");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ merchant_id: m.id, business_name: "Suya Spot", api_key: m.apiKey });
    expectError(await h.call("GET", "/sandbox/v1/merchant"), 401, "MISSING_CREDENTIALS");
  });

  it("PATCH changes only the fields sent", async () => {
    const m = await harness().merchant({ business_name: "Before", limits: { payout_min: 200 } });
    const res = await m.call("PATCH", "/sandbox/v1/merchant", { body: { limits: { payout_max: 9_000 }, usd_ngn_rate: 1700 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ business_name: "Before", usd_ngn_rate: 1700 });
    expect(res.body.data.limits).toMatchObject({ payout_min: 200, payout_max: 9_000 });
    expect(m.tenant.config.limits.payout_max).toBe(900_000); // kobo inside
  });

  it("PATCH can switch the clock to realtime and move it forward, never back", async () => {
    const h = harness();
    const m = await h.merchant();
    const later = new Date(START + 3_600_000).toISOString();
    const res = await m.call("PATCH", "/sandbox/v1/merchant", { body: { clock: { mode: "realtime", speed: 60, now: later } } });
    expect(res.body.data.clock).toEqual({ mode: "realtime", speed: 60, now: later });
    h.wall.now += 1_000; // one wall second at speed 60 is one sim minute
    expect(m.tenant.clock.now()).toBe(START + 3_600_000 + 60_000);
    const back = await m.call("PATCH", "/sandbox/v1/merchant", { body: { clock: { now: new Date(START).toISOString() }, business_name: "Changed" } });
    expect(expectError(back, 422, "VALIDATION_ERROR").errors).toHaveProperty(["clock.now"]);
    expect(m.tenant.config.business_name).toBe("Sandbox Merchant"); // nothing applied
  });

  it("PATCH refuses unknown fields and keys it does not own", async () => {
    const m = await harness().merchant();
    const res = await m.call("PATCH", "/sandbox/v1/merchant", { body: { api_key: "pk_test_mine" } });
    expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty("api_key");
    expect(m.tenant.config.api_key).toBe(m.apiKey);
  });
});

describe("POST /sandbox/v1/wallet/fund and GET /sandbox/v1/wallet/ledger", () => {
  it("credits the wallet through the ledger", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10 }));
    const res = await c.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 2_500.75 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: 2_510.75, currency: "NGN", transaction_id: expect.stringMatching(/^TXN_/) });
    expect(await c.balance()).toBe(2_510.75);
    expect(await c.ledger()).toEqual([
      expect.objectContaining({ entry_id: 1, kind: "wallet_funding", type: "credit", amount: 10, balance_after: 10 }),
      expect.objectContaining({ entry_id: 2, kind: "wallet_funding", type: "credit", amount: 2_500.75, balance_after: 2_510.75, transaction_id: res.body.data.transaction_id }),
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it("refuses zero, negative and over-precise amounts", async () => {
    const m = await harness().merchant();
    for (const amount of [0, -5, 1.005, "100"]) {
      expectError(await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount } }), 422, "VALIDATION_ERROR");
    }
    expect(m.tenant.state.ledger).toHaveLength(1);
  });
});
