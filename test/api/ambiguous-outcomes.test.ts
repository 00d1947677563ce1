/**
 * Ambiguous outcomes: a money-moving request commits and then its answer is lost (the
 * connection is reset), late (a slow response) or a 5xx; a processing payout that fails hours later;
 * payouts and VTU purchases that settle only on their Nth status read; a bank that is down for a
 * window of sim time; a name enquiry that times out. For each, the safe client path holds: the status
 * by reference shows what happened, and a re-send with the same reference is refused (409 carrying the
 * payout) without a second debit.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { LATE_FAILURE_MS } from "../../src/domain/outcomes.js";
import { ConnectionReset, gatewayTimeoutMessage, INTERNAL_ERROR_MESSAGE } from "../../src/http/errors.js";
import { at, client, payoutBody, PAYOUT_ACCOUNT, type PayoutBody, type TestClient } from "../client.js";
import { closedAfterEach, closeServer, expectError, expectLedgerConsistent, harness, httpCall, makeNuban, until, type Harness, type Reply } from "../helpers.js";

const TRANSFER = "/api/v1/payout/transfer";
const ACCESS = "044";
const ACCESS_ACCOUNT = makeNuban(ACCESS, "069876543");
/** Magic GTBank test accounts, by what they do (README magic values). */
const RESET = "0123450006";
const SLOW = "0123450007";
const SERVER_ERROR = "0123450008";
const GATEWAY = "0123450009";
const FAILS_LATE = "0123450003";
const COMPLETES_ON_READ = "0123450004";
const FAILS_ON_READ = "0123450005";
const ENQUIRY_TIMES_OUT = "0123450010";

const closedAfter = closedAfterEach((server: ServerType) => closeServer(server as Server));

/** The harness's app served on a port-0 socket at 127.0.0.1 (stopped after the test): its base URL. */
async function served(h: Harness): Promise<string> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: h.app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  closedAfter(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const verify = (c: TestClient, account_number: string, bank_code = "058") =>
  c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code, account_number } });

/** The ledger entries a payout's order_no made, as [kind, minor amount]. */
const entriesOf = (c: TestClient, orderNo: string) => c.tenant.state.ledger.filter((e) => e.transaction_id === orderNo).map((e) => [e.kind, e.amount]);

/**
 * The safe path after an answer the client never got (or got as a 5xx): the status by the reference it
 * chose shows the payout, debited once; a re-send with the same reference is 409 DUPLICATE_REFERENCE
 * whose data is that status record, and moves no money. Returns the status record.
 */
async function expectSafePath(c: TestClient, body: Partial<PayoutBody> & { reference: string }, balanceAfterOneDebit: number) {
  const status = await c.payoutStatus(body.reference);
  expect(status).toMatchObject({ reference: body.reference, status: "processing", amount: body.amount ?? 5_000, processed_at: null, error: null });
  expect(entriesOf(c, status.order_no)).toEqual([
    ["payout", -(body.amount ?? 5_000) * 100],
    ["payout_fee", -status.fee * 100],
  ]);
  expect(await c.balance()).toBe(balanceAfterOneDebit);
  const retry = await c.payout(body);
  const refused = expectError(retry, 409, "DUPLICATE_REFERENCE") as { data?: unknown };
  expect(refused.data).toEqual(await c.payoutStatus(body.reference));
  expect(await c.balance()).toBe(balanceAfterOneDebit);
  expect([...c.tenant.state.payouts.keys()].filter((r) => r === body.reference)).toHaveLength(1);
  expectLedgerConsistent(c.tenant);
  return status;
}

