import { describe, expect, it } from "vitest";
import { bankList, verifyAccount } from "../../src/domain/name-enquiry.js";
import { accountHolderName } from "../../src/domain/names.js";
import { addRule } from "../../src/domain/outcomes.js";
import { expectRefusal, fieldsOf, GTB_ACCOUNT, setup } from "./context.js";

describe("bankList", () => {
  it("lists the catalogue's banks by code and name", () => {
    const { ctx } = setup();
    const banks = bankList(ctx);
    expect(banks).toHaveLength(ctx.catalog.banks.length);
    expect(banks).toContainEqual({ bank_code: "058", bank_name: ctx.catalog.bankByCode.get("058")!.bank_name });
    expect(Object.keys(banks[0]!)).toEqual(["bank_code", "bank_name"]);
  });
});

describe("verifyAccount", () => {
  it("resolves a valid NUBAN to its deterministic holder", () => {
    const { ctx, state } = setup();
    expect(verifyAccount(ctx, state, "058", GTB_ACCOUNT)).toEqual({ account_number: GTB_ACCOUNT, account_name: accountHolderName("058", GTB_ACCOUNT), bank_code: "058" });
  });

  it("refuses an unknown bank code as a field error", () => {
    const { ctx, state } = setup();
    expect(fieldsOf(expectRefusal(state, () => verifyAccount(ctx, state, "123", GTB_ACCOUNT), "VALIDATION_ERROR"))).toEqual({
      bank_code: ["Unknown bank_code: use a code from GET /api/v1/payout/banks."],
    });
  });

  it("a bad check digit, a magic 0000 account and a not_found rule are INVALID_ACCOUNT; other magic accounts resolve", () => {
    const { ctx, state } = setup();
    expect(expectRefusal(state, () => verifyAccount(ctx, state, "058", "0000000019"), "INVALID_ACCOUNT").message).toBe("Account 0000000019 could not be resolved at bank 058.");
    expectRefusal(state, () => verifyAccount(ctx, state, "058", "1234560000"), "INVALID_ACCOUNT");
    expect(verifyAccount(ctx, state, "058", "1234560001").account_name).toBe(accountHolderName("058", "1234560001"));
    addRule(ctx, state, { target: "verify_account", match: { bank_code: "058" }, outcome: "not_found", times: 1 });
    expect(() => verifyAccount(ctx, state, "058", GTB_ACCOUNT)).toThrow("could not be resolved");
    expect(state.outcomeRules).toEqual([]);
    expect(verifyAccount(ctx, state, "058", GTB_ACCOUNT).account_number).toBe(GTB_ACCOUNT);
  });
});
