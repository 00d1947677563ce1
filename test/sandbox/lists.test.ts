/**
 * The control API's lists: GET /sandbox/v1/payouts, /vtu, /checkout and
 * /virtual-accounts/payments, newest first, paged, filtered by status, a time range on the merchant's
 * clock and reference; bad filters get 422 in the envelope; a large merchant is listed in one pass.
 */
import { describe, expect, it } from "vitest";
import type { Payout, VaPayment } from "../../src/domain/records.js";
import { at, client, expectInvalid, type TestClient } from "../client.js";
import { expectError, harness } from "../helpers.js";

const get = async (c: TestClient, path: string) => {
  const res = await c.call("GET", path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body as { data: any[]; pagination: { current_page: number; per_page: number; total_pages: number; total: number } };
};
const refsOf = async (c: TestClient, path: string) => (await get(c, path)).data.map((r: { reference: string }) => r.reference);
const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

/** Payouts p0..p4, one a minute from START: p1 failed, p3 held for review, p4 completed. */
async function withPayouts() {
  const c = client(await harness().merchant({ wallet_balance: 10_000_000, limits: { payout_review_threshold: 100_000 }, delays: { payout_settlement_seconds: 3_600 } }));
  for (let i = 0; i < 5; i++) {
    if (i > 0) await c.advance(60);
    expect((await c.payout({ reference: `p${i}`, amount: i === 3 ? 200_000 : 1_000 })).status).toBe(201);
  }
  expect((await c.call("POST", "/sandbox/v1/payouts/p1/fail")).status).toBe(200);
  expect((await c.call("POST", "/sandbox/v1/payouts/p4/complete")).status).toBe(200);
  return c;
}

describe("GET /sandbox/v1/payouts", () => {
  it("lists newest first, each as GET /api/v1/payout/status shows it, with pagination", async () => {
    const c = await withPayouts();
    const page = await get(c, "/sandbox/v1/payouts");
    expect(page.data.map((p) => p.reference)).toEqual(["p4", "p3", "p2", "p1", "p0"]);
    expect(page.pagination).toEqual({ current_page: 1, per_page: 20, total_pages: 1, total: 5 });
    for (const item of page.data) expect(item).toEqual(await c.payoutStatus(item.reference));
  });

  it("pages: per_page 2 gives three pages; a page past the last is empty with the totals; per_page 1 to 100", async () => {
    const c = await withPayouts();
    expect(await get(c, "/sandbox/v1/payouts?per_page=2&page=2")).toMatchObject({
      data: [{ reference: "p2" }, { reference: "p1" }],
      pagination: { current_page: 2, per_page: 2, total_pages: 3, total: 5 },
    });
    expect(await refsOf(c, "/sandbox/v1/payouts?per_page=2&page=3")).toEqual(["p0"]);
    expect(await get(c, "/sandbox/v1/payouts?per_page=2&page=4")).toEqual({ success: true, data: [], pagination: { current_page: 4, per_page: 2, total_pages: 3, total: 5 } });
    expect((await get(c, "/sandbox/v1/payouts?per_page=100")).data).toHaveLength(5);
    expect(await refsOf(c, "/sandbox/v1/payouts?per_page=1")).toEqual(["p4"]);
  });

  it("filters by status, an inclusive time range, reference, and all of them together", async () => {
    const c = await withPayouts();
    expect(await refsOf(c, "/sandbox/v1/payouts?status=processing")).toEqual(["p2", "p0"]);
    expect(await refsOf(c, "/sandbox/v1/payouts?status=failed")).toEqual(["p1"]);
    expect(await refsOf(c, "/sandbox/v1/payouts?status=completed")).toEqual(["p4"]);
    expect(await refsOf(c, "/sandbox/v1/payouts?status=pending_approval")).toEqual(["p3"]);
    expect(await refsOf(c, "/sandbox/v1/payouts?status=pending")).toEqual([]);
    expect(await refsOf(c, `/sandbox/v1/payouts?${q({ from: at(60), to: at(180) })}`)).toEqual(["p3", "p2", "p1"]);
    expect(await refsOf(c, `/sandbox/v1/payouts?${q({ from: "2026-03-02T10:01:00.001+01:00" })}`)).toEqual(["p4", "p3", "p2"]); // zones are read
    expect(await refsOf(c, `/sandbox/v1/payouts?${q({ to: at(59) })}`)).toEqual(["p0"]);
    expect(await refsOf(c, `/sandbox/v1/payouts?${q({ from: at(60), to: at(60) })}`)).toEqual(["p1"]);
    expect(await refsOf(c, "/sandbox/v1/payouts?reference=p3")).toEqual(["p3"]);
    expect(await refsOf(c, "/sandbox/v1/payouts?reference=P3")).toEqual([]);
    const both = await get(c, `/sandbox/v1/payouts?${q({ status: "processing", from: at(60), per_page: 1 })}`);
    expect(both.data.map((p) => p.reference)).toEqual(["p2"]);
    expect(both.pagination).toEqual({ current_page: 1, per_page: 1, total_pages: 1, total: 1 });
  });

  it("refuses bad filters and paging with 422 VALIDATION_ERROR naming each field", async () => {
    const c = await withPayouts();
    const bad = async (query: string, fields: string[]) => expectInvalid(await c.call("GET", `/sandbox/v1/payouts?${query}`), fields);
    expect((await bad("status=done", ["status"])).errors!.status).toEqual(["Must be one of: pending, pending_approval, processing, completed, failed."]);
    await bad("status=Processing", ["status"]);
    expect((await bad("from=yesterday", ["from"])).errors!.from).toEqual(["Must be an ISO 8601 time with its zone, e.g. 2026-03-02T09:00:00Z."]);
    await bad("to=2026-03-02", ["to"]);
    await bad("to=2026-03-02T09:00:00", ["to"]); // no zone: which clock?
    expect((await bad(q({ from: at(60), to: at(59) }), ["to"])).errors!.to).toEqual(["Must not be before from."]);
    expect((await bad("reference=", ["reference"])).errors!.reference).toEqual(["Must not be empty: leave reference out to list every record."]);
    await bad(`reference=${"x".repeat(501)}`, ["reference"]);
    for (const paging of ["page=0", "page=-1", "page=1.5", "page=abc", "page=1000001"]) await bad(paging, ["page"]);
    for (const paging of ["per_page=0", "per_page=101", "per_page=x"]) await bad(paging, ["per_page"]);
    await bad("status=done&per_page=0&from=x", ["status", "per_page", "from"]);
  });

  it("shows only the caller's payouts, and lives under /sandbox/v1 only", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 100_000 }));
    const b = client(await h.merchant());
    await a.processingPayout({ reference: "mine" });
    expect(await refsOf(a, "/sandbox/v1/payouts")).toEqual(["mine"]);
    expect(await get(b, "/sandbox/v1/payouts")).toEqual({ success: true, data: [], pagination: { current_page: 1, per_page: 20, total_pages: 0, total: 0 } });
    for (const path of ["/api/v1/payouts", "/api/v1/vtu", "/api/v1/checkout", "/api/v1/virtual-accounts/payments"]) expectError(await a.call("GET", path), 404, "NOT_FOUND");
    expectError(await a.call("GET", "/sandbox/v1/payouts", { anonymous: true }), 401, "MISSING_CREDENTIALS");
  });
});

