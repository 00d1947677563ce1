/**
 * Lifecycles on the manual clock (issue 3): VTU purchases that settle later (magic phones and
 * meters, the merchant's vtu_settlement_seconds, outcome rules), the VTU succeed/fail levers, KYC
 * approval of cardholders (delay, `pending+` emails, rules, the approve lever), simulated card
 * spends (success and declines) and card funding failures (rules and the 13.13 USD magic amount).
 */
import { describe, expect, it } from "vitest";
import { balanceOf, expectError, expectLedgerConsistent, harness, START, type Merchant, type Reply } from "./helpers.js";

const TOKEN_FORMAT = /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/;
const CARDS = "/api/v1/virtual-cards";
const HOLDERS = `${CARDS}/cardholders`;

const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();

async function advance(m: Merchant, body: Record<string, unknown>) {
  const res = await m.call("POST", "/sandbox/v1/clock/advance", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { now: string; fired: number; pending_timers: number };
}

const advanceSeconds = (m: Merchant, seconds: number) => advance(m, { seconds });

async function clock(m: Merchant) {
  const res = await m.call("GET", "/sandbox/v1/clock");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { now: string; mode: string; speed: number; pending_timers: number };
}

async function rule(m: Merchant, body: Record<string, unknown>) {
  const res = await m.call("POST", "/sandbox/v1/outcomes", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string };
}

function expectPurchase(res: Reply, status: "success" | "processing" | "fail", amount: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data).toBeUndefined();
  expect(res.body).toMatchObject({ success: status !== "fail", status, amount });
  expect(typeof res.body.reference).toBe("string");
  expect(typeof res.body.transaction_id).toBe("string");
  return res.body as { reference: string; transaction_id: string; token: string | null; pins?: unknown };
}

async function airtime(m: Merchant, phone: string, amount = 100) {
  return m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone, amount } });
}

async function data(m: Merchant, phone: string) {
  return m.call("POST", "/api/v1/vtu/data", { body: { phone, data_plan_id: 102 } });
}

/** Airtime of 100 or the 225 Naira MTN 1GB plan. */
const PRODUCTS = [
  ["airtime", 100, airtime],
  ["data", 225, (m: Merchant, phone: string) => data(m, phone)],
] as const;

