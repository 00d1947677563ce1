/**
 * Integration checks through the API (GET /sandbox/v1/checks, PUT and DELETE /sandbox/v1/checks/credits):
 * a merchant's code making each mistake over /api/v1 and with a real webhook receiver fires the rule
 * that names it, with the request (by its seq in the request log) or the delivery as evidence; a
 * correct integration fires none.
 */
import { describe, expect, it } from "vitest";
import { buildRegistry } from "../../src/server.js";
import { DEMO_CHECKS_REPORT } from "../../src/sandbox/checks/routes.js";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { client, PAYOUT_ACCOUNT, type TestClient } from "../client.js";
import { DEMO_KEYS, expectError, harness, makeNuban, receivers, type Merchant } from "../helpers.js";
import { neverAnswer, startReceiver, type Received } from "../receiver.js";

const receiver = receivers();

interface Rule {
  id: string;
  status: string;
  severity: string;
  occurrences: number;
  evidence: { requests: Array<{ seq: number; status: number | null; note: string }>; deliveries: Array<{ id: string; note: string }>; transactions: Array<{ transaction_id: string; note: string }> };
}

async function report(c: TestClient) {
  const res = await c.call("GET", "/sandbox/v1/checks");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { summary: Record<string, unknown>; examined: Record<string, unknown>; rules: Rule[] };
}

async function rule(c: TestClient, id: string): Promise<Rule> {
  const found = (await report(c)).rules.find((r) => r.id === id);
  expect(found, id).toBeDefined();
  return found!;
}

/** The seq the request log gave the merchant's last /api/v1 request. */
const lastSeq = (m: Merchant) => m.tenant.requestLog.all().at(-1)!.seq;

const fresh = async (settings: Record<string, unknown> = {}) => client(await harness().merchant({ wallet_balance: 1_000_000, ...settings }));

const verify = (c: TestClient, account = PAYOUT_ACCOUNT) => c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: account } });

/** The evidence's request seqs of a fired rule. */
async function firedOn(c: TestClient, id: string): Promise<number[]> {
  const r = await rule(c, id);
  expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe("fired");
  return r.evidence.requests.map((e) => e.seq);
}

