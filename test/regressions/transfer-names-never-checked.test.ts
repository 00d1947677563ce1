/**
 * Transfers never checked `account_name` or `bank_name`. Name enquiry said
 * "EZE FUNMILAYO IBRAHIM" for a GTBank (058) account, yet "JOHN DOE" at "Access Bank" got 201 and
 * completed. The spec makes `account_name` "the value returned by account verification". Now the
 * transfer is refused, naming what the bank list and name enquiry say, and no money moves.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, harness } from "../helpers.js";

const DESTINATION = { amount: 5_000, bank_code: "058", account_number: "0000000018" };

describe("a transfer to a GTBank account under another name and bank", () => {
  it("is refused with no debit, no payout and no event; the verified name and the listed bank name go through", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const verified = await c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: "0000000018" } });
    expect(verified.body.data.account_name).toBe("EZE FUNMILAYO IBRAHIM");

    const send = (names: { account_name: string; bank_name: string }) =>
      c.call("POST", "/api/v1/payout/transfer", { body: { ...DESTINATION, ...names, reference: "pay-eze" } });
    expectError(await send({ account_name: "JOHN DOE", bank_name: "Access Bank" }), 422, "BANK_NAME_MISMATCH");
    const mismatch = expectError(await send({ account_name: "JOHN DOE", bank_name: "Guaranty Trust Bank" }), 422, "ACCOUNT_NAME_MISMATCH");
    expect(mismatch.message).toContain('returns "EZE FUNMILAYO IBRAHIM"');
    expectError(await send({ account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Access Bank" }), 422, "BANK_NAME_MISMATCH");
    expect(await c.balance()).toBe(50_000);
    expect(c.tenant.state.payouts.size).toBe(0);
    await c.advance("1m");
    expect(await c.events()).toEqual([]);

    expect((await send({ account_name: verified.body.data.account_name, bank_name: "Guaranty Trust Bank" })).status).toBe(201);
  });
});
