import { describe, expect, it } from "vitest";
import { balanceOf, expectError, expectLedgerConsistent, harness, makeNuban, START, type Merchant } from "./helpers.js";

const iso = (ms: number) => new Date(ms).toISOString();
const GOOD = makeNuban("058", "100200300");
const send = (m: Merchant, reference: string, overrides: Record<string, unknown> = {}) =>
  m.call("POST", "/api/v1/payout/transfer", {
    body: { amount: 10_000, reference, bank_code: "058", account_number: GOOD, account_name: "EZE NGOZI", bank_name: "GTBank", ...overrides },
  });
const status = async (m: Merchant, reference: string) => (await m.call("GET", `/api/v1/payout/status?reference=${reference}`)).body.data;
const advance = (m: Merchant, seconds: number) => m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds } });
const lever = (m: Merchant, reference: string, action: string, body?: unknown) => m.call("POST", `/sandbox/v1/payouts/${reference}/${action}`, { body });

describe("payout settlement on the clock", () => {
  it("processing -> completed after the settlement delay, stamped at the due time", async () => {
    const m = await harness().merchant({ wallet_balance: 50_000 });
    expect((await send(m, "ok")).body.data.status).toBe("processing");
    await advance(m, 29);
    expect(await status(m, "ok")).toMatchObject({ status: "processing", processed_at: null, error: null });
    await advance(m, 3_600); // well past the due time
    expect(await status(m, "ok")).toMatchObject({ status: "completed", processed_at: iso(START + 30_000), source: "api", error: null });
    expect(await balanceOf(m)).toBe(50_000 - 10_100);
    expectLedgerConsistent(m.tenant);
  });

  it("the merchant's delays.payout_settlement_seconds sets the delay", async () => {
    const m = await harness().merchant({ delays: { payout_settlement_seconds: 600 } });
    await send(m, "slow");
    await advance(m, 599);
    expect((await status(m, "slow")).status).toBe("processing");
    await advance(m, 1);
    expect(await status(m, "slow")).toMatchObject({ status: "completed", processed_at: iso(START + 600_000) });
  });

  it("account ending 0001 fails at settlement: amount + fee returned as one reversal entry, error set", async () => {
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const created = await send(m, "bad", { account_number: "0123450001" });
    expect(created.status).toBe(201);
    expect(await balanceOf(m)).toBe(39_900);
    await advance(m, 30);
    expect(await status(m, "bad")).toMatchObject({
      status: "failed",
      processed_at: iso(START + 30_000),
      error: "Transfer failed at the beneficiary bank",
    });
    expect(await balanceOf(m)).toBe(50_000);
    const reversal = m.tenant.state.ledger.at(-1)!;
    expect(reversal).toMatchObject({ kind: "payout_reversal", amount: 1_010_000, transaction_id: created.body.data.order_no, at: START + 30_000 });
    expectLedgerConsistent(m.tenant);
  });

  it("account ending 0000 fails as not found; ending 0002 stays processing until forced", async () => {
    const m = await harness().merchant();
    await send(m, "nf", { account_number: "0123450000" });
    await send(m, "hold", { account_number: "0123450002" });
    await advance(m, 86_400);
    expect(await status(m, "nf")).toMatchObject({ status: "failed", error: "Beneficiary account not found" });
    expect(await status(m, "hold")).toMatchObject({ status: "processing", processed_at: null });
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.pending_timers).toBe(0);
    const done = await lever(m, "hold", "complete");
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ reference: "hold", status: "completed", processed_at: iso(START + 86_400_000) });
    expectLedgerConsistent(m.tenant);
  });
});

describe("payouts held for approval", () => {
  const held = { limits: { payout_review_threshold: 10_000 }, wallet_balance: 100_000 };

  it("pending_approval has no settlement timer; approve -> processing -> completed after the delay from approval", async () => {
    const m = await harness().merchant(held);
    expect((await send(m, "big")).body.data.status).toBe("pending_approval");
    await advance(m, 3_600);
    expect((await status(m, "big")).status).toBe("pending_approval");
    expect(await balanceOf(m)).toBe(100_000 - 10_100); // reserved at creation
    const approved = await lever(m, "big", "approve");
    expect(approved.body.data).toMatchObject({ status: "processing", processed_at: null });
    await advance(m, 30);
    expect(await status(m, "big")).toMatchObject({ status: "completed", processed_at: iso(START + 3_600_000 + 30_000) });
    expectLedgerConsistent(m.tenant);
  });

  it("reject -> failed with the funds returned and a reason", async () => {
    const m = await harness().merchant(held);
    await send(m, "r1");
    await send(m, "r2");
    const rejected = await lever(m, "r1", "reject");
    expect(rejected.body.data).toMatchObject({ status: "failed", error: "Rejected by an administrator", processed_at: iso(START) });
    const custom = await lever(m, "r2", "reject", { reason: "Suspicious beneficiary" });
    expect(custom.body.data.error).toBe("Suspicious beneficiary");
    expect(await balanceOf(m)).toBe(100_000);
    expectLedgerConsistent(m.tenant);
  });
});