describe("a crafted integration fires each rule on its mistake", () => {
  it("transfer-to-unverified-account, transfer-without-own-reference", async () => {
    const c = await fresh();
    await c.payout(); // no name enquiry, no reference
    const blind = lastSeq(c.merchant);
    await verify(c);
    await c.payout({ reference: "inv-2" });
    expect(await firedOn(c, "transfer-to-unverified-account")).toEqual([blind]);
    expect(await firedOn(c, "transfer-without-own-reference")).toEqual([blind]);
  });

  it("payout-retried-with-new-reference: a 500 after the transfer was made, then a new reference", async () => {
    const c = await fresh();
    const account = "0123450008"; // made, then answered 500
    await verify(c, account);
    expectError(await c.payout({ account_number: account, reference: "inv-1" }), 500, "INTERNAL_ERROR");
    const first = lastSeq(c.merchant);
    expectError(await c.payout({ account_number: account, reference: "inv-1-again" }), 500, "INTERNAL_ERROR");
    const retry = lastSeq(c.merchant);
    const r = await rule(c, "payout-retried-with-new-reference");
    expect(r).toMatchObject({ status: "fired", severity: "error", occurrences: 1 });
    expect(r.evidence.requests).toMatchObject([{ seq: retry, status: 500, note: expect.stringContaining(`#${first} (500 INTERNAL_ERROR)`) }]);
    // Two payouts exist: the pattern the rule names did pay twice.
    expect([...c.tenant.state.payouts.keys()]).toEqual(["inv-1", "inv-1-again"]);
  });

  it("purchase-retried-after-unclear-answer: airtime bought again after a 500", async () => {
    const c = await fresh();
    await c.rule({ target: "response", match: { operation: "buyAirtime" }, outcome: "server_error", times: 1 });
    expectError(await c.airtime(), 500, "INTERNAL_ERROR");
    expect((await c.airtime()).status).toBe(200);
    expect(await firedOn(c, "purchase-retried-after-unclear-answer")).toEqual([lastSeq(c.merchant)]);
  });

  it("status-polled-too-fast and final-status-polled-again", async () => {
    const c = await fresh();
    await verify(c);
    await c.processingPayout({ reference: "inv-1" });
    await c.payoutStatus("inv-1");
    await c.payoutStatus("inv-1"); // no time passed on either clock
    const fast = lastSeq(c.merchant);
    await c.advance("30s");
    await c.payoutStatus("inv-1"); // completed
    await c.advance("1m");
    await c.payoutStatus("inv-1"); // again, once final
    expect(await firedOn(c, "status-polled-too-fast")).toEqual([fast]);
    expect(await firedOn(c, "final-status-polled-again")).toEqual([lastSeq(c.merchant)]);
  });

  it("checkout-polled-after-expiry", async () => {
    const c = await fresh();
    const link = await c.checkout();
    await c.advance("31m");
    expect((await c.checkoutStatus(link.reference)).status).toBe("expired");
    await c.advance("1m");
    await c.checkoutStatus(link.reference);
    expect(await firedOn(c, "checkout-polled-after-expiry")).toEqual([lastSeq(c.merchant)]);
  });

  it("amount-with-more-than-two-decimals", async () => {
    const c = await fresh();
    expectError(await c.airtime({ amount: 100 * 1.1 }), 422, "VALIDATION_ERROR");
    const r = await rule(c, "amount-with-more-than-two-decimals");
    expect(r.evidence.requests).toMatchObject([{ seq: lastSeq(c.merchant), status: 422, note: "amount 110.00000000000001" }]);
  });

  it("secret-key-in-browser", async () => {
    const c = await fresh();
    await c.call("GET", "/api/v1/wallet/balance", { headers: { origin: "http://localhost:5173" } });
    const r = await rule(c, "secret-key-in-browser");
    expect(r.evidence.requests).toMatchObject([{ seq: lastSeq(c.merchant), note: expect.stringContaining("Origin: http://localhost:5173") }]);
  });

  it("refused-request-repeated-unchanged and transfer-names-not-from-lookups", async () => {
    const c = await fresh();
    expectError(await c.payout({ reference: "inv-1", account_name: "JOHN DOE" }), 422, "ACCOUNT_NAME_MISMATCH");
    const first = lastSeq(c.merchant);
    expectError(await c.payout({ reference: "inv-1", account_name: "JOHN DOE" }), 422, "ACCOUNT_NAME_MISMATCH");
    expect(await firedOn(c, "refused-request-repeated-unchanged")).toEqual([lastSeq(c.merchant)]);
    expect(await firedOn(c, "transfer-names-not-from-lookups")).toEqual([first, lastSeq(c.merchant)]);
  });

  it("retried-before-retry-after: the payout cap's retry_after, on a manual clock", async () => {
    const c = await fresh({ limits: { payout_attempts_per_hour: 1 } });
    await verify(c);
    await c.processingPayout({ reference: "inv-1" });
    expectError(await c.payout({ reference: "inv-2" }), 429, "RATE_LIMITED");
    expectError(await c.payout({ reference: "inv-2" }), 429, "RATE_LIMITED"); // at once, without advancing
    expect(await firedOn(c, "retried-before-retry-after")).toEqual([lastSeq(c.merchant)]);
  });

  it("request-from-ip-not-allowlisted", async () => {
    const c = await fresh({ ip_allowlist: ["10.0.0.7"] });
    expectError(await c.call("GET", "/api/v1/wallet/balance", { ip: "192.0.2.1" }), 403, "IP_NOT_WHITELISTED");
    const r = await rule(c, "request-from-ip-not-allowlisted");
    expect(r.evidence.requests).toMatchObject([{ seq: lastSeq(c.merchant), status: 403, note: "From 192.0.2.1." }]);
  });

  it("webhook-answered-error, webhook-answered-slowly, webhook-unreachable", async () => {
    const failing = await receiver(() => ({ status: 500, body: "boom" }));
    const c = await fresh({ webhook_url: failing.url, webhook: { retry_schedule_seconds: [] } });
    await c.transferIn((await c.virtualAccount()).account_number);
    await c.flush();
    const [failed] = await c.deliveries();
    expect((await rule(c, "webhook-answered-error")).evidence.deliveries).toMatchObject([{ id: failed!.id, note: "HTTP 500: boom" }]);

    const silent = await receiver(neverAnswer);
    const slow = await fresh({ webhook_url: silent.url, webhook: { timeout_seconds: 0.2, retry_schedule_seconds: [] } });
    await slow.transferIn((await slow.virtualAccount()).account_number);
    await slow.flush();
    expect((await rule(slow, "webhook-answered-slowly")).evidence.deliveries).toMatchObject([{ note: "Timed out after 0.2 s" }]);

    const closed = await startReceiver();
    await closed.close();
    const gone = await fresh({ webhook_url: closed.url, webhook: { retry_schedule_seconds: [] } });
    await gone.transferIn((await gone.virtualAccount()).account_number);
    await gone.flush();
    expect((await rule(gone, "webhook-unreachable")).evidence.deliveries).toMatchObject([{ note: expect.stringContaining("ECONNREFUSED") }]);
  });

  it("webhook-accepted-bad-signature and webhook-receiver-missing", async () => {
    const trusting = await receiver(); // 200 to anything
    const c = await fresh({ webhook_url: trusting.url });
    await c.rule({ target: "webhook", outcome: "bad_signature", times: 1 });
    await c.transferIn((await c.virtualAccount()).account_number);
    await c.flush();
    const [accepted] = await c.deliveries();
    expect((await rule(c, "webhook-accepted-bad-signature")).evidence.deliveries).toMatchObject([{ id: accepted!.id }]);

    const deaf = await fresh();
    const payment = await deaf.transferIn((await deaf.virtualAccount()).account_number);
    expect((await rule(deaf, "webhook-receiver-missing")).evidence.transactions).toMatchObject([{ transaction_id: payment.transaction_id }]);
  });

  it("transaction-credited-twice, delivered-payment-not-credited, credit-without-payment: from the merchant's reported credits", async () => {
    const r = await receiver();
    const c = await fresh({ webhook_url: r.url });
    await c.rule({ target: "webhook", outcome: "duplicate", times: 1 });
    const account = (await c.virtualAccount()).account_number;
    const paid = await c.transferIn(account, 5_000);
    const forgotten = await c.transferIn(account, 2_500);
    await c.flush();
    // A receiver that credits per delivery: the duplicate is credited too, and the second payment is lost.
    const credited = r.received.filter((x) => x.body.data.transaction_id === paid.transaction_id).map((x) => x.body.data.transaction_id as string);
    expect(credited).toHaveLength(2);
    const put = await c.call("PUT", "/sandbox/v1/checks/credits", { body: { transaction_ids: [...credited, "TXN_FORGED"] } });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ credits: 3, transactions: 2, reported_at: expect.any(String) });

    expect((await rule(c, "transaction-credited-twice")).evidence.transactions).toEqual([{ transaction_id: paid.transaction_id, note: "Credited 2 times." }]);
    const lost = await rule(c, "delivered-payment-not-credited");
    expect(lost.evidence.deliveries).toHaveLength(1);
    expect(lost.evidence.deliveries[0]!.note).toContain(forgotten.transaction_id);
    expect((await rule(c, "credit-without-payment")).evidence.transactions).toMatchObject([{ transaction_id: "TXN_FORGED" }]);
  });
});

