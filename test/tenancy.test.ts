import { describe, expect, it } from "vitest";
import { balanceOf, expectError, harness, makeNuban } from "./helpers.js";

describe("tenancy", () => {
  it("acting on merchant A leaves merchant B unchanged", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const snapshot = () => ({
      ledger: b.tenant.state.ledger.length,
      accounts: b.tenant.state.virtualAccounts.size,
      payouts: b.tenant.state.payouts.size,
      vtu: b.tenant.state.vtu.size,
      cards: b.tenant.state.cards.size,
      checkouts: b.tenant.state.checkouts.size,
      now: b.tenant.clock.now(),
    });
    const before = snapshot();
    const bBalance = await balanceOf(b);

    const va = await a.call("POST", "/api/v1/virtual-account/create", {
      body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678" },
    });
    expect(va.status).toBe(200);
    await a.call("POST", `/sandbox/v1/virtual-accounts/${va.body.data.account_number}/transfers`, { body: { amount: 7_000 } });
    expect((await a.call("POST", "/api/v1/payout/transfer", {
      body: { amount: 1_000, bank_code: "058", account_number: makeNuban("058", "000000001"), account_name: "X Y", bank_name: "GTBank" },
    })).status).toBe(201);
    expect((await a.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 100 } })).status).toBe(200);
    expect((await a.call("POST", "/api/v1/checkout/create", { body: { amount: 1_000 } })).status).toBe(200);
    const holder = await a.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    await a.call("POST", `/sandbox/v1/cardholders/${holder.body.cardholder_id}/approve`);
    expect((await a.call("POST", "/api/v1/virtual-cards", { body: { cardholder_id: holder.body.cardholder_id } })).status).toBe(200);
    a.tenant.clock.advanceBy(3_600_000);

    expect(snapshot()).toEqual(before);
    expect(await balanceOf(b)).toBe(bBalance);
    expect((await b.call("GET", "/api/v1/virtual-accounts")).body.data).toEqual([]);
    expectError(await b.call("GET", `/api/v1/virtual-account/${va.body.data.account_number}`), 404, "NOT_FOUND");
    expectError(await b.call("GET", `/api/v1/virtual-cards/cardholders/${holder.body.cardholder_id}`), 404, "NOT_FOUND");
    // B cannot pull levers on A's objects either.
    expectError(await b.call("POST", `/sandbox/v1/virtual-accounts/${va.body.data.account_number}/transfers`, { body: { amount: 1 } }), 404, "NOT_FOUND");
  });

  it("each merchant gets its own keys and its own clock", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.apiSecret).not.toBe(b.apiSecret);
    expect(a.webhookSecret).not.toBe(b.webhookSecret);
    a.tenant.clock.advanceBy(60_000);
    expect(a.tenant.clock.now() - b.tenant.clock.now()).toBe(60_000);
  });
});