describe("connection_reset: the transfer is made, then the connection is reset", () => {
  it("magic account 0006 over app.request(): the call rejects with ConnectionReset; the payout exists, debited once; a same-reference retry is 409 with the payout", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const body = { reference: "lost-1", account_number: RESET };
    await expect(c.payout(body)).rejects.toBeInstanceOf(ConnectionReset);
    await expectSafePath(c, body, 100_000 - 5_050);
    // It then settles as usual, once.
    await c.advance("30s");
    expect(await c.payoutStatus("lost-1")).toMatchObject({ status: "completed", processed_at: at(30) });
    expect((await c.events("payout.completed")).map((e) => e.data)).toEqual([expect.objectContaining({ reference: "lost-1", status: "completed" })]);
    expect(await c.balance()).toBe(100_000 - 5_050);
  });

  it("a response rule resets any matching transfer; its `times` counts down and then the rule is gone", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    await c.rule({ target: "response", match: { operation: "createPayout" }, outcome: "connection_reset", times: 2 });
    await expect(c.payout({ reference: "r-1" })).rejects.toBeInstanceOf(ConnectionReset);
    expect((await c.rules()).map((r) => r.times)).toEqual([1]);
    await expect(c.payout({ reference: "r-2" })).rejects.toBeInstanceOf(ConnectionReset);
    expect(await c.rules()).toEqual([]);
    const third = await c.payout({ reference: "r-3" });
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    // Both lost answers were real payouts.
    await expectSafePath(c, { reference: "r-1" }, 100_000 - 3 * 5_050);
    expect((await c.payoutStatus("r-2")).status).toBe("processing");
  });

  it("a rule matching a field of the request resets only the transfer it names", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    await c.rule({ target: "response", match: { operation: "createPayout", reference: "only-this" }, outcome: "connection_reset" });
    expect((await c.payout({ reference: "another" })).status).toBe(201);
    await expect(c.payout({ reference: "only-this" })).rejects.toBeInstanceOf(ConnectionReset);
    expect((await c.payoutStatus("only-this")).status).toBe("processing");
  });

  it("over a real socket (magic 0006 and a response rule) the client sees the connection reset, and the status over HTTP shows the payout", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 100_000 }));
    const base = await served(h);
    const send = (body: Partial<PayoutBody>) => httpCall(base, "POST", TRANSFER, { keys: c.merchant.keys, body: payoutBody(body) });
    const reset = /connection was dropped.*(ECONNRESET|other side closed|socket hang up)/;

    await expect(send({ reference: "sock-1", account_number: RESET })).rejects.toThrow(reset);
    await c.rule({ target: "response", match: { operation: "createPayout" }, outcome: "connection_reset", times: 1 });
    await expect(send({ reference: "sock-2" })).rejects.toThrow(reset);

    for (const reference of ["sock-1", "sock-2"]) {
      const status = await httpCall(base, "GET", `/api/v1/payout/status?reference=${reference}`, { keys: c.merchant.keys });
      expect(status.status, status.text).toBe(200);
      expect(status.body.data).toMatchObject({ reference, status: "processing", total_deducted: 5_050 });
      const retry = await send({ reference, account_number: reference === "sock-1" ? RESET : PAYOUT_ACCOUNT });
      expect(retry.status, retry.text).toBe(409);
      expect(retry.body).toMatchObject({ success: false, error_code: "DUPLICATE_REFERENCE", data: status.body.data });
    }
    // The rule was used up: the next transfer answers.
    expect((await send({ reference: "sock-3" })).status).toBe(201);
    expect(await c.balance()).toBe(100_000 - 3 * 5_050);
    expectLedgerConsistent(c.tenant);
  });
});

