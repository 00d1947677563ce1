/**
 * Payouts, VTU purchases, virtual-account payments and payment links each have a paged control-API
 * list under /sandbox/v1 (never /api/v1: the real service has none), newest first.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { harness } from "../helpers.js";

describe("control-API lists", () => {
  it("list the payouts, VTU purchases, payments into virtual accounts and payment links a merchant made", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    expect((await c.payout({ reference: "po-1", amount: 1_000 })).status).toBe(201);
    const airtime = await c.airtime();
    expect(airtime.status).toBe(200);
    const account = (await c.virtualAccount()).account_number;
    const payment = await c.transferIn(account, 500, { narration: "Order 9" });
    const link = await c.checkout();

    const list = async (path: string) => {
      const res = await c.call("GET", `${path}?per_page=1`);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.pagination).toEqual({ current_page: 1, per_page: 1, total_pages: 1, total: 1 });
      return res.body.data[0];
    };
    expect(await list("/sandbox/v1/payouts")).toMatchObject({ reference: "po-1" });
    expect(await list("/sandbox/v1/vtu")).toMatchObject({ transaction_id: airtime.body.transaction_id });
    expect(await list("/sandbox/v1/virtual-accounts/payments")).toEqual(payment);
    expect(await list("/sandbox/v1/checkout")).toMatchObject({ reference: link.reference });
    // The real service has no such endpoints: nothing was added under /api/v1.
    expect((await c.call("GET", "/api/v1/payouts")).status).toBe(404);
  });
});
