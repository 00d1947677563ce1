/**
 * A transfer moves money only after the bank's name enquiry answers, and it ran none: a transfer to a
 * test account ending 0010 (whose enquiry always times out) was accepted when its name matched, it
 * answered a wrong name with ACCOUNT_NAME_MISMATCH naming the holder no enquiry ever gives, and
 * `verify_account` outcome rules never touched transfers. Now the transfer's own enquiry decides:
 * a time-out or a not-found refuses it before any debit, with its reference still free.
 */
import { describe, expect, it } from "vitest";
import { client, PAYOUT_ACCOUNT, payoutBody } from "../client.js";
import { expectError, expectLedgerConsistent, harness } from "../helpers.js";

const TIMES_OUT = "0123450010";

async function merchant() {
  const m = await harness().merchant();
  return { m, c: client(m) };
}

describe("a transfer's own name enquiry", () => {
  it("ending 0010: 504 GATEWAY_TIMEOUT, nothing debited, no payout, the reference still free", async () => {
    const { m, c } = await merchant();
    const before = await c.balance();
    const res = await c.payout({ account_number: TIMES_OUT, reference: "ne-timeout-1" });
    const body = expectError(res, 504, "GATEWAY_TIMEOUT") as { message: string };
    expect(body.message).toContain("timed out");
    expect(body.message).toContain("nothing was debited");
    expect(await c.balance()).toBe(before);
    expectError(await c.call("GET", "/api/v1/payout/status?reference=ne-timeout-1"), 404, "NOT_FOUND");
    expect(m.tenant.state.payouts.size).toBe(0);
    expectLedgerConsistent(m.tenant);
  });

  it("ending 0010 with any name: the time-out, never a mismatch that names the holder", async () => {
    const { c } = await merchant();
    const res = await c.payout({ account_number: TIMES_OUT, account_name: "JOHN DOE" });
    const body = expectError(res, 504, "GATEWAY_TIMEOUT") as { message: string };
    expect(body.message).not.toContain(payoutBody({ account_number: TIMES_OUT }).account_name);
  });

  it("a verify_account rule `timeout` applies to the next transfer to that account, then the retry with the same reference is made", async () => {
    const { c } = await merchant();
    await c.rule({ target: "verify_account", match: { account_number: PAYOUT_ACCOUNT }, outcome: "timeout", times: 1 });
    const before = await c.balance();
    expectError(await c.payout({ reference: "ne-rule-1" }), 504, "GATEWAY_TIMEOUT");
    expect(await c.balance()).toBe(before);
    expect(await c.rules()).toEqual([]);
    expect((await c.payout({ reference: "ne-rule-1" })).status).toBe(201);
  });

  it("a verify_account rule `not_found` refuses the transfer with 422 INVALID_ACCOUNT, before any debit", async () => {
    const { c } = await merchant();
    await c.rule({ target: "verify_account", match: { account_number: PAYOUT_ACCOUNT }, outcome: "not_found" });
    const before = await c.balance();
    const body = expectError(await c.payout(), 422, "INVALID_ACCOUNT") as { message: string };
    expect(body.message).toContain("The transfer was not sent");
    expect(await c.balance()).toBe(before);
  });

  it("ending 0000 is still the payout accepted and failed at the beneficiary bank", async () => {
    const { c } = await merchant();
    const payout = await c.processingPayout({ account_number: "0123450000", account_name: "ANY NAME AT ALL", reference: "ne-0000" });
    expect(payout.status).toBe("processing");
    await c.advance("30s");
    expect(await c.payoutStatus("ne-0000")).toMatchObject({ status: "failed", error: "Beneficiary account not found" });
  });

  it("a local refusal (below the minimum) consumes no enquiry rule", async () => {
    const { c } = await merchant();
    await c.rule({ target: "verify_account", match: { account_number: PAYOUT_ACCOUNT }, outcome: "timeout", times: 1 });
    expectError(await c.payout({ amount: 0.01 }), 422, "AMOUNT_BELOW_MINIMUM");
    expect(await c.rules()).toHaveLength(1);
  });
});