describe("slow_response: the transfer is made, the answer comes late", () => {
  it("a rule with delay_seconds 1: the payout is saved at once, the 201 arrives only after the delay", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    await c.rule({ target: "response", match: { operation: "createPayout", reference: "late-1" }, outcome: "slow_response", delay_seconds: 1, times: 1 });
    const started = performance.now();
    let answered = false;
    const pending = c.payout({ reference: "late-1" }).then((res) => {
      answered = true;
      return res;
    });
    // The change is made before the answer is held back.
    await new Promise((next) => setTimeout(next, 100));
    expect(c.tenant.state.payouts.get("late-1")?.status).toBe("processing");
    // The merchant is not held up meanwhile: the status by reference answers while the 201 is still held back.
    expect(await c.payoutStatus("late-1")).toMatchObject({ reference: "late-1", status: "processing" });
    expect(answered).toBe(false);
    const res = await pending;
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ reference: "late-1", status: "processing", total_deducted: 5_050 });
    expect(await c.balance()).toBe(100_000 - 5_050);
    // Without the rule (used once), answers are immediate.
    const quick = performance.now();
    expect((await c.payout({ reference: "late-2" })).status).toBe(201);
    expect(performance.now() - quick).toBeLessThan(500);
  });

  it("a client with a shorter time-out gives up (rule and magic 0007 alike); the payout was made anyway, debited once", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 100_000 }));
    const base = await served(h);
    await c.rule({ target: "response", match: { operation: "createPayout", reference: "slow-rule" }, outcome: "slow_response", delay_seconds: 1 });
    const send = (body: Partial<PayoutBody>) =>
      fetch(`${base}${TRANSFER}`, {
        method: "POST",
        headers: { ...c.merchant.keys, "content-type": "application/json" },
        body: JSON.stringify(payoutBody(body)),
        signal: AbortSignal.timeout(250),
      });
    const started = performance.now();
    await expect(send({ reference: "slow-rule" })).rejects.toMatchObject({ name: "TimeoutError" });
    await expect(send({ reference: "slow-magic", account_number: SLOW })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(performance.now() - started).toBeLessThan(1_500);
    await expectSafePath(c, { reference: "slow-rule" }, 100_000 - 2 * 5_050);
    await expectSafePath(c, { reference: "slow-magic", account_number: SLOW }, 100_000 - 2 * 5_050);
  });
});

describe("server_error and gateway_timeout: the transfer is made, the answer is a 5xx", () => {
  for (const [outcome, account, status, code, message] of [
    ["server_error", SERVER_ERROR, 500, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE],
    ["gateway_timeout", GATEWAY, 504, "GATEWAY_TIMEOUT", gatewayTimeoutMessage("createPayout")],
  ] as const) {
    it(`${outcome}: ${status} ${code} with request_id and message (magic ${account.slice(-4)} and a rule); the payout exists, debited once`, async () => {
      const c = client(await harness().merchant({ wallet_balance: 100_000 }));
      const expect5xx = (res: Reply) => {
        const body = expectError(res, status, code) as { request_id?: string; message: string };
        expect(body.message).toBe(message);
        expect(body.request_id).toMatch(/\S+/);
        expect(res.headers.get("x-request-id")).toBe(body.request_id);
        expect(body).not.toHaveProperty("data");
      };
      expect5xx(await c.payout({ reference: "magic-5xx", account_number: account }));
      await expectSafePath(c, { reference: "magic-5xx", account_number: account }, 100_000 - 5_050);

      await c.rule({ target: "response", match: { operation: "createPayout", reference: "rule-5xx" }, outcome, times: 1 });
      expect5xx(await c.payout({ reference: "rule-5xx" }));
      await expectSafePath(c, { reference: "rule-5xx" }, 100_000 - 2 * 5_050);
      expect(await c.rules()).toEqual([]);
      // Both settle as usual.
      await c.advance("30s");
      expect((await c.events("payout.completed")).map((e) => e.data.reference).sort()).toEqual(["magic-5xx", "rule-5xx"]);
    });
  }
});

describe("a refused request is not faulted", () => {
  it("a validation error and an insufficient balance answer as usual and leave the response rule unused; the next accepted transfer is faulted", async () => {
    const c = client(await harness().merchant({ wallet_balance: 6_000 }));
    const rule = await c.rule({ target: "response", match: { operation: "createPayout" }, outcome: "connection_reset", times: 1 });
    expectError(await c.call("POST", TRANSFER, { body: { amount: -1 } }), 422, "VALIDATION_ERROR");
    expectError(await c.payout({ reference: "too-much", amount: 10_000 }), 422, "INSUFFICIENT_BALANCE");
    expectError(await c.payout({ reference: "bad-name", account_name: "JOHN DOE" }), 422, "ACCOUNT_NAME_MISMATCH");
    expect(await c.rules()).toEqual([rule]);
    expect(c.tenant.state.payouts.size).toBe(0);
    expect(await c.balance()).toBe(6_000);
    await expect(c.payout({ reference: "fits" })).rejects.toBeInstanceOf(ConnectionReset);
    expect(await c.rules()).toEqual([]);
    expect((await c.payoutStatus("fits")).status).toBe("processing");
  });

  it("a duplicate-reference retry under a standing 5xx rule still gets its 409 with the payout", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    expect((await c.payout({ reference: "first" })).status).toBe(201);
    await c.rule({ target: "response", match: { operation: "createPayout" }, outcome: "server_error" });
    const dup = expectError(await c.payout({ reference: "first" }), 409, "DUPLICATE_REFERENCE") as { data?: unknown };
    expect(dup.data).toEqual(await c.payoutStatus("first"));
    expect(await c.balance()).toBe(100_000 - 5_050);
  });
});

