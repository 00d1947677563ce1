/**
 * Narrations were trimmed, never empty and capped at 200 characters by the
 * control API, although the spec makes a payment's `reference` the payer's narration "exactly as the
 * payer's bank sent it", and blank narrations are common. Now a narration is kept verbatim (empty,
 * spaces, tabs and newlines included) up to 500 characters, through the control API, scenario files
 * and snapshots; GET /api/v1/transaction/status finds it as sent; an empty one is found by its
 * transaction_id (the webhook's), since a reference query needs at least one character.
 */
import { describe, expect, it } from "vitest";
import { client, expectInvalid, type TestClient } from "../client.js";
import { harness } from "../helpers.js";

const NARRATIONS = ["", " ", "  Order 1001  ", "Order\t1001\nline two", "x".repeat(500)];

async function merchantWithAccount() {
  const c = client(await harness().merchant({ wallet_balance: 0 }));
  return { c, account: (await c.virtualAccount()).account_number };
}
const statusByReference = (c: TestClient, reference: string) => c.call("GET", `/api/v1/transaction/status?reference=${encodeURIComponent(reference)}`);

describe("a payer's narration", () => {
  it("is kept exactly as sent by the control API, in the record, the status lookup and payment.received", async () => {
    const { c, account } = await merchantWithAccount();
    for (const narration of NARRATIONS) {
      const payment = await c.transferIn(account, 100, { narration });
      expect(payment.reference).toBe(narration);
      const [event] = (await c.events("payment.received")).filter((e) => e.transaction_id === payment.transaction_id);
      expect(event!.data).toMatchObject({ reference: narration });
      if (narration === "") continue;
      const found = await statusByReference(c, narration);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(found.body.data).toEqual(payment);
    }
    // Trimmed text is another narration: "Order 1001" was never sent.
    expect((await statusByReference(c, "Order 1001")).status).toBe(404);
  });

  it("that is empty cannot be queried by reference: its transaction_id is the key", async () => {
    const { c, account } = await merchantWithAccount();
    const payment = await c.transferIn(account, 100, { narration: "" });
    expectInvalid(await c.call("GET", "/api/v1/transaction/status?reference="), ["reference"]);
    const [event] = await c.events("payment.received");
    expect(event!.data).toMatchObject({ reference: "", transaction_id: payment.transaction_id });
    const listed = await c.call("GET", `/sandbox/v1/virtual-accounts/payments?transaction_id=${payment.transaction_id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([payment]);
  });

  it("may be up to 500 characters; 501 is refused and nothing is credited", async () => {
    const { c, account } = await merchantWithAccount();
    const res = await c.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: 100, narration: "x".repeat(501) } });
    expect(expectInvalid(res, ["narration"]).errors!.narration).toEqual(["Must be at most 500 characters."]);
    expect(await c.balance()).toBe(0);
  });

  it("is kept as sent by a scenario's timeline and through a snapshot", async () => {
    const h = harness();
    const doc = {
      name: "narrations",
      merchants: { shop: { wallet_balance: 0, kyc: { bvn: "22212345678" } } },
      virtual_accounts: [{ as: "acct", email: "ada@example.com", reference: "c-1", first_name: "Ada", last_name: "Obi" }],
      timeline: NARRATIONS.map((narration) => ({ at: "+1m", transfer: { to: "acct", amount: 100, narration } })),
    };
    const loaded = await h.call("POST", "/sandbox/v1/scenarios", { body: doc });
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    const c = client(h.existing(loaded.body.data.merchants.shop.merchant_id));
    await c.advance("1m");
    const snapshot = await c.snapshot();
    expect(snapshot.state.va_payments.map((p: { reference: string }) => p.reference)).toEqual(NARRATIONS);

    const restored = client(await harness().merchant()); // another sandbox: account numbers are unique within one
    expect((await restored.call("PUT", "/sandbox/v1/snapshot", { body: snapshot })).status).toBe(200);
    expect([...restored.tenant.state.vaPayments.values()].map((p) => p.reference)).toEqual(NARRATIONS);
    expect((await statusByReference(restored, "  Order 1001  ")).body.data.reference).toBe("  Order 1001  ");
  });
});
