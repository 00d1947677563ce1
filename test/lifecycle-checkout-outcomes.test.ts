/**
 * Lifecycles on the manual clock: the checkout pay lever, outcome rules (payout and verify_account),
 * and reset. Every time is sim time moved through POST /sandbox/v1/clock/advance.
 */
import { describe, expect, it } from "vitest";
import { balanceOf, expectError, expectLedgerConsistent, harness, makeNuban, START, type Merchant } from "./helpers.js";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const at = (ms: number) => new Date(START + ms).toISOString();

const GTB = "058";
const ACCOUNT = makeNuban(GTB, "012345678");
const OTHER_ACCOUNT = makeNuban(GTB, "087654321");

const advance = async (m: Merchant, seconds: number) => {
  const res = await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { now: string; fired: number; pending_timers: number };
};

const ledgerOf = async (m: Merchant): Promise<any[]> => {
  const res = await m.call("GET", "/sandbox/v1/wallet/ledger");
  expect(res.status).toBe(200);
  return res.body.data;
};

// ---- Checkout ------------------------------------------------------------------------------

const createLink = async (m: Merchant, body: Record<string, unknown> = { amount: 2500.5, description: "Order 1042" }) => {
  const res = await m.call("POST", "/api/v1/checkout/create", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { reference: string; order_no: string; expires_at: string };
};
const linkStatus = (m: Merchant, reference: string) =>
  m.call("GET", `/api/v1/checkout/status?reference=${encodeURIComponent(reference)}`);
const payLink = (m: Merchant, reference: string, body?: unknown) =>
  m.call("POST", `/sandbox/v1/checkout/${encodeURIComponent(reference)}/pay`, body === undefined ? {} : { body });

/** The link's status lookup says `status`, and the wallet and ledger are exactly as given. */
async function expectLinkUnpaid(m: Merchant, reference: string, status: "pending" | "expired", balance: number, ledgerLength: number) {
  const res = await linkStatus(m, reference);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ reference, status, paid_at: null });
  expect(await balanceOf(m)).toBe(balance);
  expect(m.tenant.state.ledger.length).toBe(ledgerLength);
  expect(m.tenant.state.ledger.some((e) => e.kind === "checkout_payment")).toBe(false);
  expectLedgerConsistent(m.tenant);
}

