import { describe, expect, it } from "vitest";
import { isPlausibleNuban, makeNuban } from "../../src/domain/nuban.js";
import { allocateAccountNumber, createVirtualAccount, identityFor, virtualAccountView, type VirtualAccountRequest } from "../../src/domain/virtual-accounts.js";
import { expectRefusal, individualRequest, makeContext, setup, T0, withAccount } from "./context.js";

const business: VirtualAccountRequest = { customer_type: "business", email: "ops@ada.ng", reference: "biz-1", business_name: "Ada Foods Ltd", cac_number: "RC123456" };

describe("identityFor", () => {
  const merchant = makeContext({ settings: { kyc: { bvn: "11111111111", nin: "22222222222" } } });
  const ninOnly = makeContext({ settings: { kyc: { nin: "22222222222" } } });
  const noKyc = makeContext();

  it("takes the customer's bvn, else nin", () => {
    expect(identityFor(noKyc, individualRequest({ bvn: "33333333333", nin: "44444444444" }))).toEqual({ type: "bvn", value: "33333333333", source: "customer" });
    expect(identityFor(noKyc, individualRequest({ bvn: undefined, nin: "44444444444" }))).toEqual({ type: "nin", value: "44444444444", source: "customer" });
  });

  it("falls back to the merchant's KYC BVN, else its NIN", () => {
    const bare = individualRequest({ bvn: undefined });
    expect(identityFor(merchant, bare)).toEqual({ type: "bvn", value: "11111111111", source: "merchant_kyc" });
    expect(identityFor(ninOnly, bare)).toEqual({ type: "nin", value: "22222222222", source: "merchant_kyc" });
  });

  it("is KYC_REQUIRED with nothing to go on; a business is identified by its CAC number", () => {
    const { state } = setup();
    const err = expectRefusal(state, () => createVirtualAccount(noKyc, state, individualRequest({ bvn: undefined })), "KYC_REQUIRED");
    expect(err.message).toBe("No identification for this customer: send bvn or nin, or complete the merchant's own KYC (BVN or NIN).");
    expect(identityFor(noKyc, business)).toEqual({ type: "cac", value: "RC123456", source: "customer" });
  });
});

describe("createVirtualAccount", () => {
  it("opens a partner-bank NUBAN named after the merchant and customer, claimed sandbox-wide", () => {
    const { ctx, state } = setup();
    const { account, created } = createVirtualAccount(ctx, state, individualRequest());
    expect(created).toBe(true);
    expect(account).toEqual({
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: "Sandbox Merchant-Ada Okafor",
      bank_name: "Partner Bank (Sandbox)",
      customer_type: "individual",
      customer_name: "Ada Okafor",
      customer_email: "ada@example.com",
      reference: "cust-1",
      status: "Enabled",
      identity: { type: "bvn", value: "22222222222", source: "customer" },
      created_at: T0,
    });
    expect(isPlausibleNuban("999", account.account_number)).toBe(true);
    expect(ctx.claimed.has(`account:${account.account_number}`)).toBe(true);
    expect(state.virtualAccountsByReference.get("cust-1")).toBe(account.account_number);
    expect(createVirtualAccount(ctx, state, business).account.account_name).toBe("Sandbox Merchant-Ada Foods Ltd");
  });

  it("the same request again returns the same account and changes nothing", () => {
    const { ctx, state } = setup();
    const first = createVirtualAccount(ctx, state, individualRequest()).account;
    const before = structuredClone(state);
    const again = createVirtualAccount(ctx, state, individualRequest());
    expect(again).toEqual({ account: first, created: false });
    expect(again.account).toBe(first);
    expect(state).toEqual(before);
  });

  it("the same reference for another customer or identity is DUPLICATE_REFERENCE", () => {
    const { ctx, state } = setup();
    createVirtualAccount(ctx, state, individualRequest());
    for (const other of [{ email: "other@example.com" }, { last_name: "Eze" }, { bvn: "99999999999" }, { bvn: undefined, nin: "22222222222" }]) {
      const err = expectRefusal(state, () => createVirtualAccount(ctx, state, individualRequest(other)), "DUPLICATE_REFERENCE");
      expect(err.message).toBe("A virtual account with reference cust-1 already exists for another customer or identity; the identity behind an account cannot be changed.");
    }
    expectRefusal(state, () => createVirtualAccount(ctx, state, { ...business, reference: "cust-1" }), "DUPLICATE_REFERENCE");
  });

  it("allocates around account numbers anyone in the sandbox holds", () => {
    const twin = makeContext();
    const first = makeNuban("999", twin.ids.digits(9));
    const ctx = makeContext();
    ctx.claimed.add(`account:${first}`);
    const number = allocateAccountNumber(ctx);
    expect(number).not.toBe(first);
    expect(ctx.claimed).toEqual(new Set([`account:${first}`, `account:${number}`]));
  });
});

describe("virtual account views", () => {
  it("leave out the identity", () => {
    const { account } = withAccount();
    expect(virtualAccountView(account)).not.toHaveProperty("identity");
    expect(virtualAccountView(account).created_at).toBe("2026-01-05T09:00:00.000Z");
  });
});
