import { describe, expect, it } from "vitest";
import banks from "../fixtures/banks.json" with { type: "json" };
import { balanceOf, expectError, expectLedgerConsistent, harness, makeNuban, START, type Merchant } from "./helpers.js";

const GTB = "058";
const account = makeNuban(GTB, "012345678");
const transfer = (overrides: Record<string, unknown> = {}) => ({
  amount: 5_000,
  bank_code: GTB,
  account_number: account,
  account_name: "OKAFOR ADAEZE",
  bank_name: "Guaranty Trust Bank",
  narration: "Invoice 42",
  ...overrides,
});
const pay = (m: Merchant, body: Record<string, unknown>, ip?: string) => m.call("POST", "/api/v1/payout/transfer", { body, ip });

describe("GET /api/v1/payout/banks", () => {
  it("lists the fixture's banks as bank_code + bank_name, fintechs included", async () => {
    const m = await harness().merchant();
    const res = await m.call("GET", "/api/v1/payout/banks");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual(banks.map((b) => ({ bank_code: b.bank_code, bank_name: b.bank_name })));
    expect(res.body.data.length).toBeGreaterThanOrEqual(40);
    const names = res.body.data.map((b: { bank_name: string }) => b.bank_name).join("|");
    for (const fintech of ["OPay", "PalmPay", "Moniepoint", "Kuda"]) expect(names).toContain(fintech);
    expect(res.body.data).toContainEqual({ bank_code: "058", bank_name: "Guaranty Trust Bank" });
  });
});

describe("POST /api/v1/payout/verify-account", () => {
  it("resolves a valid NUBAN to a deterministic name", async () => {
    const h = harness();
    const m = await h.merchant();
    const res = await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: GTB, account_number: account } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { account_number: account, account_name: expect.stringMatching(/^[A-Z]+( [A-Z]+){1,2}$/), bank_code: GTB },
    });
    const again = await (await harness().merchant()).call("POST", "/api/v1/payout/verify-account", { body: { bank_code: GTB, account_number: account } });
    expect(again.body.data.account_name).toBe(res.body.data.account_name);
  });

  it("INVALID_ACCOUNT (422) when the check digit is wrong for a 3-digit bank code", async () => {
    const m = await harness().merchant();
    const wrongDigit = account.slice(0, 9) + String((Number(account[9]) + 1) % 10);
    const res = await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: GTB, account_number: wrongDigit } });
    expectError(res, 422, "INVALID_ACCOUNT");
  });

  it("checks only the 10-digit format for longer (fintech) bank codes", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "999992", account_number: "8031234567" } });
    expect(res.status).toBe(200);
    expect(res.body.data.bank_code).toBe("999992");
  });

  it("VALIDATION_ERROR names each bad field", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "12", account_number: "12345" } });
    const body = expectError(res, 422, "VALIDATION_ERROR");
    expect(Object.keys(body.errors!).sort()).toEqual(["account_number", "bank_code"]);
    const unknownBank = await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "777", account_number: account } });
    expect(expectError(unknownBank, 422, "VALIDATION_ERROR").errors).toHaveProperty("bank_code");
  });
});