async function vtuStatus(m: Merchant, reference: string) {
  const res = await m.call("GET", `/api/v1/vtu/transaction/status?reference=${encodeURIComponent(reference)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Ledger entries of one transaction, with their sim time as ISO. */
function entriesOf(m: Merchant, transactionId: string) {
  return m.tenant.state.ledger
    .filter((e) => e.transaction_id === transactionId)
    .map((e) => ({ kind: e.kind, amount: e.amount, at: new Date(e.at).toISOString() }));
}

// ---- 1. VTU processing settlement ------------------------------------------------------------

describe("VTU processing settlement on the merchant's clock", () => {
  it.each(PRODUCTS)("%s to 08022222222: processing, still Processing at 59 s, Success at 60 s with the wallet still debited", async (service, price, buy) => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await buy(m, "08022222222"), "processing", price);
    expect(p.token).toBeNull();
    expect(await balanceOf(m)).toBe(10_000 - price);
    expect((await clock(m)).pending_timers).toBe(1);

    expect(await vtuStatus(m, p.reference)).toMatchObject({
      success: true,
      reference: p.reference,
      type: "debit",
      service,
      status: "Processing",
      amount: price,
      date: at(0),
      token: null,
      transaction_id: p.transaction_id,
    });

    const first = await advanceSeconds(m, 59);
    expect(first).toMatchObject({ now: at(59), fired: 0, pending_timers: 1 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");

    const second = await advanceSeconds(m, 1);
    expect(second).toMatchObject({ now: at(60), fired: 1, pending_timers: 0 });
    const settled = await vtuStatus(m, p.reference);
    expect(settled).toMatchObject({ status: "Success", amount: price, date: at(0), token: null, transaction_id: p.transaction_id });
    expect(m.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 60_000);
    expect(await balanceOf(m)).toBe(10_000 - price);
    expect(entriesOf(m, p.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -price * 100, at: at(0) }]);
    expectLedgerConsistent(m.tenant);
  });

  it.each(PRODUCTS)("%s to 08033333333: processing, then Failed at START+60s and refunded, even when the clock jumps 1 hour", async (_service, price, buy) => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await buy(m, "08033333333"), "processing", price);
    expect(await balanceOf(m)).toBe(10_000 - price);
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");

    expect(await advanceSeconds(m, 59)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");
    expect(await balanceOf(m)).toBe(10_000 - price);

    expect(await advance(m, { by: "1h" })).toMatchObject({ now: at(59 + 3600), fired: 1, pending_timers: 0 });
    expect(await vtuStatus(m, p.reference)).toMatchObject({ status: "Failed", amount: price, token: null, transaction_id: p.transaction_id });
    expect(await balanceOf(m)).toBe(10_000);
    expect(entriesOf(m, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -price * 100, at: at(0) },
      { kind: "vtu_refund", amount: price * 100, at: at(60) },
    ]);
    expect(m.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 60_000);
    expectLedgerConsistent(m.tenant);
  });

  it("08055555555 stays Processing after 1 day (no timer) until POST /sandbox/v1/vtu/{ref}/succeed", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await airtime(m, "08055555555", 500), "processing", 500);
    expect((await clock(m)).pending_timers).toBe(0);

    expect(await advance(m, { by: "1d" })).toMatchObject({ now: at(86_400), fired: 0, pending_timers: 0 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");
    expect(await balanceOf(m)).toBe(9_500);

    const res = await m.call("POST", `/sandbox/v1/vtu/${p.reference}/succeed`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, reference: p.reference, status: "Success", amount: 500 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Success");
    expect(m.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 86_400_000);
    expect(await balanceOf(m)).toBe(9_500);
    expectLedgerConsistent(m.tenant);
  });

  it("08055555555 stays Processing after 1 day until POST /sandbox/v1/vtu/{ref}/fail, which refunds at that moment", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await data(m, "08055555555"), "processing", 225);
    await advance(m, { by: "1d" });
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");
    expect(await balanceOf(m)).toBe(9_775);

    const res = await m.call("POST", `/sandbox/v1/vtu/${p.reference}/fail`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ reference: p.reference, status: "Failed", amount: 225 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Failed");
    expect(await balanceOf(m)).toBe(10_000);
    expect(entriesOf(m, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -22_500, at: at(0) },
      { kind: "vtu_refund", amount: 22_500, at: at(86_400) },
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it("a merchant with delays.vtu_settlement_seconds = 300 settles at 300 s, not 60 s", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000, delays: { vtu_settlement_seconds: 300 } });
    const ok = expectPurchase(await airtime(m, "08022222222"), "processing", 100);
    const ko = expectPurchase(await airtime(m, "08033333333", 200), "processing", 200);
    expect((await clock(m)).pending_timers).toBe(2);

    expect(await advanceSeconds(m, 60)).toMatchObject({ fired: 0, pending_timers: 2 });
    expect(await advanceSeconds(m, 239)).toMatchObject({ now: at(299), fired: 0, pending_timers: 2 });
    expect((await vtuStatus(m, ok.reference)).status).toBe("Processing");
    expect((await vtuStatus(m, ko.reference)).status).toBe("Processing");
    expect(await balanceOf(m)).toBe(9_700);

    expect(await advanceSeconds(m, 1)).toMatchObject({ now: at(300), fired: 2, pending_timers: 0 });
    expect((await vtuStatus(m, ok.reference)).status).toBe("Success");
    expect((await vtuStatus(m, ko.reference)).status).toBe("Failed");
    expect(m.tenant.state.vtu.get(ok.reference)!.settled_at).toBe(START + 300_000);
    expect(entriesOf(m, ko.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -20_000, at: at(0) },
      { kind: "vtu_refund", amount: 20_000, at: at(300) },
    ]);
    expect(await balanceOf(m)).toBe(9_900);
    expectLedgerConsistent(m.tenant);
  });

  it("Prepaid electricity to meter 22222222222: processing with no token; the token appears only at settlement", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 1, meter_number: "22222222222", meter_type: "Prepaid", amount: 2_000 },
    });
    const p = expectPurchase(res, "processing", 2_000);
    expect(p.token).toBeNull();
    expect(await vtuStatus(m, p.reference)).toMatchObject({ service: "electricity", status: "Processing", token: null });
    expect(await balanceOf(m)).toBe(8_000);

    await advanceSeconds(m, 59);
    expect(await vtuStatus(m, p.reference)).toMatchObject({ status: "Processing", token: null });

    await advanceSeconds(m, 1);
    const settled = await vtuStatus(m, p.reference);
    expect(settled.status).toBe("Success");
    expect(settled.token).toMatch(TOKEN_FORMAT);
    expect(await balanceOf(m)).toBe(8_000);
    expectLedgerConsistent(m.tenant);
  });

  it("Prepaid electricity to meter 33333333333: processing, then Failed and refunded at 60 s with no token", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 1, meter_number: "33333333333", meter_type: "Prepaid", amount: 2_000 },
    });
    const p = expectPurchase(res, "processing", 2_000);
    await advanceSeconds(m, 60);
    expect(await vtuStatus(m, p.reference)).toMatchObject({ status: "Failed", token: null });
    expect(await balanceOf(m)).toBe(10_000);
    expect(entriesOf(m, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -200_000, at: at(0) },
      { kind: "vtu_refund", amount: 200_000, at: at(60) },
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it("exam pins forced to processing_success by a rule are issued only at settlement", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    await rule(m, { target: "vtu", outcome: "processing_success" });
    const res = await m.call("POST", "/api/v1/vtu/exam", { body: { exam_type_id: 303, quantity: 2 } });
    const p = expectPurchase(res, "processing", 1_800);
    expect(p.pins).toBeUndefined();
    const pending = await vtuStatus(m, p.reference);
    expect(pending).toMatchObject({ service: "exam", status: "Processing", token: null });
    expect(pending.pins).toBeUndefined();
    expect(await balanceOf(m)).toBe(8_200);

    await advanceSeconds(m, 59);
    expect((await vtuStatus(m, p.reference)).pins).toBeUndefined();

    await advanceSeconds(m, 1);
    const settled = await vtuStatus(m, p.reference);
    expect(settled.status).toBe("Success");
    expect(settled.pins).toHaveLength(2);
    for (const pin of settled.pins) {
      expect(pin).toEqual({ pin: expect.stringMatching(/^\d{12}$/), serial: expect.stringMatching(/^SN\d{10}$/) });
    }
    expect(await balanceOf(m)).toBe(8_200);
    expectLedgerConsistent(m.tenant);
  });

  it("08044444444 fails at once (refunded, status Failed, no timer); 08011111111 succeeds at once", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const failed = expectPurchase(await airtime(m, "08044444444", 300), "fail", 300);
    expect(await vtuStatus(m, failed.reference)).toMatchObject({ status: "Failed", amount: 300 });
    expect(entriesOf(m, failed.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -30_000, at: at(0) },
      { kind: "vtu_refund", amount: 30_000, at: at(0) },
    ]);
    expect(await balanceOf(m)).toBe(10_000);

    const ok = expectPurchase(await data(m, "08011111111"), "success", 225);
    expect(await vtuStatus(m, ok.reference)).toMatchObject({ status: "Success", amount: 225 });
    expect(await balanceOf(m)).toBe(9_775);
    expect((await clock(m)).pending_timers).toBe(0);

    // Nothing moves later.
    expect(await advance(m, { by: "1d" })).toMatchObject({ fired: 0 });
    expect((await vtuStatus(m, failed.reference)).status).toBe("Failed");
    expect((await vtuStatus(m, ok.reference)).status).toBe("Success");
    expect(await balanceOf(m)).toBe(9_775);
    expectLedgerConsistent(m.tenant);
  });
});

// ---- 2. VTU levers ---------------------------------------------------------------------------

describe("POST /sandbox/v1/vtu/{reference}/succeed and /fail", () => {
  it("succeed on a processing purchase answers the VTU record at top level and cancels its timer", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await airtime(m, "08022222222", 100), "processing", 100);
    await advanceSeconds(m, 10);
    expect((await clock(m)).pending_timers).toBe(1);

    const res = await m.call("POST", `/sandbox/v1/vtu/${p.reference}/succeed`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      reference: p.reference,
      type: "debit",
      service: "airtime",
      status: "Success",
      amount: 100,
      description: expect.any(String),
      date: at(0),
      token: null,
      transaction_id: p.transaction_id,
    });
    expect(await vtuStatus(m, p.reference)).toEqual(res.body);
    expect((await clock(m)).pending_timers).toBe(0);
    expect(m.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 10_000);

    const ledgerLength = m.tenant.state.ledger.length;
    expect(await advanceSeconds(m, 120)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Success");
    expect(m.tenant.state.ledger.length).toBe(ledgerLength);
    expect(await balanceOf(m)).toBe(9_900);
    expectLedgerConsistent(m.tenant);
  });

  it("fail on a processing purchase refunds at once and cancels its timer (no second settlement later)", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await airtime(m, "08022222222", 100), "processing", 100);
    await advanceSeconds(m, 10);
    expect((await clock(m)).pending_timers).toBe(1);

    const res = await m.call("POST", `/sandbox/v1/vtu/${p.reference}/fail`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body).toMatchObject({ success: true, reference: p.reference, type: "debit", service: "airtime", status: "Failed", amount: 100, transaction_id: p.transaction_id });
    expect((await clock(m)).pending_timers).toBe(0);
    expect(await balanceOf(m)).toBe(10_000);
    expect(entriesOf(m, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -10_000, at: at(0) },
      { kind: "vtu_refund", amount: 10_000, at: at(10) },
    ]);

    expect(await advanceSeconds(m, 120)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Failed");
    expect(entriesOf(m, p.transaction_id)).toHaveLength(2);
    expect(await balanceOf(m)).toBe(10_000);
    expectLedgerConsistent(m.tenant);
  });

  it("succeed or fail on an already settled purchase is 409 INVALID_STATE naming its state, and changes nothing", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const ok = expectPurchase(await airtime(m, "08011111111", 100), "success", 100);
    const ko = expectPurchase(await airtime(m, "08044444444", 100), "fail", 100);
    const settledLater = expectPurchase(await airtime(m, "08022222222", 100), "processing", 100);
    await advanceSeconds(m, 60);
    const ledger = m.tenant.state.ledger.map((e) => ({ ...e }));

    for (const action of ["succeed", "fail"]) {
      const e1 = expectError(await m.call("POST", `/sandbox/v1/vtu/${ok.reference}/${action}`), 409, "INVALID_STATE");
      expect(e1.message).toMatch(/success/i);
      const e2 = expectError(await m.call("POST", `/sandbox/v1/vtu/${ko.reference}/${action}`), 409, "INVALID_STATE");
      expect(e2.message).toMatch(/fail/i);
      const e3 = expectError(await m.call("POST", `/sandbox/v1/vtu/${settledLater.reference}/${action}`), 409, "INVALID_STATE");
      expect(e3.message).toMatch(/success/i);
    }
    expect((await vtuStatus(m, ok.reference)).status).toBe("Success");
    expect((await vtuStatus(m, ko.reference)).status).toBe("Failed");
    expect((await vtuStatus(m, settledLater.reference)).status).toBe("Success");
    expect(m.tenant.state.ledger).toEqual(ledger);
    expect(await balanceOf(m)).toBe(9_800);
    expectLedgerConsistent(m.tenant);
  });

  it("a purchase forced by a lever cannot be forced again (409 INVALID_STATE)", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await airtime(m, "08055555555", 100), "processing", 100);
    expect((await m.call("POST", `/sandbox/v1/vtu/${p.reference}/fail`)).status).toBe(200);
    const ledger = m.tenant.state.ledger.map((e) => ({ ...e }));
    expect(expectError(await m.call("POST", `/sandbox/v1/vtu/${p.reference}/fail`), 409, "INVALID_STATE").message).toMatch(/fail/i);
    expect(expectError(await m.call("POST", `/sandbox/v1/vtu/${p.reference}/succeed`), 409, "INVALID_STATE").message).toMatch(/fail/i);
    expect(m.tenant.state.ledger).toEqual(ledger);
    expect(await balanceOf(m)).toBe(10_000);
    expectLedgerConsistent(m.tenant);
  });

  it("an unknown reference is 404 NOT_FOUND for both levers", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    expectError(await m.call("POST", "/sandbox/v1/vtu/VTU-NOPE/succeed"), 404, "NOT_FOUND");
    expectError(await m.call("POST", "/sandbox/v1/vtu/VTU-NOPE/fail"), 404, "NOT_FOUND");
    expect(await balanceOf(m)).toBe(10_000);
  });

  it("a reference of another merchant is 404 NOT_FOUND and leaves it processing", async () => {
    const h = harness();
    const a = await h.merchant({ wallet_balance: 10_000 });
    const b = await h.merchant({ wallet_balance: 10_000 });
    const p = expectPurchase(await airtime(a, "08055555555", 100), "processing", 100);
    expectError(await b.call("POST", `/sandbox/v1/vtu/${p.reference}/succeed`), 404, "NOT_FOUND");
    expectError(await b.call("POST", `/sandbox/v1/vtu/${p.reference}/fail`), 404, "NOT_FOUND");
    expect((await vtuStatus(a, p.reference)).status).toBe("Processing");
    expect(await balanceOf(a)).toBe(9_900);
    expect(await balanceOf(b)).toBe(10_000);
  });
});

// ---- 3. VTU outcome rules --------------------------------------------------------------------

describe("VTU outcome rules", () => {
  it("{ target: vtu, outcome: fail }: the next purchase fails at once and is refunded", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const created = await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "vtu", outcome: "fail" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: { id: expect.any(String), target: "vtu", match: null, outcome: "fail", delay_seconds: null, times: null, created_at: at(0) },
    });

    const p = expectPurchase(await airtime(m, "08031234567", 250), "fail", 250);
    expect(await vtuStatus(m, p.reference)).toMatchObject({ status: "Failed", amount: 250 });
    expect(entriesOf(m, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -25_000, at: at(0) },
      { kind: "vtu_refund", amount: 25_000, at: at(0) },
    ]);
    expect(await balanceOf(m)).toBe(10_000);
    expect((await clock(m)).pending_timers).toBe(0);
    expectLedgerConsistent(m.tenant);
  });

  it("a rule wins over a magic phone (rules first, then magic values)", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    await rule(m, { target: "vtu", outcome: "success" });
    expectPurchase(await airtime(m, "08044444444", 100), "success", 100);
    expect(await balanceOf(m)).toBe(9_900);
    expectLedgerConsistent(m.tenant);
  });

  it("processing_fail with delay_seconds 10: processing, still Processing at 9 s, Failed and refunded at 10 s", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    await rule(m, { target: "vtu", outcome: "processing_fail", delay_seconds: 10 });
    const p = expectPurchase(await data(m, "08031234567"), "processing", 225);
    expect(await advanceSeconds(m, 9)).toMatchObject({ fired: 0, pending_timers: 1 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");
    expect(await balanceOf(m)).toBe(9_775);

    expect(await advanceSeconds(m, 100)).toMatchObject({ fired: 1, pending_timers: 0 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Failed");
    expect(entriesOf(m, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -22_500, at: at(0) },
      { kind: "vtu_refund", amount: 22_500, at: at(10) },
    ]);
    expect(await balanceOf(m)).toBe(10_000);
    expectLedgerConsistent(m.tenant);
  });

  it("match { phone: 08031234567 } applies only to that phone", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    await rule(m, { target: "vtu", outcome: "fail", match: { phone: "08031234567" } });
    const other = expectPurchase(await airtime(m, "08031234568", 100), "success", 100);
    expect((await vtuStatus(m, other.reference)).status).toBe("Success");
    const otherData = expectPurchase(await data(m, "07031234567"), "success", 225);
    expect((await vtuStatus(m, otherData.reference)).status).toBe("Success");
    const hit = expectPurchase(await airtime(m, "08031234567", 100), "fail", 100);
    expect((await vtuStatus(m, hit.reference)).status).toBe("Failed");
    const hitData = expectPurchase(await data(m, "08031234567"), "fail", 225);
    expect((await vtuStatus(m, hitData.reference)).status).toBe("Failed");
    expect(await balanceOf(m)).toBe(10_000 - 100 - 225);
    expectLedgerConsistent(m.tenant);
  });

  it("times: 1 applies to one purchase only, and the rule is then gone", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    await rule(m, { target: "vtu", outcome: "fail", times: 1 });
    expectPurchase(await airtime(m, "08031234567", 100), "fail", 100);
    expect((await m.call("GET", "/sandbox/v1/outcomes")).body).toEqual({ success: true, data: [] });
    expectPurchase(await airtime(m, "08031234567", 100), "success", 100);
    expect(await balanceOf(m)).toBe(9_900);
    expectLedgerConsistent(m.tenant);
  });

  it("a rule without times applies to every purchase until deleted", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const r = await rule(m, { target: "vtu", outcome: "fail" });
    expectPurchase(await airtime(m, "08031234567", 100), "fail", 100);
    expectPurchase(await airtime(m, "08031234567", 100), "fail", 100);
    expect((await m.call("DELETE", `/sandbox/v1/outcomes/${r.id}`)).status).toBe(200);
    expectPurchase(await airtime(m, "08031234567", 100), "success", 100);
    expect(await balanceOf(m)).toBe(9_900);
    expectLedgerConsistent(m.tenant);
  });

  it("the newest matching rule wins over an older one; a newer rule that does not match leaves the older in force", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    await rule(m, { target: "vtu", outcome: "fail" });
    await rule(m, { target: "vtu", outcome: "processing_success", delay_seconds: 20 });
    await rule(m, { target: "vtu", outcome: "success", match: { phone: "08099999990" } });

    const p = expectPurchase(await airtime(m, "08031234567", 100), "processing", 100);
    expect(await advanceSeconds(m, 19)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Processing");
    expect(await advanceSeconds(m, 1)).toMatchObject({ fired: 1 });
    expect((await vtuStatus(m, p.reference)).status).toBe("Success");
    expect(m.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 20_000);

    const matched = expectPurchase(await airtime(m, "08099999990", 100), "success", 100);
    expect((await vtuStatus(m, matched.reference)).status).toBe("Success");
    expect(await balanceOf(m)).toBe(9_800);
    expectLedgerConsistent(m.tenant);
  });

  it("rules of merchant A do not affect merchant B", async () => {
    const h = harness();
    const a = await h.merchant({ wallet_balance: 10_000 });
    const b = await h.merchant({ wallet_balance: 10_000 });
    await rule(a, { target: "vtu", outcome: "fail" });
    expect((await b.call("GET", "/sandbox/v1/outcomes")).body).toEqual({ success: true, data: [] });

    expectPurchase(await airtime(b, "08031234567", 100), "success", 100);
    expectPurchase(await airtime(a, "08031234567", 100), "fail", 100);
    expect(await balanceOf(a)).toBe(10_000);
    expect(await balanceOf(b)).toBe(9_900);
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });
});

// ---- 4. KYC ----------------------------------------------------------------------------------

async function newHolder(m: Merchant, email = "ada@example.com") {
  const res = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.kyc_status).toBe("PENDING");
  return res.body.cardholder_id as number;
}

async function kycOf(m: Merchant, id: number) {
  const res = await m.call("GET", `${HOLDERS}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.kyc_status as string;
}

async function issueCard(m: Merchant, cardholderId: number) {
  return m.call("POST", CARDS, { body: { cardholder_id: cardholderId } });
}

describe("KYC approval on the merchant's clock", () => {
  it("a new cardholder is PENDING, still PENDING at 119 s, APPROVED at 120 s; a card can then be issued", async () => {
    const m = await harness().merchant();
    const id = await newHolder(m);
    expect((await clock(m)).pending_timers).toBe(1);
    expect(await kycOf(m, id)).toBe("PENDING");

    expect(await advanceSeconds(m, 119)).toMatchObject({ now: at(119), fired: 0, pending_timers: 1 });
    expect(await kycOf(m, id)).toBe("PENDING");
    expectError(await issueCard(m, id), 422, "KYC_NOT_APPROVED");
    expect(m.tenant.state.cards.size).toBe(0);

    expect(await advanceSeconds(m, 1)).toMatchObject({ now: at(120), fired: 1, pending_timers: 0 });
    const res = await m.call("GET", `${HOLDERS}/${id}`);
    expect(res.body).toEqual({ success: true, cardholder_id: id, full_name: "Ada Obi", email: "ada@example.com", phone: null, kyc_status: "APPROVED" });

    const card = await issueCard(m, id);
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    expect(card.body).toMatchObject({ success: true, cardholder_id: id, status: "active", created_at: at(120) });
  });

  it("the merchant's kyc_approval_seconds sets the delay", async () => {
    const m = await harness().merchant({ delays: { kyc_approval_seconds: 600 } });
    const id = await newHolder(m);
    await advanceSeconds(m, 599);
    expect(await kycOf(m, id)).toBe("PENDING");
    await advanceSeconds(m, 1);
    expect(await kycOf(m, id)).toBe("APPROVED");
  });

  it("an email starting pending+ never auto-approves (1 day later still PENDING) until the approve lever", async () => {
    const m = await harness().merchant();
    const id = await newHolder(m, "pending+ada@example.com");
    expect((await clock(m)).pending_timers).toBe(0);
    expect(await advance(m, { by: "1d" })).toMatchObject({ fired: 0 });
    expect(await kycOf(m, id)).toBe("PENDING");
    expectError(await issueCard(m, id), 422, "KYC_NOT_APPROVED");

    const res = await m.call("POST", `/sandbox/v1/cardholders/${id}/approve`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      cardholder_id: id,
      full_name: "Ada Obi",
      email: "pending+ada@example.com",
      phone: null,
      kyc_status: "APPROVED",
    });
    expect(await kycOf(m, id)).toBe("APPROVED");
    expect((await issueCard(m, id)).status).toBe(200);
  });

  it("rule { kyc, pending, times: 1 } keeps the next cardholder pending; the one after approves at 120 s", async () => {
    const m = await harness().merchant();
    await rule(m, { target: "kyc", outcome: "pending", times: 1 });
    const held = await newHolder(m, "held@example.com");
    const normal = await newHolder(m, "normal@example.com");
    expect((await clock(m)).pending_timers).toBe(1);

    await advanceSeconds(m, 120);
    expect(await kycOf(m, held)).toBe("PENDING");
    expect(await kycOf(m, normal)).toBe("APPROVED");
    await advance(m, { by: "1d" });
    expect(await kycOf(m, held)).toBe("PENDING");
  });

  it("rule { kyc, approved, delay_seconds: 5 } approves at 5 s", async () => {
    const m = await harness().merchant();
    await rule(m, { target: "kyc", outcome: "approved", delay_seconds: 5 });
    const id = await newHolder(m);
    expect(await advanceSeconds(m, 4)).toMatchObject({ fired: 0 });
    expect(await kycOf(m, id)).toBe("PENDING");
    expect(await advanceSeconds(m, 1)).toMatchObject({ now: at(5), fired: 1, pending_timers: 0 });
    expect(await kycOf(m, id)).toBe("APPROVED");
  });

  it("approving an APPROVED cardholder is 409 INVALID_STATE naming APPROVED", async () => {
    const m = await harness().merchant();
    const id = await newHolder(m);
    await advanceSeconds(m, 120);
    expect(await kycOf(m, id)).toBe("APPROVED");
    const err = expectError(await m.call("POST", `/sandbox/v1/cardholders/${id}/approve`), 409, "INVALID_STATE");
    expect(err.message).toContain("APPROVED");
    expect(await kycOf(m, id)).toBe("APPROVED");
  });

  it("a manually approved cardholder's KYC timer is cancelled", async () => {
    const m = await harness().merchant();
    const id = await newHolder(m);
    const other = await newHolder(m, "other@example.com");
    expect((await clock(m)).pending_timers).toBe(2);
    expect((await m.call("POST", `/sandbox/v1/cardholders/${id}/approve`)).status).toBe(200);
    expect((await clock(m)).pending_timers).toBe(1);
    expect(await advanceSeconds(m, 120)).toMatchObject({ fired: 1, pending_timers: 0 });
    expect(await kycOf(m, id)).toBe("APPROVED");
    expect(await kycOf(m, other)).toBe("APPROVED");
  });

  it("approving an unknown cardholder is 404 NOT_FOUND", async () => {
    const m = await harness().merchant();
    expectError(await m.call("POST", "/sandbox/v1/cardholders/999/approve"), 404, "NOT_FOUND");
  });
});