describe("a processing payout fails late", () => {
  it("magic 0003 fails 2 hours after it started processing: funds returned and payout.failed sent then, not before", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000, webhook_capture: {} }));
    const created = await c.processingPayout({ reference: "late-fail", account_number: FAILS_LATE });
    expect(LATE_FAILURE_MS).toBe(2 * 3_600_000);
    await c.advance(LATE_FAILURE_MS / 1000 - 1);
    expect(await c.payoutStatus("late-fail")).toMatchObject({ status: "processing", processed_at: null, error: null });
    expect(await c.balance()).toBe(100_000 - 5_050);
    expect(await c.events("payout.failed")).toEqual([]);
    await c.advance(1);
    expect(await c.payoutStatus("late-fail")).toMatchObject({ status: "failed", processed_at: at(7_200), error: "Transfer reversed by the beneficiary bank" });
    expect(await c.balance()).toBe(100_000);
    expect(entriesOf(c, created.order_no)).toEqual([
      ["payout", -500_000],
      ["payout_fee", -5_000],
      ["payout_reversal", 505_000],
    ]);
    const failed = await c.events("payout.failed");
    expect(failed.map((e) => e.data)).toEqual([
      expect.objectContaining({ reference: "late-fail", status: "failed", error: "Transfer reversed by the beneficiary bank", processed_at: at(7_200) }),
    ]);
    expect((await c.deliveries(failed[0]!.id)).map((d) => d.outcome)).toEqual(["delivered"]);
    expect(await c.events("payout.completed")).toEqual([]);
    expectLedgerConsistent(c.tenant);
  });

  it("a payout rule failed with delay_seconds fails at its time with the refund and payout.failed", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    await c.rule({ target: "payout", match: { reference: "later" }, outcome: "failed", delay_seconds: 5_400, times: 1 });
    await c.processingPayout({ reference: "later" });
    await c.advance("89m");
    expect((await c.payoutStatus("later")).status).toBe("processing");
    expect(await c.events("payout.failed")).toEqual([]);
    await c.advance("60s");
    expect(await c.payoutStatus("later")).toMatchObject({ status: "failed", processed_at: at(5_400) });
    expect(await c.balance()).toBe(100_000);
    expect((await c.events("payout.failed")).map((e) => e.data.reference)).toEqual(["later"]);
  });
});

