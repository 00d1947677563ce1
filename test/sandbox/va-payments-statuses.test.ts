/**
 * The spec's `pending`, `processing` and `failed` statuses of a transfer into a virtual account: sent
 * through the control API, it can arrive pending or processing, and later clear (credit and
 * `payment.received`) or fail (no credit) on the merchant's clock.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { harness } from "../helpers.js";

describe("an inbound transfer", () => {
  it("can be pending, then succeed; or processing, then fail; the status record shows each state", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const account = (await c.virtualAccount()).account_number;
    const status = async (reference: string) => (await c.call("GET", `/api/v1/transaction/status?reference=${reference}`)).body.data.status;

    const pending = await c.transferIn(account, 1_000, { narration: "INV-1", status: "pending", settle_after_seconds: 120 });
    const failing = await c.transferIn(account, 2_000, { narration: "INV-2", status: "processing", outcome: "failed", settle_after_seconds: 120 });
    expect([pending.status, failing.status]).toEqual(["pending", "processing"]);
    expect([await status("INV-1"), await status("INV-2")]).toEqual(["pending", "processing"]);
    expect(await c.balance()).toBe(0);

    await c.advance(120);
    expect([await status("INV-1"), await status("INV-2")]).toEqual(["success", "failed"]);
    expect(await c.balance()).toBe(1_000);
    expect((await c.events("payment.received")).map((e) => e.data.reference)).toEqual(["INV-1"]);
  });
});