describe("GET /sandbox/v1/vtu", () => {
  it("lists purchases newest first as the VTU status endpoint shows them; status in either spelling", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const ok = (await c.airtime({ phone: "08011111111" })).body;
    await c.advance(1);
    const held = (await c.airtime({ phone: "08055555555" })).body;
    const failed = (await c.airtime({ phone: "08044444444" })).body;
    const page = await get(c, "/sandbox/v1/vtu");
    expect(page.data.map((v) => v.reference)).toEqual([failed.reference, held.reference, ok.reference]);
    for (const item of page.data) expect(item).toEqual((await c.call("GET", `/api/v1/vtu/transaction/status?reference=${item.reference}`)).body);
    expect(await refsOf(c, "/sandbox/v1/vtu?status=processing")).toEqual([held.reference]);
    expect(await refsOf(c, "/sandbox/v1/vtu?status=Processing")).toEqual([held.reference]);
    expect(await refsOf(c, "/sandbox/v1/vtu?status=fail")).toEqual([failed.reference]);
    expect(await refsOf(c, "/sandbox/v1/vtu?status=Failed")).toEqual([failed.reference]);
    expect(await refsOf(c, "/sandbox/v1/vtu?status=Success")).toEqual([ok.reference]);
    expect(await refsOf(c, `/sandbox/v1/vtu?${q({ to: at(0) })}`)).toEqual([ok.reference]);
    expect(await refsOf(c, `/sandbox/v1/vtu?${q({ from: at(1), reference: held.reference })}`)).toEqual([held.reference]);
    expectInvalid(await c.call("GET", "/sandbox/v1/vtu?status=failed"), ["status"]);
    expectInvalid(await c.call("GET", "/sandbox/v1/vtu?status=SUCCESS"), ["status"]);
  });
});

