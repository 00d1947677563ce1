/**
 * One bad account number, two error codes. `0123456789` at bank 058 (a wrong
 * NUBAN check digit) got INVALID_ACCOUNT from verify-account but VALIDATION_ERROR on
 * `errors.account_number` from transfer. Now one input gets one code, whichever endpoint sees it.
 */
import { describe, expect, it } from "vitest";
import { expectError, harness } from "../helpers.js";

const BAD = { bank_code: "058", account_number: "0123456789" };

describe("a NUBAN with a wrong check digit", () => {
  it("is INVALID_ACCOUNT from verify-account and from transfer alike, with no money moved", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const verify = expectError(await m.call("POST", "/api/v1/payout/verify-account", { body: BAD }), 422, "INVALID_ACCOUNT");
    const transfer = expectError(
      await m.call("POST", "/api/v1/payout/transfer", { body: { ...BAD, amount: 100, account_name: "ADA OBI", bank_name: "Guaranty Trust Bank" } }),
      422,
      "INVALID_ACCOUNT",
    );
    expect(transfer.errors).toBeUndefined();
    expect(transfer.message).toBe(verify.message);
    expect((await m.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(10_000);
  });

  it("while a malformed number (not 10 digits) is a VALIDATION_ERROR on account_number at both", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const short = { bank_code: "058", account_number: "12345" };
    for (const [path, body] of [
      ["/api/v1/payout/verify-account", short],
      ["/api/v1/payout/transfer", { ...short, amount: 100, account_name: "ADA OBI", bank_name: "Guaranty Trust Bank" }],
    ] as const) {
      const refused = expectError(await m.call("POST", path, { body }), 422, "VALIDATION_ERROR");
      expect(Object.keys(refused.errors ?? {})).toEqual(["account_number"]);
    }
  });
});
