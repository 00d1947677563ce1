import { describe, expect, it } from "vitest";
import { createCheckout, payCheckout } from "../../src/domain/checkout.js";
import { containsText, listCheckouts, listPayouts, listVaPayments, listVtuPurchases, paginate } from "../../src/domain/lists.js";
import { toMinor } from "../../src/domain/money.js";
import { createPayout, failPayout } from "../../src/domain/payouts.js";
import { receiveTransfer } from "../../src/domain/va-payments.js";
import { priceAirtime, purchase } from "../../src/domain/vtu.js";
import { createVirtualAccount } from "../../src/domain/virtual-accounts.js";
import { individualRequest, payoutRequest, setup, T0, withAccount } from "./context.js";

const all = { page: 1, per_page: 100 };
const refs = <T extends { reference: string }>(page: { items: T[] }) => page.items.map((r) => r.reference);

describe("paginate", () => {
  it("pages are 1-based; a page past the end is empty with the totals", () => {
    const items = [1, 2, 3, 4, 5];
    expect(paginate(items, 2, 2)).toEqual({ items: [3, 4], pagination: { current_page: 2, per_page: 2, total_pages: 3, total: 5 } });
    expect(paginate(items, 4, 2)).toEqual({ items: [], pagination: { current_page: 4, per_page: 2, total_pages: 3, total: 5 } });
  });
});

/** Payouts po-0 .. po-4, one a minute from T0; po-1 failed, po-3 held for review. */
function withPayouts() {
  const w = setup({ balance: 10_000_000 });
  for (let i = 0; i < 5; i++) {
    w.ctx.now = T0 + i * 60_000;
    createPayout(w.ctx, w.state, payoutRequest({ reference: `po-${i}`, amount: toMinor(i === 3 ? 1_000_000 : 1_000) }));
  }
  failPayout(w.ctx, w.state, "po-1");
  return w;
}

describe("listPayouts", () => {
  it("lists newest first, paged, with totals after the filters", () => {
    const { state } = withPayouts();
    expect(refs(listPayouts(state, {}, all))).toEqual(["po-4", "po-3", "po-2", "po-1", "po-0"]);
    const second = listPayouts(state, {}, { page: 2, per_page: 2 });
    expect(refs(second)).toEqual(["po-2", "po-1"]);
    expect(second.pagination).toEqual({ current_page: 2, per_page: 2, total_pages: 3, total: 5 });
    expect(refs(listPayouts(state, {}, { page: 3, per_page: 2 }))).toEqual(["po-0"]);
    expect(listPayouts(state, {}, { page: 4, per_page: 2 })).toEqual({ items: [], pagination: { current_page: 4, per_page: 2, total_pages: 3, total: 5 } });
  });

  it("filters by status, reference and an inclusive time range", () => {
    const { state } = withPayouts();
    expect(refs(listPayouts(state, { status: "processing" }, all))).toEqual(["po-4", "po-2", "po-0"]);
    expect(refs(listPayouts(state, { status: "failed" }, all))).toEqual(["po-1"]);
    expect(refs(listPayouts(state, { status: "pending_approval" }, all))).toEqual(["po-3"]);
    expect(refs(listPayouts(state, { status: "completed" }, all))).toEqual([]);
    expect(refs(listPayouts(state, { reference: "po-2" }, all))).toEqual(["po-2"]);
    expect(refs(listPayouts(state, { reference: "PO-2" }, all))).toEqual([]);
    expect(refs(listPayouts(state, { from: T0 + 60_000, to: T0 + 180_000 }, all))).toEqual(["po-3", "po-2", "po-1"]);
    expect(refs(listPayouts(state, { from: T0 + 60_001 }, all))).toEqual(["po-4", "po-3", "po-2"]);
    expect(refs(listPayouts(state, { to: T0 + 59_999 }, all))).toEqual(["po-0"]);
    const both = listPayouts(state, { status: "processing", from: T0 + 60_000 }, { page: 1, per_page: 1 });
    expect(refs(both)).toEqual(["po-4"]);
    expect(both.pagination).toEqual({ current_page: 1, per_page: 1, total_pages: 2, total: 2 });
  });
});