describe("GET /sandbox/v1/checkout", () => {
  it("lists links newest first as GET /api/v1/checkout/status shows them; expired is derived from the clock", async () => {
    const c = client(await harness().merchant());
    const paid = await c.checkout();
    expect((await c.payLink(paid.reference)).status).toBe(200);
    await c.advance("20m");
    const later = await c.checkout({ amount: 700 });
    const page = await get(c, "/sandbox/v1/checkout");
    expect(page.data.map((l) => l.reference)).toEqual([later.reference, paid.reference]);
    for (const item of page.data) expect(item).toEqual(await c.checkoutStatus(item.reference));
    expect(await refsOf(c, "/sandbox/v1/checkout?status=paid")).toEqual([paid.reference]);
    expect(await refsOf(c, "/sandbox/v1/checkout?status=pending")).toEqual([later.reference]);
    expect(await refsOf(c, "/sandbox/v1/checkout?status=expired")).toEqual([]);
    await c.advance("30m");
    expect(await refsOf(c, "/sandbox/v1/checkout?status=expired")).toEqual([later.reference]);
    expect(await refsOf(c, `/sandbox/v1/checkout?${q({ from: at(60), reference: later.reference })}`)).toEqual([later.reference]);
    expect(await refsOf(c, `/sandbox/v1/checkout?${q({ to: at(60) })}`)).toEqual([paid.reference]);
    expectInvalid(await c.call("GET", "/sandbox/v1/checkout?status=open"), ["status"]);
  });
});