describe("a correct integration", () => {
  it("fires no rule: names from the lookups, its own references, paced polling, a receiver that verifies, answers fast and credits once", async () => {
    const credits: string[] = [];
    let secret = "";
    // Verifies the raw body, refuses a bad signature, credits each payment's transaction_id once, answers 200 at once.
    const r = await receiver((_, got: Received) => {
      if (!verifyWebhookSignature(got.raw, got.headers["x-webhook-signature"] as string, secret)) return { status: 401 };
      const { event, data } = got.body as { event: string; data: { transaction_id: string } };
      if ((event === "payment.received" || event === "checkout.completed") && !credits.includes(data.transaction_id)) credits.push(data.transaction_id);
      return { status: 200 };
    });
    const c = await fresh({ webhook_url: r.url });
    secret = c.merchant.webhookSecret;
    await c.rule({ target: "webhook", outcome: "duplicate", times: 1 });
    await c.rule({ target: "webhook", outcome: "bad_signature", times: 1 }); // the newest: the first attempt

    await c.transferIn((await c.virtualAccount()).account_number, 5_000);
    await c.flush(); // refused: 401
    await c.advance("1m"); // the retry, delivered twice
    const verified = await verify(c);
    expect(verified.status).toBe(200);
    await c.processingPayout({ reference: "inv-1", account_name: verified.body.data.account_name });
    await c.advance("30s");
    expect((await c.payoutStatus("inv-1")).status).toBe("completed");

    // An unclear answer (made, then 500): looked up by its reference, never sent again with another.
    const unclear = "0123450008";
    await verify(c, unclear);
    expectError(await c.payout({ account_number: unclear, reference: "inv-2" }), 500, "INTERNAL_ERROR");
    expect((await c.payoutStatus("inv-2")).status).toBe("processing");
    // A bank that is down: wait retry_after (advance the manual clock), verify again, then send.
    const access = makeNuban("044", "123456789");
    await c.rule({ target: "bank", match: { bank_code: "044" }, outcome: "down", window_seconds: 600 });
    const down = expectError(await c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "044", account_number: access } }), 503, "BANK_UNAVAILABLE");
    await c.advance(down.retry_after!);
    expect((await c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "044", account_number: access } })).status).toBe(200);
    await c.processingPayout({ bank_code: "044", account_number: access, reference: "inv-3" });

    // A purchase whose answer was lost: the balance looked at before anything else is bought.
    await c.rule({ target: "response", match: { operation: "buyAirtime" }, outcome: "server_error", times: 1 });
    expectError(await c.airtime({ amount: 500.5 }), 500, "INTERNAL_ERROR");
    await c.balance();
    // A refusal fixed, not repeated.
    expectError(await c.airtime({ phone: "12345" }), 422, "VALIDATION_ERROR");
    expect((await c.airtime({ phone: "08031234567", amount: 200 })).status).toBe(200);

    const link = await c.checkout({ amount: 12_500.25 });
    expect((await c.payLink(link.reference)).status).toBe(200);
    await c.flush();
    expect((await c.checkoutStatus(link.reference)).status).toBe("paid");
    expect((await c.call("PUT", "/sandbox/v1/checks/credits", { body: { transaction_ids: credits } })).status).toBe(200);

    const data = await report(c);
    expect(data.rules.filter((x) => x.status === "fired")).toEqual([]);
    expect(data.summary).toMatchObject({ verdict: "pass", fired: 0, errors: 0 });
    expect(data.examined).toMatchObject({ request_log: true, credits_reported: 2 });
    // It had something to judge for most rules.
    const passed = data.rules.filter((x) => x.status === "passed").map((x) => x.id);
    expect(data.rules.filter((x) => x.status === "not_applicable").map((x) => x.id)).toEqual([]);
    expect(passed).toHaveLength(data.rules.length);
  });
});

