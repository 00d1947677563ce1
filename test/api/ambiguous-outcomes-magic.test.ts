/**
 * Ambiguous outcomes from magic values: a transfer that commits and then loses its response, a
 * processing payout that fails hours later, a VTU purchase that stays processing until requeried.
 */
import { describe, expect, it } from "vitest";
import { ConnectionReset } from "../../src/http/errors.js";
import { at, client } from "../client.js";
import { expectError, harness } from "../helpers.js";

describe("ambiguous outcomes a real integration must survive", () => {
  it("a transfer commits and loses its answer (account ending 0006): the status by reference shows it, a same-reference retry is 409, debited once", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    await expect(c.payout({ reference: "lost", account_number: "0123450006" })).rejects.toBeInstanceOf(ConnectionReset);
    expect(await c.payoutStatus("lost")).toMatchObject({ reference: "lost", status: "processing", total_deducted: 5_050 });
    expectError(await c.payout({ reference: "lost", account_number: "0123450006" }), 409, "DUPLICATE_REFERENCE");
    expect(await c.balance()).toBe(20_000 - 5_050);
  });

  it("a processing payout fails hours later (account ending 0003), refunded, with payout.failed", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    await c.processingPayout({ reference: "late", account_number: "0123450003" });
    await c.advance("1h");
    expect((await c.payoutStatus("late")).status).toBe("processing");
    await c.advance("1h");
    expect(await c.payoutStatus("late")).toMatchObject({ status: "failed", processed_at: at(7_200) });
    expect(await c.balance()).toBe(20_000);
    expect((await c.events("payout.failed")).map((e) => e.data.reference)).toEqual(["late"]);
  });

  it("a VTU purchase stays processing until requeried (08066666666: the 3rd status read settles it)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    const bought = await c.airtime({ phone: "08066666666", amount: 500 });
    expect(bought.body.status).toBe("processing");
    await c.advance("1d");
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await c.call("GET", `/api/v1/vtu/transaction/status?reference=${bought.body.reference}`)).body.status);
    expect(statuses).toEqual(["Processing", "Processing", "Success"]);
    expect(await c.balance()).toBe(19_500);
  });
});