describe("listVtuPurchases", () => {
  it("filters by the stored status", () => {
    const w = setup({ balance: 10_000 });
    const ok = purchase(w.ctx, w.state, priceAirtime({ network: "mtn", phone: "08031234567", amount: toMinor(100), airtime_type: "VTU" }));
    w.ctx.now += 1_000;
    const held = purchase(w.ctx, w.state, priceAirtime({ network: "mtn", phone: "08055555555", amount: toMinor(100), airtime_type: "VTU" }));
    const failed = purchase(w.ctx, w.state, priceAirtime({ network: "mtn", phone: "08044444444", amount: toMinor(100), airtime_type: "VTU" }));
    expect(refs(listVtuPurchases(w.state, {}, all))).toEqual([failed.reference, held.reference, ok.reference]);
    expect(refs(listVtuPurchases(w.state, { status: "processing" }, all))).toEqual([held.reference]);
    expect(refs(listVtuPurchases(w.state, { status: "fail" }, all))).toEqual([failed.reference]);
    expect(refs(listVtuPurchases(w.state, { reference: ok.reference, to: T0 }, all))).toEqual([ok.reference]);
  });
});

describe("listCheckouts", () => {
  it("filters by the status a reader sees now: expired is derived from the clock", () => {
    const w = setup();
    const paid = createCheckout(w.ctx, w.state, { amount: toMinor(500) });
    payCheckout(w.ctx, w.state, paid.reference);
    w.ctx.now = T0 + 20 * 60_000;
    const fresh = createCheckout(w.ctx, w.state, { amount: toMinor(700) });
    const first = createCheckout(w.ctx, w.state, { amount: toMinor(900) });
    const now = T0 + 40 * 60_000;
    expect(refs(listCheckouts(w.state, now, {}, all))).toEqual([first.reference, fresh.reference, paid.reference]);
    expect(refs(listCheckouts(w.state, now, { status: "paid" }, all))).toEqual([paid.reference]);
    expect(refs(listCheckouts(w.state, now, { status: "pending" }, all))).toEqual([first.reference, fresh.reference]);
    expect(refs(listCheckouts(w.state, T0 + 60 * 60_000, { status: "expired" }, all))).toEqual([first.reference, fresh.reference]);
  });
});

describe("listVaPayments", () => {
  it("filters by status, narration as sent, the receiving account and transaction_id", () => {
    const w = withAccount();
    const { account: other } = createVirtualAccount(w.ctx, w.state, individualRequest({ reference: "cust-2" }));
    const a = receiveTransfer(w.ctx, w.state, { account_number: w.account.account_number, amount: 100, narration: "" });
    const b = receiveTransfer(w.ctx, w.state, { account_number: other.account_number, amount: 100, narration: " rent ", status: "pending" });
    const c = receiveTransfer(w.ctx, w.state, { account_number: w.account.account_number, amount: 100, narration: " rent " });
    const ids = (page: { items: Array<{ transaction_id: string }> }) => page.items.map((p) => p.transaction_id);
    expect(ids(listVaPayments(w.state, {}, all))).toEqual([c.transaction_id, b.transaction_id, a.transaction_id]);
    expect(ids(listVaPayments(w.state, { status: "pending" }, all))).toEqual([b.transaction_id]);
    expect(ids(listVaPayments(w.state, { reference: " rent " }, all))).toEqual([c.transaction_id, b.transaction_id]);
    expect(ids(listVaPayments(w.state, { reference: "rent" }, all))).toEqual([]);
    expect(ids(listVaPayments(w.state, { virtual_account: other.account_number }, all))).toEqual([b.transaction_id]);
    expect(ids(listVaPayments(w.state, { transaction_id: a.transaction_id }, all))).toEqual([a.transaction_id]);
    expect(ids(listVaPayments(w.state, { transaction_id: a.transaction_id, status: "pending" }, all))).toEqual([]);
    expect(listVaPayments(w.state, { transaction_id: "TXN_NONE" }, all).pagination).toEqual({ current_page: 1, per_page: 100, total_pages: 0, total: 0 });
  });
});

describe("search (the dashboard's search box)", () => {
  it("matches a part of any of the texts, case ignored; no search matches all; nulls never match", () => {
    expect(containsText(undefined, null)).toBe(true);
    expect(containsText("REF-0", "ref-001", null)).toBe(true);
    expect(containsText("12", null, 312)).toBe(true);
    expect(containsText("x", null, undefined, "abc")).toBe(false);
  });

  it("finds payouts by a part of the reference or the account, and keeps the exact reference filter apart", () => {
    const w = withPayouts();
    expect(refs(listPayouts(w.state, { search: "PO-" }, all))).toEqual(["po-4", "po-3", "po-2", "po-1", "po-0"]);
    expect(refs(listPayouts(w.state, { search: "po-2" }, all))).toEqual(["po-2"]);
    expect(refs(listPayouts(w.state, { search: "po", reference: "po-4" }, all))).toEqual(["po-4"]);
    expect(refs(listPayouts(w.state, { search: "po-", status: "failed" }, all))).toEqual(["po-1"]);
  });
});
