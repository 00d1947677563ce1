/**
 * Payout failures a real integration meets: a bank down for a window of sim time (503
 * BANK_UNAVAILABLE), name enquiry not found or timed out (504), and Heritage Bank (licence revoked June
 * 2024) gone from the bank list, so a transfer to it is refused before any debit.
 */
import { describe, expect, it } from "vitest";
import { client, PAYOUT_ACCOUNT } from "../client.js";
import { expectError, harness, makeNuban } from "../helpers.js";

const HERITAGE = "030";

describe("failures a real integration meets", () => {
  it("a bank can be down: verify-account and transfers are 503 BANK_UNAVAILABLE with retry_after, nothing debited", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    const rule = await c.call("POST", "/sandbox/v1/outcomes", { body: { target: "bank", match: { bank_code: "058" }, outcome: "down", window_seconds: 600 } });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const body = { bank_code: "058", account_number: PAYOUT_ACCOUNT };
    expect(expectError(await c.call("POST", "/api/v1/payout/verify-account", { body }), 503, "BANK_UNAVAILABLE").retry_after).toBe(600);
    expect(expectError(await c.payout({ reference: "down-1" }), 503, "BANK_UNAVAILABLE").retry_after).toBe(600);
    expect(await c.balance()).toBe(20_000);
    expect(c.tenant.state.payouts.size).toBe(0);
  });

  it("name enquiry fails more than one way: not found (ending 0000) and timed out (ending 0010)", async () => {
    const c = client(await harness().merchant());
    const enquire = (account_number: string) => c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "058", account_number } });
    expectError(await enquire("0123450000"), 422, "INVALID_ACCOUNT");
    expectError(await enquire("0123450010"), 504, "GATEWAY_TIMEOUT");
    expect((await enquire(PAYOUT_ACCOUNT)).status).toBe(200);
  });

  it("Heritage Bank (030) is not in the bank list, and a transfer to it is refused with 422 before any debit", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    const banks = await c.call("GET", "/api/v1/payout/banks");
    expect(banks.status).toBe(200);
    const listed = banks.body.data as Array<{ bank_code: string; bank_name: string }>;
    expect(listed.filter((b) => b.bank_code === HERITAGE || /heritage/i.test(b.bank_name))).toEqual([]);

    const account = makeNuban(HERITAGE, "012345678");
    const res = await c.payout({ reference: "to-heritage", bank_code: HERITAGE, account_number: account, bank_name: "Heritage Bank", account_name: "ADA OBI" });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.success).toBe(false);
    expect(await c.balance()).toBe(20_000);
    expect(c.tenant.state.payouts.size).toBe(0);
    expect(c.tenant.state.ledger.filter((e) => e.kind === "payout" || e.kind === "payout_fee")).toEqual([]);
  });
});
