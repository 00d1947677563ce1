/**
 * A 504 after a money-moving request was made told every client to "query its status by reference
 * before you retry", but a VTU purchase carries no reference of the merchant's, and a card's funding
 * or unload is looked up by the card: the advice could not be followed. Each operation's 504 now
 * says what to look at for that operation.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, harness } from "../helpers.js";

async function timedOut(operation: string) {
  const c = client(await harness().merchant({ wallet_balance: 100_000 }));
  await c.rule({ target: "response", match: { operation }, outcome: "gateway_timeout", times: 1 });
  return c;
}

const messageOf = (res: Parameters<typeof expectError>[0]) => (expectError(res, 504, "GATEWAY_TIMEOUT") as { message: string }).message;

describe("the 504 after a committed operation says what that operation can be checked by", () => {
  it("a VTU purchase: the wallet balance and the webhook, never a reference it does not have", async () => {
    const c = await timedOut("buyAirtime");
    const before = await c.balance();
    const message = messageOf(await c.airtime({ phone: "08031234567", amount: 500 }));
    expect(message).not.toMatch(/by reference/);
    expect(message).toContain("no reference of yours");
    expect(message).toContain("GET /api/v1/wallet/balance");
    expect(await c.balance()).toBeLessThan(before); // it was made
  });

  it("card funding: the card's balance and transactions", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const card = await c.fundedCard(0);
    await c.rule({ target: "response", match: { operation: "fundVirtualCard" }, outcome: "gateway_timeout", times: 1 });
    const message = messageOf(await c.call("POST", `/api/v1/virtual-cards/${card.card_id}/fund`, { body: { amount: 5 } }));
    expect(message).not.toMatch(/by reference/);
    expect(message).toContain("/transactions");
  });

  it("a payout keeps its advice: the status by reference, retried only with the same reference", async () => {
    const c = await timedOut("createPayout");
    const message = messageOf(await c.payout({ reference: "to-1" }));
    expect(message).toContain("query its status by reference (GET /api/v1/payout/status)");
  });
});
