/**
 * A duplicate payout reference got 409 without the existing payout, so a client
 * that retried after a timeout (the first request committed, its answer was lost) could not
 * reconcile from the answer. Now the 409 carries the payout the reference made, as the status
 * endpoint shows it, and the retry moves no money.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, harness } from "../helpers.js";

describe("a transfer retried with the reference it already used", () => {
  it("gets 409 DUPLICATE_REFERENCE whose data is the existing payout, debited once", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    const first = await c.payout({ reference: "supplier-77", amount: 10_000 }); // the answer the client never saw
    expect(first.status).toBe(201);
    const retry = await c.payout({ reference: "supplier-77", amount: 10_000 });
    const body = expectError(retry, 409, "DUPLICATE_REFERENCE") as { data?: Record<string, unknown> };
    expect(body.data).toEqual((await c.call("GET", "/api/v1/payout/status?reference=supplier-77")).body.data);
    expect(body.data).toMatchObject({ reference: "supplier-77", order_no: first.body.data.order_no, amount: 10_000, status: "processing" });
    expect(await c.balance()).toBe(20_000 - 10_100);
  });
});
