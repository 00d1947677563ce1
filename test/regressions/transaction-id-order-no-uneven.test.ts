/**
 * `transaction_id` and `order_no` appeared unevenly. The payout response had
 * only `order_no` and its webhook both; checkout create only `order_no`; VTU, virtual-account and
 * card responses only `transaction_id`. Now every transaction record the sandbox returns or sends
 * carries `transaction_id`, with `order_no` beside it (equal) where the spec names it: the payout
 * record, and the payment link, which always had it. One transaction, one identifier, everywhere:
 * its responses, its status record, its webhook and its ledger entries.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { harness } from "../helpers.js";

describe("every transaction record", () => {
  it("carries transaction_id (and an equal order_no where the spec names it), the same in its answer, its status, its webhook and its ledger entries", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000, webhook_capture: {} }));
    const ledgerIds = async () => new Set((await c.ledger()).map((e) => e.transaction_id));
    const eventFor = async (type: string) => (await c.events(type))[0]!.data as Record<string, unknown>;

    // Payout: the create answer, the status record and the webhook.
    const payout = (await c.payout({ reference: "po-1" })).body.data;
    expect(payout.transaction_id).toMatch(/^PO_/);
    expect(payout.order_no).toBe(payout.transaction_id);
    await c.advance("30s");
    expect(await c.payoutStatus("po-1")).toMatchObject({ transaction_id: payout.transaction_id, order_no: payout.transaction_id });
    expect(await eventFor("payout.completed")).toMatchObject({ transaction_id: payout.transaction_id, order_no: payout.transaction_id });

    // Payment link: the create answer (top level), the status record and the webhook.
    const link = await c.checkout();
    expect(link.transaction_id).toMatch(/^TXN_/);
    expect(link.order_no).toBe(link.transaction_id);
    expect((await c.payLink(link.reference)).status).toBe(200);
    expect(await c.checkoutStatus(link.reference)).toMatchObject({ transaction_id: link.transaction_id, order_no: link.transaction_id });
    expect(await eventFor("checkout.completed")).toMatchObject({ transaction_id: link.transaction_id, order_no: link.transaction_id });

    // A transfer into a virtual account: the lever's record, the status record and the webhook (the spec's payload: no order_no).
    const account = await c.virtualAccount();
    const payment = await c.transferIn(account.account_number, 2_000, { narration: "Order 7" });
    expect(payment.transaction_id).toMatch(/^TXN_/);
    expect((await c.call("GET", "/api/v1/transaction/status?reference=Order%207")).body.data.transaction_id).toBe(payment.transaction_id);
    expect(await eventFor("payment.received")).toMatchObject({ transaction_id: payment.transaction_id });

    // VTU: the purchase result and the status record.
    const airtime = (await c.airtime()).body;
    expect(airtime.transaction_id).toMatch(/^TXN_/);
    const vtu = await c.call("GET", `/api/v1/vtu/transaction/status?reference=${airtime.reference}`);
    expect(vtu.body.transaction_id).toBe(airtime.transaction_id);

    // A card funding: the answer and the card's transaction list.
    const card = await c.fundedCard(0);
    const funding = await c.fundCard(card.card_id, 10);
    const cardTransactions = (await c.call("GET", `/api/v1/virtual-cards/${card.card_id}/transactions`)).body.data as Array<{ transaction_id: string }>;
    expect(cardTransactions.map((t) => t.transaction_id)).toEqual([funding.transaction_id]);

    // Each one's money movements are booked under that same identifier.
    const ids = await ledgerIds();
    for (const id of [payout.transaction_id, link.transaction_id, payment.transaction_id, airtime.transaction_id, funding.transaction_id]) expect(ids).toContain(id);
  });
});