describe("POST /sandbox/v1/checkout/{reference}/pay", () => {
  it("pays a pending link for its exact amount (no body): 200 with the paid record, wallet credited by a checkout_payment entry", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000, business_name: "Zenith Foods" });
    await advance(m, 5 * 60);
    const link = await createLink(m);
    await advance(m, 10 * 60);
    const res = await payLink(m, link.reference);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual({
      reference: link.reference,
      transaction_id: link.order_no,
      order_no: link.order_no,
      status: "paid",
      amount: 2500.5,
      currency: "NGN",
      description: "Order 1042",
      customer_email: null,
      customer_name: null,
      redirect_url: null,
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: "Zenith Foods Checkout",
      bank_name: expect.any(String),
      created_at: at(5 * MINUTE),
      expires_at: at(35 * MINUTE),
      paid_at: at(15 * MINUTE),
    });

    expect(await balanceOf(m)).toBe(12_500.5);
    const ledger = await ledgerOf(m);
    expect(ledger).toHaveLength(2);
    expect(ledger[1]).toMatchObject({
      kind: "checkout_payment",
      type: "credit",
      amount: 2500.5,
      balance_after: 12_500.5,
      transaction_id: link.order_no,
      created_at: at(15 * MINUTE),
    });
    expect(m.tenant.state.ledger.at(-1)).toMatchObject({ kind: "checkout_payment", amount: 250_050, transaction_id: link.order_no });
    expectLedgerConsistent(m.tenant);

    const status = await linkStatus(m, link.reference);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ ...res.body.data, status: "paid", paid_at: at(15 * MINUTE) });
  });

  it("accepts an explicit exact amount and an empty body", async () => {
    const m = await harness().merchant({ wallet_balance: 0 });
    const a = await createLink(m, { amount: 1000 });
    const b = await createLink(m, { amount: 750.25 });
    const paidA = await payLink(m, a.reference, { amount: 1000 });
    expect(paidA.status, JSON.stringify(paidA.body)).toBe(200);
    expect(paidA.body.data).toMatchObject({ status: "paid", amount: 1000, paid_at: at(0) });
    const paidB = await payLink(m, b.reference, {});
    expect(paidB.status, JSON.stringify(paidB.body)).toBe(200);
    expect(paidB.body.data).toMatchObject({ status: "paid", amount: 750.25, paid_at: at(0) });
    expect(await balanceOf(m)).toBe(1750.25);
    expect(m.tenant.state.ledger.map((e) => [e.kind, e.amount, e.transaction_id])).toEqual([
      ["checkout_payment", 100_000, a.order_no],
      ["checkout_payment", 75_025, b.order_no],
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it("pays at 29m59s after creation, with paid_at at that sim time", async () => {
    const m = await harness().merchant({ wallet_balance: 0 });
    const link = await createLink(m, { amount: 1000 });
    await advance(m, 29 * 60 + 59);
    const res = await payLink(m, link.reference);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "paid", paid_at: at(29 * MINUTE + 59 * SECOND), expires_at: at(30 * MINUTE) });
    expect(await balanceOf(m)).toBe(1000);
    expectLedgerConsistent(m.tenant);
  });

  it("refuses a link at exactly 30m00s: it is expired, 409 INVALID_STATE saying so, nothing credited", async () => {
    const m = await harness().merchant({ wallet_balance: 500 });
    const link = await createLink(m, { amount: 1000 });
    await advance(m, 30 * 60);
    await expectLinkUnpaid(m, link.reference, "expired", 500, 1);
    const err = expectError(await payLink(m, link.reference), 409, "INVALID_STATE");
    expect(err.message).toMatch(/expired/i);
    const explicit = expectError(await payLink(m, link.reference, { amount: 1000 }), 409, "INVALID_STATE");
    expect(explicit.message).toMatch(/expired/i);
    await expectLinkUnpaid(m, link.reference, "expired", 500, 1);
    // Still expired, still refused, long after.
    await advance(m, 86_400);
    expectError(await payLink(m, link.reference), 409, "INVALID_STATE");
    await expectLinkUnpaid(m, link.reference, "expired", 500, 1);
  });

  it("refuses a second payment of a paid link with 409 INVALID_STATE naming paid, crediting once", async () => {
    const m = await harness().merchant({ wallet_balance: 0 });
    const link = await createLink(m, { amount: 1000 });
    await advance(m, 60);
    expect((await payLink(m, link.reference)).status).toBe(200);
    await advance(m, 60);
    const err = expectError(await payLink(m, link.reference), 409, "INVALID_STATE");
    expect(err.message).toMatch(/paid/);
    expectError(await payLink(m, link.reference, { amount: 1000 }), 409, "INVALID_STATE");
    expect(await balanceOf(m)).toBe(1000);
    expect(m.tenant.state.ledger).toHaveLength(1);
    const status = await linkStatus(m, link.reference);
    expect(status.body.data).toMatchObject({ status: "paid", paid_at: at(1 * MINUTE) });
    expectLedgerConsistent(m.tenant);
  });

  it.each([
    ["one kobo less", 2500.49],
    ["one kobo more", 2500.51],
    ["double", 5001],
  ])("refuses a wrong amount (%s) with 422 AMOUNT_MISMATCH; the link stays pending and the exact amount still pays", async (_, wrong) => {
    const m = await harness().merchant({ wallet_balance: 200 });
    const link = await createLink(m);
    await advance(m, 120);
    const err = expectError(await payLink(m, link.reference, { amount: wrong }), 422, "AMOUNT_MISMATCH");
    expect(err.message).toContain("2500.50");
    await expectLinkUnpaid(m, link.reference, "pending", 200, 1);
    await advance(m, 60);
    const ok = await payLink(m, link.reference, { amount: 2500.5 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ status: "paid", paid_at: at(3 * MINUTE) });
    expect(await balanceOf(m)).toBe(2700.5);
    expect(m.tenant.state.ledger).toHaveLength(2);
    expectLedgerConsistent(m.tenant);
  });

  it("keeps a paid link paid after the clock passes expires_at", async () => {
    const m = await harness().merchant({ wallet_balance: 0 });
    const link = await createLink(m, { amount: 1000 });
    await advance(m, 20 * 60);
    expect((await payLink(m, link.reference)).status).toBe(200);
    await advance(m, 2 * 3600);
    const status = await linkStatus(m, link.reference);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: "paid", paid_at: at(20 * MINUTE), expires_at: at(30 * MINUTE) });
    expect(await balanceOf(m)).toBe(1000);
    expectLedgerConsistent(m.tenant);
  });

  it("answers 404 NOT_FOUND for an unknown reference", async () => {
    const m = await harness().merchant({ wallet_balance: 0 });
    const link = await createLink(m, { amount: 1000 });
    expectError(await payLink(m, "CHK_DOESNOTEXIST00"), 404, "NOT_FOUND");
    await expectLinkUnpaid(m, link.reference, "pending", 0, 0);
  });

  it("does not let another merchant pay this merchant's link (404); neither wallet moves", async () => {
    const h = harness();
    const a = await h.merchant({ wallet_balance: 100 });
    const b = await h.merchant({ wallet_balance: 300 });
    const link = await createLink(a, { amount: 1000 });
    expectError(await payLink(b, link.reference), 404, "NOT_FOUND");
    expectError(await payLink(b, link.reference, { amount: 1000 }), 404, "NOT_FOUND");
    await expectLinkUnpaid(a, link.reference, "pending", 100, 1);
    expect(await balanceOf(b)).toBe(300);
    expect(b.tenant.state.ledger).toHaveLength(1);
    expectLedgerConsistent(b.tenant);
    // The owner still can.
    expect((await payLink(a, link.reference)).status).toBe(200);
    expect(await balanceOf(a)).toBe(1100);
    expectLedgerConsistent(a.tenant);
  });
});