describe("POST /api/v1/payout/transfer", () => {
  it("201 with the payout record; amount + fee debited at once as two ledger entries", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 100_000 });
    const res = await pay(m, transfer({ reference: "inv-42" }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: expect.any(String),
      data: {
        reference: "inv-42",
        amount: 5_000,
        fee: 50,
        total_deducted: 5_050,
        net_amount: 5_000,
        order_no: expect.stringMatching(/^PO_[0-9A-Z]{16}$/),
        status: "processing",
        account: `****${account.slice(-4)}`,
        account_name: "OKAFOR ADAEZE",
        bank_name: "Guaranty Trust Bank",
        narration: "Invoice 42",
        created_at: new Date(START).toISOString(),
      },
    });
    expect(res.body.data).not.toHaveProperty("processed_at");
    expect(res.body.data).not.toHaveProperty("source");
    expect(res.body.data).not.toHaveProperty("error");
    expect(await balanceOf(m)).toBe(100_000 - 5_050);
    const entries = m.tenant.state.ledger.slice(-2).map((e) => [e.kind, e.amount, e.transaction_id]);
    expect(entries).toEqual([
      ["payout", -500_000, res.body.data.order_no],
      ["payout_fee", -5_000, res.body.data.order_no],
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it.each([
    [100, 1],
    [150.55, 1.51],
    [99_999, 999.99],
    [100_000, 1_000],
    [2_500_000, 1_000],
  ])("fee for %d Naira is %d (1 percent, capped at 1,000)", async (amount, fee) => {
    const m = await harness().merchant({ wallet_balance: 5_000_000, limits: { payout_review_threshold: 10_000_000 } });
    const res = await pay(m, transfer({ amount }));
    expect(res.status).toBe(201);
    expect(res.body.data.fee).toBe(fee);
    expect(res.body.data.total_deducted).toBe(Math.round((amount + fee) * 100) / 100);
    expect(await balanceOf(m)).toBe(Math.round((5_000_000 - amount - fee) * 100) / 100);
  });

  it("generates a unique reference when none is sent", async () => {
    const m = await harness().merchant();
    const a = await pay(m, transfer());
    const b = await pay(m, transfer());
    expect(a.body.data.reference).toMatch(/^PAYOUT_[0-9A-Z]{16}$/);
    expect(b.body.data.reference).not.toBe(a.body.data.reference);
    expect(b.body.data.order_no).not.toBe(a.body.data.order_no);
  });

  it("DUPLICATE_REFERENCE (409) for a reused reference, nothing debited", async () => {
    const m = await harness().merchant();
    expect((await pay(m, transfer({ reference: "dup-1" }))).status).toBe(201);
    const before = await balanceOf(m);
    expectError(await pay(m, transfer({ reference: "dup-1" })), 409, "DUPLICATE_REFERENCE");
    expect(await balanceOf(m)).toBe(before);
    expect(m.tenant.state.payouts.size).toBe(1);
  });

  it("references are unique per merchant, not across merchants", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    expect((await pay(a, transfer({ reference: "shared" }))).status).toBe(201);
    expect((await pay(b, transfer({ reference: "shared" }))).status).toBe(201);
  });

  it("amounts at or above the review threshold are held as pending_approval (still debited)", async () => {
    const m = await harness().merchant({ wallet_balance: 100_000, limits: { payout_review_threshold: 20_000 } });
    const below = await pay(m, transfer({ amount: 19_999.99 }));
    const at = await pay(m, transfer({ amount: 20_000 }));
    expect(below.body.data.status).toBe("processing");
    expect(at.body.data.status).toBe("pending_approval");
    expect(below.body.data.fee).toBe(200); // 1% of 19,999.99 is 199.9999, rounded to the kobo
    expect(await balanceOf(m)).toBe(59_600.01);
    expectLedgerConsistent(m.tenant);
  });

  it("INSUFFICIENT_BALANCE (422) when amount + fee exceeds the wallet; nothing debited or recorded", async () => {
    const m = await harness().merchant({ wallet_balance: 5_049.99 });
    const res = await pay(m, transfer({ amount: 5_000, reference: "too-much" }));
    expectError(res, 422, "INSUFFICIENT_BALANCE");
    expect(await balanceOf(m)).toBe(5_049.99);
    expect(m.tenant.state.payouts.size).toBe(0);
    expectError(await m.call("GET", "/api/v1/payout/status?reference=too-much"), 404, "NOT_FOUND");
    // Exactly enough is fine.
    expect((await pay(m, transfer({ amount: 4_999.99 }))).status).toBe(201);
    expect(await balanceOf(m)).toBe(0);
    expectLedgerConsistent(m.tenant);
  });

  it("per-merchant minimum and maximum per transaction", async () => {
    const m = await harness().merchant({ limits: { payout_min: 1_000, payout_max: 50_000 } });
    expectError(await pay(m, transfer({ amount: 999.99 })), 422, "AMOUNT_BELOW_MINIMUM");
    expectError(await pay(m, transfer({ amount: 50_000.01 })), 422, "AMOUNT_ABOVE_MAXIMUM");
    expect((await pay(m, transfer({ amount: 1_000 }))).status).toBe(201);
    expect((await pay(m, transfer({ amount: 50_000 }))).status).toBe(201);
    expect(m.tenant.state.payouts.size).toBe(2);
  });

  it("hourly and daily amount limits over rolling windows of the merchant's clock", async () => {
    const m = await harness().merchant({ limits: { payout_hourly_amount: 10_000, payout_daily_amount: 25_000 } });
    expect((await pay(m, transfer({ amount: 6_000 }))).status).toBe(201);
    expectError(await pay(m, transfer({ amount: 4_000.01 })), 422, "HOURLY_LIMIT_EXCEEDED");
    expect((await pay(m, transfer({ amount: 4_000 }))).status).toBe(201);
    m.tenant.clock.advanceBy(60 * 60_000);
    expect((await pay(m, transfer({ amount: 10_000 }))).status).toBe(201);
    m.tenant.clock.advanceBy(60 * 60_000);
    expectError(await pay(m, transfer({ amount: 5_000.01 })), 422, "DAILY_LIMIT_EXCEEDED");
    expect((await pay(m, transfer({ amount: 5_000 }))).status).toBe(201);
    m.tenant.clock.advanceBy(22 * 60 * 60_000);
    // The first two payouts (at START) have left the 24-hour window.
    expect((await pay(m, transfer({ amount: 10_000 }))).status).toBe(201);
    expectLedgerConsistent(m.tenant);
  });

  it("RATE_LIMITED (429) with retry_after once the merchant's hourly attempt cap is reached", async () => {
    const m = await harness().merchant({ limits: { payout_attempts_per_hour: 3, payout_attempts_per_ip_per_hour: 0 } });
    expect((await pay(m, transfer())).status).toBe(201);
    m.tenant.clock.advanceBy(10 * 60_000);
    expectError(await pay(m, { amount: -1 }), 422, "VALIDATION_ERROR"); // refused attempts count too
    expect((await pay(m, transfer())).status).toBe(201);
    const limited = await pay(m, transfer(), "10.0.0.2");
    const body = expectError(limited, 429, "RATE_LIMITED");
    expect(body.retry_after).toBe(50 * 60);
    expect(limited.headers.get("retry-after")).toBe(String(50 * 60));
    expect(m.tenant.state.payouts.size).toBe(2);
    m.tenant.clock.advanceBy(50 * 60_000);
    expect((await pay(m, transfer())).status).toBe(201);
  });

  it("IP_RATE_LIMITED (429) after 20 attempts per hour from one IP, counted per merchant and IP", async () => {
    const h = harness();
    const m = await h.merchant({ limits: { payout_attempts_per_hour: 0 } });
    const other = await h.merchant();
    for (let i = 0; i < 20; i++) {
      const res = await pay(m, i % 2 ? transfer() : { amount: "bad" }, "203.0.113.9");
      expect(res.status).toBe(i % 2 ? 201 : 422);
    }
    const limited = await pay(m, transfer(), "203.0.113.9");
    expect(expectError(limited, 429, "IP_RATE_LIMITED").retry_after).toBe(3600);
    expect(limited.headers.get("retry-after")).toBe("3600");
    // Another IP of the same merchant, and another merchant from the same IP, are unaffected.
    expect((await pay(m, transfer(), "203.0.113.10")).status).toBe(201);
    expect((await pay(other, transfer(), "203.0.113.9")).status).toBe(201);
    // Other payout endpoints are not attempts.
    expect((await m.call("GET", "/api/v1/payout/banks", { ip: "203.0.113.9" })).status).toBe(200);
    m.tenant.clock.advanceBy(3600_000);
    expect((await pay(m, transfer(), "203.0.113.9")).status).toBe(201);
  });

  it("a request refused by the merchant cap does not use up the IP's allowance", async () => {
    const m = await harness().merchant({ limits: { payout_attempts_per_hour: 1, payout_attempts_per_ip_per_hour: 2 } });
    expect((await pay(m, transfer(), "198.51.100.1")).status).toBe(201);
    expectError(await pay(m, transfer(), "198.51.100.1"), 429, "RATE_LIMITED");
    expect(m.tenant.state.windows.payoutAttemptsByIp.get("198.51.100.1")).toHaveLength(1);
  });

  it("validates every field and names each bad one", async () => {
    const m = await harness().merchant();
    const res = await pay(m, { amount: 0, bank_code: "x", account_number: "123", account_name: "", bank_name: 5, reference: "has space" });
    const body = expectError(res, 422, "VALIDATION_ERROR");
    expect(Object.keys(body.errors!).sort()).toEqual(["account_name", "account_number", "amount", "bank_code", "bank_name", "reference"]);
    const missing = expectError(await pay(m, {}), 422, "VALIDATION_ERROR");
    expect(missing.errors!.amount).toEqual(["The amount field is required."]);
    const decimals = expectError(await pay(m, transfer({ amount: 100.001 })), 422, "VALIDATION_ERROR");
    expect(decimals.errors!.amount).toEqual(["Must have at most two decimal places."]);
    const badDigit = expectError(await pay(m, transfer({ account_number: account.slice(0, 9) + String((Number(account[9]) + 1) % 10) })), 422, "VALIDATION_ERROR");
    expect(badDigit.errors).toHaveProperty("account_number");
    expect(m.tenant.state.payouts.size).toBe(0);
  });
});

describe("GET /api/v1/payout/status", () => {
  it("returns the full record with processed_at, source and error", async () => {
    const m = await harness().merchant();
    const created = await pay(m, transfer({ reference: "st-1" }));
    const res = await m.call("GET", "/api/v1/payout/status?reference=st-1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...created.body.data, processed_at: null, source: "api", error: null } });
  });

  it("404 NOT_FOUND for an unknown reference, 422 without one", async () => {
    const m = await harness().merchant();
    expectError(await m.call("GET", "/api/v1/payout/status?reference=nope"), 404, "NOT_FOUND");
    expectError(await m.call("GET", "/api/v1/payout/status"), 422, "VALIDATION_ERROR");
  });
});