describe("forcing payouts and invalid transitions", () => {
  it("fail lever on a processing payout returns the funds and cancels its timer", async () => {
    const m = await harness().merchant({ wallet_balance: 20_000 });
    await send(m, "f1");
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.pending_timers).toBe(1);
    const failed = await lever(m, "f1", "fail", { reason: "Bank timeout" });
    expect(failed.body.data).toMatchObject({ status: "failed", error: "Bank timeout" });
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.pending_timers).toBe(0);
    expect(await balanceOf(m)).toBe(20_000);
    await advance(m, 60);
    expect((await status(m, "f1")).status).toBe("failed");
    expect(m.tenant.state.ledger.filter((e) => e.kind === "payout_reversal")).toHaveLength(1);
    expectLedgerConsistent(m.tenant);
  });

  it("every transition the state does not allow is 409 INVALID_STATE naming the current state", async () => {
    const m = await harness().merchant({ limits: { payout_review_threshold: 50_000 } });
    await send(m, "done");
    await lever(m, "done", "complete");
    await send(m, "held", { amount: 60_000 });
    await send(m, "proc");
    for (const [ref, action, state] of [
      ["done", "approve", "completed"],
      ["done", "complete", "completed"],
      ["done", "fail", "completed"],
      ["done", "reject", "completed"],
      ["held", "complete", "pending_approval"],
      ["held", "fail", "pending_approval"],
      ["proc", "approve", "processing"],
      ["proc", "reject", "processing"],
    ] as const) {
      const body = expectError(await lever(m, ref, action), 409, "INVALID_STATE");
      expect(body.message).toContain(state);
    }
    await lever(m, "proc", "fail");
    expect(expectError(await lever(m, "proc", "complete"), 409, "INVALID_STATE").message).toContain("failed");
    expectError(await lever(m, "nope", "approve"), 404, "NOT_FOUND");
    expectLedgerConsistent(m.tenant);
  });
});

describe("payout outcome rules", () => {
  it("failed with delay_seconds, matched by reference, consumed by times", async () => {
    const m = await harness().merchant();
    const rule = await m.call("POST", "/sandbox/v1/outcomes", {
      body: { target: "payout", match: { reference: "doomed" }, outcome: "failed", delay_seconds: 120, times: 1 },
    });
    expect(rule.status).toBe(201);
    await send(m, "fine");
    await send(m, "doomed");
    await advance(m, 119);
    expect((await status(m, "fine")).status).toBe("completed");
    expect((await status(m, "doomed")).status).toBe("processing");
    await advance(m, 1);
    expect(await status(m, "doomed")).toMatchObject({ status: "failed", processed_at: iso(START + 120_000) });
    expect((await m.call("GET", "/sandbox/v1/outcomes")).body.data).toEqual([]);
  });

  it("processing holds until forced; the newest matching rule wins; completed overrides a magic account", async () => {
    const m = await harness().merchant();
    await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", outcome: "processing" } });
    await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", match: { account_number: "0123450001" }, outcome: "completed" } });
    await send(m, "magic", { account_number: "0123450001" });
    await send(m, "held");
    await advance(m, 86_400);
    expect((await status(m, "magic")).status).toBe("completed");
    expect((await status(m, "held")).status).toBe("processing");
  });

  it("a failed payout no longer counts toward the hourly amount limit", async () => {
    const m = await harness().merchant({ limits: { payout_hourly_amount: 15_000 } });
    await send(m, "a", { account_number: "0123450001" });
    expectError(await send(m, "b"), 422, "HOURLY_LIMIT_EXCEEDED");
    await advance(m, 30); // "a" fails and gives its amount back
    expect((await send(m, "b")).status).toBe(201);
  });
});