// ---- Outcome rules -------------------------------------------------------------------------

const addRule = (m: Merchant, body: unknown) => m.call("POST", "/sandbox/v1/outcomes", { body });
const rulesOf = async (m: Merchant): Promise<any[]> => {
  const res = await m.call("GET", "/sandbox/v1/outcomes");
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
};
async function ruleOk(m: Merchant, body: Record<string, unknown>) {
  const res = await addRule(m, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

const transfer = (overrides: Record<string, unknown> = {}) => ({
  amount: 5_000,
  bank_code: GTB,
  account_number: ACCOUNT,
  account_name: "OKAFOR ADAEZE",
  bank_name: "Guaranty Trust Bank",
  narration: "Invoice 42",
  ...overrides,
});
async function payout(m: Merchant, overrides: Record<string, unknown>) {
  const res = await m.call("POST", "/api/v1/payout/transfer", { body: transfer(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data.status).toBe("processing");
  return res.body.data;
}
const payoutStatus = (m: Merchant, reference: string) =>
  m.call("GET", `/api/v1/payout/status?reference=${encodeURIComponent(reference)}`);

describe("outcome rules API", () => {
  it("POST answers 201 with the rule; unset match, delay_seconds and times are null; created_at is sim time", async () => {
    const m = await harness().merchant();
    await advance(m, 90);
    const res = await addRule(m, { target: "payout", outcome: "failed" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(String),
        target: "payout",
        match: null,
        outcome: "failed",
        delay_seconds: null,
        times: null,
        created_at: at(90 * SECOND),
      },
    });
    expect(res.body.data.id.length).toBeGreaterThan(0);
  });

  it("POST keeps match, delay_seconds and times when given; each rule gets its own id", async () => {
    const m = await harness().merchant();
    const first = await ruleOk(m, { target: "payout", outcome: "processing" });
    await advance(m, 30);
    const second = await ruleOk(m, {
      target: "vtu",
      match: { phone: "08031234567", network: "MTN" },
      outcome: "processing_fail",
      delay_seconds: 120,
      times: 3,
    });
    expect(second).toEqual({
      id: expect.any(String),
      target: "vtu",
      match: { phone: "08031234567", network: "MTN" },
      outcome: "processing_fail",
      delay_seconds: 120,
      times: 3,
      created_at: at(30 * SECOND),
    });
    expect(second.id).not.toBe(first.id);
  });

  it.each([
    ["payout", "success"],
    ["vtu", "completed"],
    ["kyc", "failed"],
    ["verify_account", "found"],
    ["card_fund", "success"],
  ])("refuses target %s with outcome %s: 422 VALIDATION_ERROR naming outcome, nothing stored", async (target, outcome) => {
    const m = await harness().merchant();
    const err = expectError(await addRule(m, { target, outcome }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["outcome"]);
    expect(await rulesOf(m)).toEqual([]);
  });

  it("refuses an unknown target: 422 VALIDATION_ERROR naming target, nothing stored", async () => {
    const m = await harness().merchant();
    const err = expectError(await addRule(m, { target: "refund", outcome: "failed" }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["target"]);
    expect(await rulesOf(m)).toEqual([]);
  });

  it("GET lists the merchant's own rules, oldest first, not another merchant's", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const r1 = await ruleOk(a, { target: "payout", outcome: "failed" });
    await advance(a, 10);
    const rb = await ruleOk(b, { target: "kyc", outcome: "pending" });
    const r2 = await ruleOk(a, { target: "verify_account", outcome: "not_found", match: { account_number: ACCOUNT } });
    await advance(a, 10);
    const r3 = await ruleOk(a, { target: "vtu", outcome: "success", times: 1 });
    expect(await rulesOf(a)).toEqual([r1, r2, r3]);
    expect((await rulesOf(a)).map((r) => r.created_at)).toEqual([at(0), at(10 * SECOND), at(20 * SECOND)]);
    expect(await rulesOf(b)).toEqual([rb]);
  });

  it("DELETE /outcomes/{id} removes one rule, then 404 for the same id; another merchant cannot delete it", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const r1 = await ruleOk(a, { target: "payout", outcome: "failed" });
    const r2 = await ruleOk(a, { target: "payout", outcome: "processing" });
    const r3 = await ruleOk(a, { target: "kyc", outcome: "pending" });
    const rb = await ruleOk(b, { target: "card_fund", outcome: "failed" });
    // B has only one rule; deleting A's third through B's keys finds nothing.
    expect(r3.id).not.toBe(rb.id);
    expectError(await b.call("DELETE", `/sandbox/v1/outcomes/${r3.id}`), 404, "NOT_FOUND");
    expect(await rulesOf(a)).toEqual([r1, r2, r3]);

    const del = await a.call("DELETE", `/sandbox/v1/outcomes/${r2.id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.success).toBe(true);
    expect(await rulesOf(a)).toEqual([r1, r3]);
    expectError(await a.call("DELETE", `/sandbox/v1/outcomes/${r2.id}`), 404, "NOT_FOUND");
    expect(await rulesOf(a)).toEqual([r1, r3]);
    expect(await rulesOf(b)).toEqual([rb]);
  });

  it("DELETE /outcomes removes all of the merchant's rules and only theirs", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    await ruleOk(a, { target: "payout", outcome: "failed" });
    await ruleOk(a, { target: "vtu", outcome: "fail" });
    const rb = await ruleOk(b, { target: "payout", outcome: "completed" });
    const res = await a.call("DELETE", "/sandbox/v1/outcomes");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await rulesOf(a)).toEqual([]);
    expect(await rulesOf(b)).toEqual([rb]);
    // Deleting all of nothing is fine too.
    expect((await a.call("DELETE", "/sandbox/v1/outcomes")).status).toBe(200);
  });

  it("a payout rule with times: 2 is consumed by two matching payouts, then disappears; others settle by default", async () => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const rule = await ruleOk(m, { target: "payout", match: { account_number: ACCOUNT }, outcome: "failed", times: 2 });

    // A payout that does not match leaves the rule untouched.
    const other = await payout(m, { reference: "other-1", account_number: OTHER_ACCOUNT });
    expect(await rulesOf(m)).toEqual([rule]);

    const first = await payout(m, { reference: "match-1" });
    expect(await rulesOf(m)).toEqual([{ ...rule, times: 1 }]);
    const second = await payout(m, { reference: "match-2" });
    expect(await rulesOf(m)).toEqual([]);
    const third = await payout(m, { reference: "match-3" });
    expect(await balanceOf(m)).toBe(100_000 - 4 * 5_050);

    const moved = await advance(m, 3600);
    expect(moved.fired).toBe(4);
    const view = async (ref: string) => {
      const res = await payoutStatus(m, ref);
      expect(res.status).toBe(200);
      return res.body.data;
    };
    expect(await view(other.reference)).toMatchObject({ status: "completed", processed_at: at(30 * SECOND), error: null });
    expect(await view(first.reference)).toMatchObject({ status: "failed", processed_at: at(30 * SECOND), error: expect.any(String) });
    expect((await view(first.reference)).error.length).toBeGreaterThan(0);
    expect(await view(second.reference)).toMatchObject({ status: "failed", processed_at: at(30 * SECOND) });
    expect(await view(third.reference)).toMatchObject({ status: "completed", processed_at: at(30 * SECOND), error: null });
    // Two completed payouts stay debited, the two failed ones are returned in full.
    expect(await balanceOf(m)).toBe(100_000 - 2 * 5_050);
    const reversals = m.tenant.state.ledger.filter((e) => e.kind === "payout_reversal");
    expect(reversals.map((e) => [e.amount, e.transaction_id])).toEqual([
      [505_000, first.order_no],
      [505_000, second.order_no],
    ]);
    expectLedgerConsistent(m.tenant);
  });
});

// ---- verify_account ------------------------------------------------------------------------

const verify = (m: Merchant, account_number: string, bank_code = GTB) =>
  m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code, account_number } });

describe("verify_account outcomes", () => {
  it("a not_found rule for account X makes X answer 422 INVALID_ACCOUNT while other accounts verify", async () => {
    const h = harness();
    const m = await h.merchant();
    const other = await h.merchant();
    expect((await verify(m, ACCOUNT)).status).toBe(200);
    await ruleOk(m, { target: "verify_account", outcome: "not_found", match: { account_number: ACCOUNT } });
    expectError(await verify(m, ACCOUNT), 422, "INVALID_ACCOUNT");
    // Without times the rule stays until deleted.
    expectError(await verify(m, ACCOUNT), 422, "INVALID_ACCOUNT");
    const ok = await verify(m, OTHER_ACCOUNT);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ account_number: OTHER_ACCOUNT, bank_code: GTB });
    // Rules belong to one merchant.
    expect((await verify(other, ACCOUNT)).status).toBe(200);
    // Deleting the rule lets X verify again.
    expect((await m.call("DELETE", "/sandbox/v1/outcomes")).status).toBe(200);
    const again = await verify(m, ACCOUNT);
    expect(again.status).toBe(200);
    expect(again.body.data.account_number).toBe(ACCOUNT);
  });

  it("the magic account number ending 0000 never verifies, while the magic 0001 skips the check digit and verifies", async () => {
    const m = await harness().merchant();
    // Neither is a valid NUBAN at GTB: only the magic suffix decides.
    expect(makeNuban(GTB, "012345000")).not.toBe("0123450000");
    expect(makeNuban(GTB, "012345000")).not.toBe("0123450001");
    expectError(await verify(m, "0123450000"), 422, "INVALID_ACCOUNT");
    expectError(await verify(m, "0123450000"), 422, "INVALID_ACCOUNT");
    const magicOk = await verify(m, "0123450001");
    expect(magicOk.status, JSON.stringify(magicOk.body)).toBe(200);
    expect(magicOk.body.data).toMatchObject({ account_number: "0123450001", bank_code: GTB });
  });
});

// ---- Reset ---------------------------------------------------------------------------------

const reset = (m: Merchant, body?: unknown) => m.call("POST", "/sandbox/v1/reset", body === undefined ? {} : { body });
const clockOf = async (m: Merchant) => {
  const res = await m.call("GET", "/sandbox/v1/clock");
  expect(res.status).toBe(200);
  return res.body.data;
};
const merchantOf = async (m: Merchant) => {
  const res = await m.call("GET", "/sandbox/v1/merchant");
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Gives the merchant one of everything: a virtual account with a payment, a payment link, a pending payout, a funded card, rules. */
async function populate(m: Merchant) {
  const va = await m.call("POST", "/api/v1/virtual-account/create", {
    body: {
      customer_type: "individual",
      email: "ada.obi@example.com",
      reference: "CUST-001",
      bank: "partnerbank",
      first_name: "Ada",
      last_name: "Obi",
      bvn: "22345678901",
    },
  });
  expect(va.status, JSON.stringify(va.body)).toBe(200);
  const accountNumber = va.body.data.account_number as string;
  const credit = await m.call("POST", `/sandbox/v1/virtual-accounts/${accountNumber}/transfers`, { body: { amount: 2_000, narration: "rent-march" } });
  expect(credit.status, JSON.stringify(credit.body)).toBe(201);

  const link = await createLink(m, { amount: 1_500 });

  const holder = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
  expect(holder.status, JSON.stringify(holder.body)).toBe(200);
  const holderId = holder.body.cardholder_id as number;
  expect((await m.call("POST", `/sandbox/v1/cardholders/${holderId}/approve`)).status).toBe(200);
  const card = await m.call("POST", "/api/v1/virtual-cards", { body: { cardholder_id: holderId } });
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  const cardId = card.body.card_id as number;
  expect((await m.call("POST", `/api/v1/virtual-cards/${cardId}/fund`, { body: { amount: 10 } })).status).toBe(200);

  // A second cardholder still waiting for KYC: a pending timer.
  const waiting = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Bola", last_name: "Ade", email: "bola@example.com" } });
  expect(waiting.status).toBe(200);

  await ruleOk(m, { target: "vtu", outcome: "fail" });
  await ruleOk(m, { target: "kyc", outcome: "approved", delay_seconds: 600 });

  const po = await payout(m, { reference: "before-reset" });
  expectLedgerConsistent(m.tenant);
  return { accountNumber, link, holderId, cardId, payout: po };
}

describe("POST /sandbox/v1/reset", () => {
  it("empties the merchant's state and keeps keys, config and the clock", async () => {
    const m = await harness().merchant({
      wallet_balance: 50_000,
      business_name: "Zenith Foods",
      limits: { payout_max: 20_000 },
    });
    await advance(m, 5);
    const made = await populate(m);
    await advance(m, 10);
    const configBefore = await merchantOf(m);
    const clockBefore = await clockOf(m);
    expect(clockBefore.now).toBe(at(15 * SECOND));
    expect(clockBefore.pending_timers).toBeGreaterThanOrEqual(2);
    expect(await balanceOf(m)).toBeGreaterThan(0);

    const res = await reset(m);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...configBefore, wallet_balance: 0 } });

    // The same keys still work, and nothing of the old state is left.
    expect(await balanceOf(m)).toBe(0);
    expect(await ledgerOf(m)).toEqual([]);
    const vas = await m.call("GET", "/api/v1/virtual-accounts");
    expect(vas.status).toBe(200);
    expect(vas.body.data).toEqual([]);
    expectError(await m.call("GET", `/api/v1/virtual-account/${made.accountNumber}`), 404, "NOT_FOUND");
    expectError(await m.call("GET", "/api/v1/transaction/status?reference=rent-march"), 404, "NOT_FOUND");
    expectError(await linkStatus(m, made.link.reference), 404, "NOT_FOUND");
    expectError(await payoutStatus(m, made.payout.reference), 404, "NOT_FOUND");
    const cards = await m.call("GET", "/api/v1/virtual-cards");
    expect(cards.status).toBe(200);
    expect(cards.body.data).toEqual([]);
    expectError(await m.call("GET", `/api/v1/virtual-cards/${made.cardId}`), 404, "NOT_FOUND");
    expectError(await m.call("GET", `/api/v1/virtual-cards/cardholders/${made.holderId}`), 404, "NOT_FOUND");
    expect(await rulesOf(m)).toEqual([]);

    // The clock is where it was, with nothing pending.
    expect(await clockOf(m)).toEqual({ ...clockBefore, now: at(15 * SECOND), pending_timers: 0 });
    // Config unchanged.
    expect(await merchantOf(m)).toEqual({ ...configBefore, wallet_balance: 0 });
    expectLedgerConsistent(m.tenant);
  });

  it("keeps config working after reset: business name, limits, and a fresh payout settles on time", async () => {
    const m = await harness().merchant({ wallet_balance: 50_000, business_name: "Zenith Foods", limits: { payout_max: 20_000 } });
    await populate(m);
    await advance(m, 100);
    expect((await reset(m, { wallet_balance: 100_000 })).status).toBe(200);

    const link = await createLink(m, { amount: 100 });
    expect((await linkStatus(m, link.reference)).body.data).toMatchObject({ account_name: "Zenith Foods Checkout", created_at: at(100 * SECOND) });
    const before = m.tenant.state.ledger.length;
    expectError(
      await m.call("POST", "/api/v1/payout/transfer", { body: transfer({ amount: 20_000.01 }) }),
      422,
      "AMOUNT_ABOVE_MAXIMUM",
    );
    expect(m.tenant.state.ledger.length).toBe(before);
    expect(await balanceOf(m)).toBe(100_000);
    // The old reference is free again, and the new payout settles after the configured delay.
    const po = await payout(m, { reference: "before-reset", amount: 20_000 });
    await advance(m, 3600);
    const status = await payoutStatus(m, po.reference);
    expect(status.body.data).toMatchObject({ status: "completed", created_at: at(100 * SECOND), processed_at: at(130 * SECOND) });
    expect(await balanceOf(m)).toBe(100_000 - 20_200);
    expectLedgerConsistent(m.tenant);
  });

  it("with { wallet_balance: 5000 } leaves a balance of 5000 as the only ledger entry", async () => {
    const m = await harness().merchant({ wallet_balance: 80_000 });
    await populate(m);
    const res = await reset(m, { wallet_balance: 5000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.wallet_balance).toBe(5000);
    expect(await balanceOf(m)).toBe(5000);
    const ledger = await ledgerOf(m);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ type: "credit", amount: 5000, balance_after: 5000, created_at: at(0) });
    expect((await clockOf(m)).pending_timers).toBe(0);
    expectLedgerConsistent(m.tenant);
  });

  it("a payout due to settle before the reset never settles afterwards", async () => {
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const po = await payout(m, { reference: "due-soon" });
    await advance(m, 10);
    expect((await clockOf(m)).pending_timers).toBe(1);
    expect((await reset(m, { wallet_balance: 5000 })).status).toBe(200);
    const moved = await advance(m, 3600);
    expect(moved).toMatchObject({ fired: 0, pending_timers: 0, now: at(3610 * SECOND) });
    expectError(await payoutStatus(m, po.reference), 404, "NOT_FOUND");
    expect(await balanceOf(m)).toBe(5000);
    expect(m.tenant.state.ledger).toHaveLength(1);
    expect(m.tenant.state.ledger.some((e) => e.kind === "payout_reversal" || e.kind === "payout")).toBe(false);
    expectLedgerConsistent(m.tenant);
  });

  it("resetting merchant A leaves merchant B unchanged, B's payout still settling on time", async () => {
    const h = harness();
    const a = await h.merchant({ wallet_balance: 50_000 });
    const b = await h.merchant({ wallet_balance: 70_000 });
    await populate(a);
    const made = await populate(b);
    const bConfig = await merchantOf(b);
    const bRules = await rulesOf(b);
    const bLedger = await ledgerOf(b);
    const bClock = await clockOf(b);
    const bBalance = await balanceOf(b);

    expect((await reset(a)).status).toBe(200);
    expect(await balanceOf(a)).toBe(0);

    expect(await merchantOf(b)).toEqual(bConfig);
    expect(await rulesOf(b)).toEqual(bRules);
    expect(await ledgerOf(b)).toEqual(bLedger);
    expect(await clockOf(b)).toEqual(bClock);
    expect(await balanceOf(b)).toBe(bBalance);
    expect((await b.call("GET", "/api/v1/virtual-accounts")).body.data).toHaveLength(1);
    expect((await linkStatus(b, made.link.reference)).status).toBe(200);
    expect((await b.call("GET", `/api/v1/virtual-cards/${made.cardId}`)).status).toBe(200);

    await advance(b, 3600);
    const status = await payoutStatus(b, made.payout.reference);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: "completed", processed_at: at(30 * SECOND) });
    expect(await balanceOf(b)).toBe(bBalance);
    expectLedgerConsistent(b.tenant);
    expectLedgerConsistent(a.tenant);
  });
});