describe("the control routes", () => {
  it("the demo merchant gets the report its OpenAPI example documents", async () => {
    const h = harness();
    await h.demoWithActivity();
    const res = await h.call("GET", "/sandbox/v1/checks", { headers: { ...DEMO_KEYS } });
    expect(res.body).toEqual(DEMO_CHECKS_REPORT);
  });

  it("a credit report is bounded and validated, replaced by the next, withdrawn by DELETE; nothing changes on a refusal", async () => {
    const c = await fresh();
    const put = (body: unknown) => c.call("PUT", "/sandbox/v1/checks/credits", { body });
    expect((await put({ transaction_ids: ["TXN_A", "TXN_A"] })).body.data).toMatchObject({ credits: 2, transactions: 1 });
    for (const bad of [{ transaction_ids: ["TXN_B", ""] }, { transaction_ids: "TXN_B" }, {}, { transaction_ids: Array(10_001).fill("TXN_B") }, { transaction_ids: ["x".repeat(101)] }]) {
      expectError(await put(bad), 422, "VALIDATION_ERROR");
    }
    expect(c.tenant.creditReport?.transaction_ids).toEqual(["TXN_A", "TXN_A"]);
    expect((await report(c)).examined.credits_reported).toBe(2);
    expect((await put({ transaction_ids: [] })).body.data).toMatchObject({ credits: 0, transactions: 0 });
    const cleared = await c.call("DELETE", "/sandbox/v1/checks/credits");
    expect(cleared.body).toEqual({ success: true, message: "Credit report withdrawn" });
    expect((await report(c)).examined.credits_reported).toBeNull();
    expect((await rule(c, "transaction-credited-twice")).status).toBe("not_applicable");
  });

  it("the credit report is traffic like the request log: kept across reset, never in a snapshot", async () => {
    const c = await fresh();
    await c.call("PUT", "/sandbox/v1/checks/credits", { body: { transaction_ids: ["TXN_A"] } });
    expect((await c.call("POST", "/sandbox/v1/reset", { body: {} })).status).toBe(200);
    expect((await report(c)).examined.credits_reported).toBe(1);
    expect(JSON.stringify(await c.snapshot())).not.toContain("TXN_A");
  });

  it("each merchant is judged on its own requests only", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    await a.payout();
    expect((await rule(a, "transfer-to-unverified-account")).status).toBe("fired");
    expect((await rule(b, "transfer-to-unverified-account")).status).toBe("not_applicable");
  });

  it("with the request log off (--request-log 0), the request rules have nothing to judge", async () => {
    const h = harness({ registry: buildRegistry({ requestLogSize: 0 }, () => Date.now()).registry });
    const c = client(await h.merchant());
    await c.payout();
    const data = await report(c);
    expect(data.examined).toMatchObject({ request_log: false, requests: 0 });
    expect(data.rules.find((x) => x.id === "transfer-to-unverified-account")!.status).toBe("not_applicable");
  });

  it("needs the merchant's keys", async () => {
    const h = harness();
    expectError(await h.call("GET", "/sandbox/v1/checks"), 401, "MISSING_CREDENTIALS");
  });
});
