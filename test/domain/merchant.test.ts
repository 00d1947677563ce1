import { describe, expect, it } from "vitest";
import { balanceOf } from "../../src/domain/ledger.js";
import { applySettings, changeSettings, DEFAULTS, merchantView, newCredentials, resetState } from "../../src/domain/merchant.js";
import { toMinor } from "../../src/domain/money.js";
import { addRule } from "../../src/domain/outcomes.js";
import { createPayout } from "../../src/domain/payouts.js";
import { MerchantConfigRecord } from "../../src/domain/records.js";
import { createIds } from "../../src/engine/ids.js";
import { fieldsOf, makeContext, payoutRequest, setup, T0, thrown } from "./context.js";

describe("newMerchantConfig", () => {
  it("fills in the documented defaults, money in minor units", () => {
    const { config } = makeContext();
    expect(MerchantConfigRecord.parse(config)).toEqual(config);
    expect(config).toMatchObject({
      business_name: "Sandbox Merchant",
      capabilities: { payouts: true, vtu: true, virtual_cards: true, checkout: true },
      kyc: { bvn: null, nin: null },
      ip_allowlist: [],
      webhook_url: null,
      webhook_capture: null,
      card_funding_fee: 100,
      usd_ngn_rate: 1_600,
      clock: { mode: "manual", speed: 1 },
      delays: { payout_settlement_seconds: 30, vtu_settlement_seconds: 60, kyc_approval_seconds: 120 },
      webhook: { signature_algorithm: "sha256", signature_encoding: "hex", timeout_seconds: 10, retry_schedule_seconds: [60, 300, 1_800, 7_200, 21_600, 86_400] },
      created_at: T0,
      scenario_origin: null,
    });
    expect(DEFAULTS.wallet_balance).toBe(1_000_000);
  });

  it("applies the settings given, converting money limits but not counts", () => {
    const { config } = makeContext({ settings: { limits: { payout_min: 250.5, payout_attempts_per_hour: 7 }, card_funding_fee_usd: 0.5, business_name: "Ada Stores" } });
    expect(config.limits).toMatchObject({ payout_min: 25_050, payout_attempts_per_hour: 7, payout_max: toMinor(5_000_000) });
    expect([config.card_funding_fee, config.business_name]).toEqual([50, "Ada Stores"]);
  });

  it("does not share the default retry schedule between merchants", () => {
    const a = makeContext().config;
    a.webhook.retry_schedule_seconds.push(1);
    expect(makeContext().config.webhook.retry_schedule_seconds).toHaveLength(6);
    expect(DEFAULTS.webhook.retry_schedule_seconds).toHaveLength(6);
  });

  it("credentials have their prefixes; the secrets come from the second source", () => {
    const creds = newCredentials(createIds("a"), createIds("b"));
    expect(creds.merchant_id).toMatch(/^mch_[0-9A-Za-z]{14}$/);
    expect(creds.api_key).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
    expect(creds.api_secret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(creds.webhook_secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(newCredentials(createIds("a"), createIds("c")).merchant_id).toBe(creds.merchant_id);
    expect(newCredentials(createIds("a"), createIds("c")).api_key).not.toBe(creds.api_key);
  });
});

describe("applySettings", () => {
  const base = makeContext({ settings: { kyc: { bvn: "12345678901", nin: "10987654321" }, webhook_url: "https://a.example/h", webhook_capture: { fail_first: 1 } } }).config;

  it("keeps every field the settings leave out", () => {
    expect(applySettings(base, {})).toEqual(base);
    const changed = applySettings(base, { business_name: "New" });
    expect({ ...changed, business_name: base.business_name }).toEqual(base);
  });

  it("merges nested settings field by field; undefined keeps, null clears", () => {
    const next = applySettings(base, {
      limits: { payout_max: 10, payout_min: undefined },
      webhook: { signature_encoding: "base64" },
      delays: { vtu_settlement_seconds: 0 },
      capabilities: { vtu: false },
      kyc: { nin: null },
      webhook_url: null,
      clock: { speed: 10 },
    });
    expect(next.limits).toEqual({ ...base.limits, payout_max: 1_000 });
    expect(next.webhook).toEqual({ ...base.webhook, signature_encoding: "base64" });
    expect(next.delays).toEqual({ ...base.delays, vtu_settlement_seconds: 0 });
    expect(next.capabilities).toEqual({ ...base.capabilities, vtu: false });
    expect(next.kyc).toEqual({ bvn: "12345678901", nin: null });
    expect([next.webhook_url, next.webhook_capture]).toEqual([null, { fail_first: 1 }]);
    expect(next.clock).toEqual({ mode: "manual", speed: 10 });
    expect(applySettings(base, { webhook_capture: null, usd_ngn_rate: 1_500.25 })).toMatchObject({ webhook_capture: null, usd_ngn_rate: 1_500.25 });
  });

  it("returns a new config, leaving the old one as it was", () => {
    const copy = structuredClone(base);
    applySettings(base, { limits: { payout_max: 1 }, webhook: { timeout_seconds: 1 } });
    expect(base).toEqual(copy);
  });
});

describe("changeSettings", () => {
  const { config } = makeContext();

  it("refuses a clock going back, changing nothing", () => {
    const err = thrown(() => changeSettings(config, T0, { business_name: "X", clock: { now: new Date(T0 - 1).toISOString() } }));
    expect(err.code).toBe("VALIDATION_ERROR");
    expect(fieldsOf(err)).toEqual({ "clock.now": ["The clock never goes backwards: give a time at or after the current sim time."] });
    expect(config.business_name).toBe("Sandbox Merchant");
  });

  it("returns the new config and the clock change to make with it", () => {
    expect(changeSettings(config, T0, { clock: { now: new Date(T0).toISOString() } }).clock).toEqual({ now: T0 });
    const change = changeSettings(config, T0, { business_name: "X", clock: { mode: "realtime", now: "2026-02-01T00:00:00Z" } });
    expect(change.clock).toEqual({ mode: "realtime", now: Date.UTC(2026, 1, 1) });
    expect(change.config).toMatchObject({ business_name: "X", clock: { mode: "realtime", speed: 1 } });
    expect(change.config.clock).not.toHaveProperty("now");
    expect(changeSettings(config, T0, { clock: { speed: 2 } }).clock).toEqual({ speed: 2 });
    expect(changeSettings(config, T0, { business_name: "Y" }).clock).toBeNull();
  });
});

describe("resetState", () => {
  it("gives a fresh state funded with the opening balance by one entry", () => {
    const { ctx, state } = setup({ balance: 10_000 });
    createPayout(ctx, state, payoutRequest());
    addRule(ctx, state, { target: "kyc", outcome: "pending" });
    ctx.now = T0 + 5_000;
    const fresh = resetState(ctx, toMinor(500));
    expect(fresh.ledger).toEqual([
      { entry_id: 1, at: T0 + 5_000, kind: "wallet_funding", amount: 50_000, balance_after: 50_000, transaction_id: fresh.ledger[0]!.transaction_id, description: "Opening balance after reset (sandbox)" },
    ]);
    expect([fresh.payouts.size, fresh.timers, fresh.outcomeRules, fresh.windows.payoutVolume.entries]).toEqual([0, [], [], []]);
    expect(balanceOf(state)).toBe(toMinor(10_000 - 5_050)); // the old state is not touched
    expect(resetState(ctx, 0).ledger).toEqual([]);
  });
});

describe("merchantView", () => {
  it("shows money limits and the card fee in major units, counts as they are", () => {
    const view = merchantView(makeContext().config);
    expect(view.limits).toEqual({ ...DEFAULTS.limits });
    expect(view).toMatchObject({ card_funding_fee_usd: 1, created_at: "2026-01-05T09:00:00.000Z" });
  });
});