// ---- 5. Card spend ---------------------------------------------------------------------------

/** An approved cardholder's card funded with `usd` (wallet charged (usd + 1) x 1600 by default). */
async function fundedCard(m: Merchant, usd: number, email = "ada@example.com") {
  const holder = await newHolder(m, email);
  expect((await m.call("POST", `/sandbox/v1/cardholders/${holder}/approve`)).status).toBe(200);
  const issued = await issueCard(m, holder);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const id = issued.body.card_id as number;
  if (usd > 0) {
    const funded = await m.call("POST", `${CARDS}/${id}/fund`, { body: { amount: usd } });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
  }
  return id;
}

async function cardBalance(m: Merchant, id: number) {
  const res = await m.call("GET", `${CARDS}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.balance as number;
}

async function cardTxns(m: Merchant, id: number) {
  const res = await m.call("GET", `${CARDS}/${id}/transactions`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; pagination: { total: number } };
}

const spend = (m: Merchant, id: number | string, body: Record<string, unknown>) =>
  m.call("POST", `/sandbox/v1/virtual-cards/${id}/spend`, { body });

describe("POST /sandbox/v1/virtual-cards/{id}/spend", () => {
  it("a spend on an active card: 201, the card transaction, card balance reduced, listed first, wallet untouched", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 10);
    const wallet = await balanceOf(m);
    const ledger = m.tenant.state.ledger.length;
    await advanceSeconds(m, 30);

    const res = await spend(m, card, { amount: 3.5, merchant_name: "NETFLIX" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        transaction_id: expect.any(String),
        card_id: card,
        type: "spend",
        status: "success",
        amount: 3.5,
        currency: "USD",
        balance_after: 6.5,
        description: expect.any(String),
        merchant_name: "NETFLIX",
        decline_reason: null,
        created_at: at(30),
      },
    });
    expect(await cardBalance(m, card)).toBe(6.5);
    const txns = await cardTxns(m, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(txns.data[1]).toMatchObject({ type: "funding", amount: 10 });
    expect(txns.pagination.total).toBe(2);
    expect(await balanceOf(m)).toBe(wallet);
    expect(m.tenant.state.ledger.length).toBe(ledger);
    expectLedgerConsistent(m.tenant);
  });

  it("merchant_name is optional; spending the exact balance empties the card", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 5);
    const res = await spend(m, card, { amount: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: "spend", status: "success", amount: 5, balance_after: 0, decline_reason: null });
    expect(typeof res.body.data.merchant_name).toBe("string");
    expect(res.body.data.merchant_name.length).toBeGreaterThan(0);
    expect(await cardBalance(m, card)).toBe(0);
  });

  it("a frozen card declines: 201 status declined with a reason, balance unchanged, the decline listed", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 10);
    expect((await m.call("POST", `${CARDS}/${card}/freeze`)).status).toBe(200);
    const wallet = await balanceOf(m);

    const res = await spend(m, card, { amount: 2, merchant_name: "SPOTIFY" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ card_id: card, type: "spend", status: "declined", amount: 2, balance_after: 10, merchant_name: "SPOTIFY" });
    expect(res.body.data.decline_reason).toMatch(/frozen/i);
    expect(await cardBalance(m, card)).toBe(10);
    const txns = await cardTxns(m, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(txns.pagination.total).toBe(2);
    expect(await balanceOf(m)).toBe(wallet);
    expectLedgerConsistent(m.tenant);

    // Unfrozen, the same spend goes through.
    expect((await m.call("POST", `${CARDS}/${card}/unfreeze`)).status).toBe(200);
    const ok = await spend(m, card, { amount: 2, merchant_name: "SPOTIFY" });
    expect(ok.body.data).toMatchObject({ status: "success", balance_after: 8, decline_reason: null });
    expect(await cardBalance(m, card)).toBe(8);
  });

  it("a terminated card declines: 201 status declined with a reason, balance unchanged, the decline listed", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 10);
    expect((await m.call("POST", `${CARDS}/${card}/terminate`)).status).toBe(200);
    const wallet = await balanceOf(m);
    expect(await cardBalance(m, card)).toBe(0);
    const before = (await cardTxns(m, card)).pagination.total;

    const res = await spend(m, card, { amount: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ card_id: card, type: "spend", status: "declined", amount: 1, balance_after: 0 });
    expect(res.body.data.decline_reason).toMatch(/terminated/i);
    expect(await cardBalance(m, card)).toBe(0);
    const txns = await cardTxns(m, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(txns.pagination.total).toBe(before + 1);
    expect(await balanceOf(m)).toBe(wallet);
    expectLedgerConsistent(m.tenant);
  });

  it("a spend above the card balance declines: 201 status declined with a reason, balance unchanged", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 10);
    const wallet = await balanceOf(m);
    const res = await spend(m, card, { amount: 10.01, merchant_name: "APPLE.COM" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: "spend", status: "declined", amount: 10.01, balance_after: 10, merchant_name: "APPLE.COM" });
    expect(typeof res.body.data.decline_reason).toBe("string");
    expect(res.body.data.decline_reason).toMatch(/balance/i);
    expect(await cardBalance(m, card)).toBe(10);
    const txns = await cardTxns(m, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(await balanceOf(m)).toBe(wallet);
    expectLedgerConsistent(m.tenant);
  });

  it("an unknown card is 404 NOT_FOUND", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 10);
    expectError(await spend(m, 999, { amount: 1 }), 404, "NOT_FOUND");
    expect(await cardBalance(m, card)).toBe(10);
    expect((await cardTxns(m, card)).pagination.total).toBe(1);
  });
});

// ---- 6. Card funding failure -----------------------------------------------------------------

async function expectFundingRefused(m: Merchant, card: number, amount: number) {
  const wallet = await balanceOf(m);
  const ledger = m.tenant.state.ledger.map((e) => ({ ...e }));
  const balance = await cardBalance(m, card);
  const txns = await cardTxns(m, card);
  const err = expectError(await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount } }), 422, "CARD_FUNDING_FAILED");
  expect(await balanceOf(m)).toBe(wallet);
  expect(m.tenant.state.ledger).toEqual(ledger);
  expect(await cardBalance(m, card)).toBe(balance);
  expect(await cardTxns(m, card)).toEqual(txns);
  expectLedgerConsistent(m.tenant);
  return err;
}

describe("card funding failures", () => {
  it("rule { card_fund, failed }: 422 CARD_FUNDING_FAILED with nothing charged; funding works once the rule is deleted", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 5);
    const r = await rule(m, { target: "card_fund", outcome: "failed" });
    await expectFundingRefused(m, card, 10);
    expect((await m.call("DELETE", `/sandbox/v1/outcomes/${r.id}`)).status).toBe(200);

    const wallet = await balanceOf(m);
    const ok = await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 10 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await cardBalance(m, card)).toBe(15);
    expect(await balanceOf(m)).toBe(wallet - 17_600);
    expectLedgerConsistent(m.tenant);
  });

  it("the magic amount 13.13 USD fails likewise; 13.12 and 13.14 go through", async () => {
    const m = await harness().merchant();
    const card = await fundedCard(m, 0);
    await expectFundingRefused(m, card, 13.13);
    for (const amount of [13.12, 13.14]) {
      const res = await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await cardBalance(m, card)).toBe(26.26);
    await expectFundingRefused(m, card, 13.13);
    expect(await balanceOf(m)).toBe(1_000_000 - Math.round((13.12 + 1) * 1600) - Math.round((13.14 + 1) * 1600));
  });

  it("a rule with match { card_id } applies only to that card", async () => {
    const m = await harness().merchant();
    const a = await fundedCard(m, 0, "a@example.com");
    const b = await fundedCard(m, 0, "b@example.com");
    await rule(m, { target: "card_fund", outcome: "failed", match: { card_id: a } });
    const wallet = await balanceOf(m);
    const ok = await m.call("POST", `${CARDS}/${b}/fund`, { body: { amount: 10 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await cardBalance(m, b)).toBe(10);
    expect(await balanceOf(m)).toBe(wallet - 17_600);
    await expectFundingRefused(m, a, 10);
    expect(await cardBalance(m, a)).toBe(0);
  });
});