describe("settles on the Nth status read", () => {
  const read = async (c: TestClient, reference: string, times: number) => {
    const seen: string[] = [];
    for (let i = 0; i < times; i++) seen.push((await c.payoutStatus(reference)).status);
    return seen;
  };

  it("magic 0004 stays processing with no timer however long, and completes on the 3rd read with its webhook; later reads change nothing", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000, webhook_capture: {} }));
    await c.processingPayout({ reference: "q-ok", account_number: COMPLETES_ON_READ });
    expect((await c.clock()).pending_timers).toBe(0);
    await c.advance("1d");
    expect(await read(c, "q-ok", 2)).toEqual(["processing", "processing"]);
    expect(await c.events("payout.completed")).toEqual([]);
    expect(await c.payoutStatus("q-ok")).toMatchObject({ status: "completed", processed_at: at(86_400), error: null });
    // The read that settled it also sends the webhook, with no clock advance to drain it.
    await until(() => c.tenant.state.deliveries.some((d) => d.event_type === "payout.completed" && d.outcome === "delivered"), "payout.completed delivered");
    expect(await read(c, "q-ok", 2)).toEqual(["completed", "completed"]);
    expect((await c.events("payout.completed")).map((e) => e.data.reference)).toEqual(["q-ok"]);
    expect(await c.balance()).toBe(100_000 - 5_050);
  });

  it("magic 0005 fails on the 3rd read with the refund and payout.failed", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    await c.processingPayout({ reference: "q-bad", account_number: FAILS_ON_READ });
    expect(await read(c, "q-bad", 2)).toEqual(["processing", "processing"]);
    expect(await c.balance()).toBe(100_000 - 5_050);
    expect(await c.payoutStatus("q-bad")).toMatchObject({ status: "failed", error: "Transfer failed at the beneficiary bank", processed_at: at(0) });
    expect(await c.balance()).toBe(100_000);
    expect((await c.events("payout.failed")).map((e) => e.data.reference)).toEqual(["q-bad"]);
    expectLedgerConsistent(c.tenant);
  });

  it("a payout rule with queries: 2 completes on the 2nd read", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const rule = await c.rule({ target: "payout", match: { reference: "q-2" }, outcome: "completed", queries: 2, times: 1 });
    expect(rule.queries).toBe(2);
    await c.processingPayout({ reference: "q-2" });
    await c.advance("1h");
    expect(await read(c, "q-2", 3)).toEqual(["processing", "completed", "completed"]);
    expect((await c.events("payout.completed")).map((e) => e.data.reference)).toEqual(["q-2"]);
  });

  it("a VTU purchase stays processing until its Nth requery: magic 08077777777 fails (refunded) on the 3rd, a vtu rule with queries: 2 succeeds on the 2nd", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const requery = async (reference: string) => {
      const res = await c.call("GET", `/api/v1/vtu/transaction/status?reference=${encodeURIComponent(reference)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.status as string;
    };
    const magic = await c.airtime({ phone: "08077777777", amount: 1_000 });
    expect(magic.body).toMatchObject({ status: "processing", success: true });
    await c.advance("1d"); // time alone does not settle it
    expect(await c.balance()).toBe(9_000);
    expect([await requery(magic.body.reference), await requery(magic.body.reference)]).toEqual(["Processing", "Processing"]);
    expect(await c.balance()).toBe(9_000);
    expect(await requery(magic.body.reference)).toBe("Failed");
    expect(await c.balance()).toBe(10_000);

    await c.rule({ target: "vtu", match: { phone: "08031234567" }, outcome: "processing_success", queries: 2, times: 1 });
    const ruled = await c.airtime({ phone: "08031234567", amount: 500 });
    expect(ruled.body.status).toBe("processing");
    expect([await requery(ruled.body.reference), await requery(ruled.body.reference), await requery(ruled.body.reference)]).toEqual([
      "Processing",
      "Success",
      "Success",
    ]);
    expect(await c.balance()).toBe(9_500);
    expectLedgerConsistent(c.tenant);
  });
});

describe("a bank that is down for a window of sim time", () => {
  it("on a manual clock: verify-account and transfers to it are 503 BANK_UNAVAILABLE, retry_after in sim seconds without a Retry-After header, nothing debited; other banks work; advancing exactly retry_after gets through", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const rule = await c.rule({ target: "bank", match: { bank_code: "058" }, outcome: "down", window_seconds: 600 });
    expect(rule.active_until).toBe(at(600));

    const enquiry = await verify(c, PAYOUT_ACCOUNT);
    const refused = expectError(enquiry, 503, "BANK_UNAVAILABLE");
    expect(refused.retry_after).toBe(600);
    expect(enquiry.headers.get("retry-after")).toBeNull();
    expect(refused.message).toContain("advance the clock by 600 seconds (POST /sandbox/v1/clock/advance)");
    expect(refused.message).toContain("Guaranty Trust Bank (058)");

    expect((await verify(c, ACCESS_ACCOUNT, ACCESS)).status).toBe(200);
    expect((await c.payout({ reference: "to-access", bank_code: ACCESS, account_number: ACCESS_ACCOUNT })).status).toBe(201);

    await c.advance("4m");
    const transfer = await c.payout({ reference: "refund-88" });
    const down = expectError(transfer, 503, "BANK_UNAVAILABLE");
    expect(down.retry_after).toBe(360);
    expect(transfer.headers.get("retry-after")).toBeNull();
    expect(down.message).toContain("advance the clock by 360 seconds");
    expect(await c.balance()).toBe(100_000 - 5_050);
    expectError(await c.call("GET", "/api/v1/payout/status?reference=refund-88"), 404, "NOT_FOUND");
    expect(c.tenant.state.payouts.has("refund-88")).toBe(false);

    await c.advance(down.retry_after! - 1);
    expect(expectError(await c.payout({ reference: "refund-88" }), 503, "BANK_UNAVAILABLE").retry_after).toBe(1);
    await c.advance(1);
    expect((await verify(c, PAYOUT_ACCOUNT)).status).toBe(200);
    const sent = await c.payout({ reference: "refund-88" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(await c.balance()).toBe(100_000 - 2 * 5_050);
    expectLedgerConsistent(c.tenant);
  });

  it("on a realtime clock (speed 60): retry_after is real seconds, the Retry-After header says the same, and waiting exactly that long gets through", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 100_000, clock: { mode: "realtime", speed: 60 } }));
    await c.rule({ target: "bank", match: { bank_code: "058" }, outcome: "down", window_seconds: 600 });
    const first = await verify(c, PAYOUT_ACCOUNT);
    const body = expectError(first, 503, "BANK_UNAVAILABLE");
    expect(body.retry_after).toBe(10); // 600 sim seconds at 60x
    expect(first.headers.get("retry-after")).toBe("10");
    expect(body.message).toMatch(/ Retry in 10 s\.$/);

    h.wall.now += 4_000;
    const transfer = await c.payout({ reference: "rt-1" });
    expect(expectError(transfer, 503, "BANK_UNAVAILABLE").retry_after).toBe(6);
    expect(transfer.headers.get("retry-after")).toBe("6");
    expect(await c.balance()).toBe(100_000);

    h.wall.now += 5_000;
    expectError(await verify(c, PAYOUT_ACCOUNT), 503, "BANK_UNAVAILABLE");
    h.wall.now += 1_000;
    expect((await verify(c, PAYOUT_ACCOUNT)).status).toBe(200);
    expect((await c.payout({ reference: "rt-1" })).status).toBe(201);
  });
});

describe("name enquiry times out", () => {
  it("magic account 0010: 504 GATEWAY_TIMEOUT with request_id, every time; no name given", async () => {
    const c = client(await harness().merchant());
    for (let i = 0; i < 2; i++) {
      const res = await verify(c, ENQUIRY_TIMES_OUT);
      const body = expectError(res, 504, "GATEWAY_TIMEOUT") as { message: string; request_id?: string };
      expect(body.message).toContain("timed out");
      expect(body.request_id).toMatch(/\S+/);
      expect(res.body).not.toHaveProperty("data");
    }
    expect((await verify(c, PAYOUT_ACCOUNT)).status).toBe(200);
  });

  it("a verify_account rule `timeout` (times 1, delay_seconds 1): the 504 comes after the wall-clock delay, then the account resolves", async () => {
    const c = client(await harness().merchant());
    await c.rule({ target: "verify_account", match: { account_number: PAYOUT_ACCOUNT }, outcome: "timeout", delay_seconds: 1, times: 1 });
    expect((await verify(c, ACCESS_ACCOUNT, ACCESS)).status).toBe(200); // another account is not matched
    const started = performance.now();
    expectError(await verify(c, PAYOUT_ACCOUNT), 504, "GATEWAY_TIMEOUT");
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    const again = await verify(c, PAYOUT_ACCOUNT);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ account_number: PAYOUT_ACCOUNT, account_name: payoutBody().account_name, bank_code: "058" });
    expect(await c.rules()).toEqual([]);
  });
});