describe("GET /sandbox/v1/virtual-accounts/payments", () => {
  it("lists payments newest first as GET /api/v1/transaction/status shows them; filters by status, narration, account and transaction_id", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const one = (await c.virtualAccount()).account_number;
    const two = (await c.virtualAccount()).account_number;
    const blank = await c.transferIn(one, 100, { narration: "" });
    await c.advance(10);
    const pending = await c.transferIn(two, 200, { narration: " rent ", status: "pending", settle_after_seconds: 600 });
    const failed = await c.transferIn(one, 300, { narration: " rent ", status: "processing", outcome: "failed", settle_after_seconds: 0 });
    await c.advance(0);
    const ids = async (query = "") => (await get(c, `/sandbox/v1/virtual-accounts/payments${query ? `?${query}` : ""}`)).data.map((p) => p.transaction_id);

    const page = await get(c, "/sandbox/v1/virtual-accounts/payments");
    expect(page.data).toEqual([{ ...failed, status: "failed" }, pending, blank]);
    expect(await ids("status=pending")).toEqual([pending.transaction_id]);
    expect(await ids("status=failed")).toEqual([failed.transaction_id]);
    expect(await ids("status=success")).toEqual([blank.transaction_id]);
    expect(await ids("status=processing")).toEqual([]);
    expect(await ids(q({ reference: " rent " }))).toEqual([failed.transaction_id, pending.transaction_id]);
    expect(await ids(q({ reference: "rent" }))).toEqual([]);
    expect(await ids(q({ virtual_account: one }))).toEqual([failed.transaction_id, blank.transaction_id]);
    expect(await ids(q({ transaction_id: blank.transaction_id }))).toEqual([blank.transaction_id]);
    expect(await ids(q({ transaction_id: blank.transaction_id, status: "pending" }))).toEqual([]);
    expect(await ids(q({ transaction_id: "TXN_NONE" }))).toEqual([]);
    expect(await ids(q({ from: at(10), to: at(10), virtual_account: two }))).toEqual([pending.transaction_id]);

    expectInvalid(await c.call("GET", "/sandbox/v1/virtual-accounts/payments?status=cleared"), ["status"]);
    expectInvalid(await c.call("GET", "/sandbox/v1/virtual-accounts/payments?virtual_account=12345"), ["virtual_account"]);
    expectInvalid(await c.call("GET", "/sandbox/v1/virtual-accounts/payments?transaction_id="), ["transaction_id"]);
    expectInvalid(await c.call("GET", `/sandbox/v1/virtual-accounts/payments?${q({ from: at(10), to: at(0) })}`), ["to"]);
  });
});

describe("a large merchant", () => {
  // One pass per request: with 50,000 records, a list that did O(n) work per record (O(n^2)) would take
  // minutes; one pass takes milliseconds. The bound is generous so a slow machine never trips it.
  const N = 50_000;
  const LIMIT_MS = 1_000;

  it(`lists ${N.toLocaleString("en-US")} payouts and payments, first page, last page and filtered, each in one pass`, async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const template = await c.processingPayout({ reference: "tpl" });
    const account = (await c.virtualAccount()).account_number;
    const paid = await c.transferIn(account, 100, { narration: "tpl" });
    const state = c.tenant.state;
    const payout = state.payouts.get(template.reference)!;
    const payment = state.vaPayments.get(paid.transaction_id)!;
    state.payouts.clear();
    state.vaPayments.clear();
    state.vaPaymentsByReference.clear();
    for (let i = 0; i < N; i++) {
      const p: Payout = { ...payout, reference: `po-${i}`, order_no: `PO_${i}`, created_at: payout.created_at + i, status: i % 10 === 0 ? "failed" : "processing" };
      state.payouts.set(p.reference, p);
      const v: VaPayment = { ...payment, transaction_id: `TXN_${i}`, reference: `n-${i % 1000}`, created_at: payment.created_at + i };
      state.vaPayments.set(v.transaction_id, v);
    }
    const timed = async (path: string) => {
      const started = performance.now();
      const page = await get(c, path);
      const ms = performance.now() - started;
      expect(ms, `${path} took ${Math.round(ms)} ms`).toBeLessThan(LIMIT_MS);
      return page;
    };
    expect((await timed("/sandbox/v1/payouts")).data[0].reference).toBe(`po-${N - 1}`);
    expect((await timed(`/sandbox/v1/payouts?per_page=100&page=${N / 100}`)).data.at(-1).reference).toBe("po-0");
    expect((await timed("/sandbox/v1/payouts?status=failed&per_page=100")).pagination.total).toBe(N / 10);
    expect((await timed(`/sandbox/v1/payouts?reference=po-123`)).data.map((p) => p.reference)).toEqual(["po-123"]);
    expect((await timed(`/sandbox/v1/virtual-accounts/payments?reference=n-7&page=50`)).pagination).toEqual({ current_page: 50, per_page: 20, total_pages: 3, total: 50 });
    expect((await timed(`/sandbox/v1/virtual-accounts/payments?transaction_id=TXN_${N - 5}`)).data).toHaveLength(1);
  });
});
