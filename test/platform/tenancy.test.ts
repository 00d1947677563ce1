import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, harness, makeNuban } from "../helpers.js";

describe("tenancy", () => {
  it("acting on merchant A leaves merchant B unchanged", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const stateOfB = () => ({
      ledger: b.tenant.state.ledger.length,
      accounts: b.tenant.state.virtualAccounts.size,
      payouts: b.tenant.state.payouts.size,
      vtu: b.tenant.state.vtu.size,
      cards: b.tenant.state.cards.size,
      checkouts: b.tenant.state.checkouts.size,
      now: b.tenant.clock.now(),
    });
    const before = stateOfB();
    const bBalance = await b.balance();

    const va = await a.virtualAccount();
    await a.transferIn(va.account_number, 7_000);
    await a.processingPayout({ amount: 1_000, account_number: makeNuban("058", "000000001") });
    expect((await a.airtime({ amount: 100 })).status).toBe(200);
    await a.checkout({ amount: 1_000 });
    const holder = await a.cardholder({ email: "ada@example.com" });
    await a.fundedCard(0, { cardholder_id: holder.cardholder_id });
    a.tenant.clock.advanceBy(3_600_000);

    expect(stateOfB()).toEqual(before);
    expect(await b.balance()).toBe(bBalance);
    expect((await b.call("GET", "/api/v1/virtual-accounts")).body.data).toEqual([]);
    expectError(await b.call("GET", `/api/v1/virtual-account/${va.account_number}`), 404, "NOT_FOUND");
    expectError(await b.call("GET", `/api/v1/virtual-cards/cardholders/${holder.cardholder_id}`), 404, "NOT_FOUND");
    // B cannot pull levers on A's objects either.
    expectError(await b.call("POST", `/sandbox/v1/virtual-accounts/${va.account_number}/transfers`, { body: { amount: 1 } }), 404, "NOT_FOUND");
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
