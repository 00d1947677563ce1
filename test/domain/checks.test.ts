/**
 * Integration checks (src/domain/checks.ts), called directly on crafted request logs, deliveries,
 * events and credit reports: each rule fires on the mistake it names, with its evidence, and stays
 * silent (passed) on the correct way of doing the same thing, or not applicable when there is nothing
 * to judge.
 */
import { describe, expect, it } from "vitest";
import { CHECK_RULES, evaluateChecks, type CheckInput, type CheckResult } from "../../src/domain/checks.js";
import type { WebhookEvent } from "../../src/domain/event-records.js";
import type { WebhookDelivery } from "../../src/domain/records.js";
import type { LoggedRequest } from "../../src/domain/request-log.js";
import { CAPTURE_URL } from "../../src/domain/webhook-policy.js";
import { T0 } from "./context.js";

const ROUTES: Record<string, [string, string]> = {
  verifyAccount: ["POST", "/api/v1/payout/verify-account"],
  createPayout: ["POST", "/api/v1/payout/transfer"],
  getPayoutStatus: ["GET", "/api/v1/payout/status"],
  buyAirtime: ["POST", "/api/v1/vtu/airtime"],
  getVtuTransactionStatus: ["GET", "/api/v1/vtu/transaction/status"],
  getWalletBalance: ["GET", "/api/v1/wallet/balance"],
  createCheckout: ["POST", "/api/v1/checkout/create"],
  getCheckoutStatus: ["GET", "/api/v1/checkout/status"],
  getTransactionStatus: ["GET", "/api/v1/transaction/status"],
  fundVirtualCard: ["POST", "/api/v1/virtual-cards/7/fund"],
  listVirtualCardTransactions: ["GET", "/api/v1/virtual-cards/7/transactions"],
};

interface Call {
  body?: unknown;
  query?: string;
  status?: number | null;
  error_code?: string;
  answer?: unknown;
  delivery?: LoggedRequest["delivery"];
  headers?: Record<string, string>;
  ip?: string;
  /** Wall-clock and merchant-clock ms since the previous request (default 60 s on both). */
  wallMs?: number;
  simMs?: number;
}

/** A request log built call by call, as the middleware would have recorded it. */
function requestLog() {
  const requests: LoggedRequest[] = [];
  let wall = T0;
  let at = T0;
  const call = (operation: string, c: Call = {}): LoggedRequest => {
    const [method, path] = ROUTES[operation]!;
    wall += c.wallMs ?? 60_000;
    at += c.simMs ?? c.wallMs ?? 60_000;
    const status = c.status === undefined ? (operation === "createPayout" ? 201 : 200) : c.status;
    const answer = c.answer ?? (c.error_code ? { success: false, message: "Refused.", error_code: c.error_code } : { success: true });
    const entry: LoggedRequest = {
      seq: requests.length + 1,
      request_id: `req-${requests.length + 1}`,
      method,
      path,
      query: c.query ?? "",
      operation,
      request_headers: { "x-api-key": "pk_test_…abcd", ...(c.headers ?? {}) },
      request_body: c.body === undefined ? null : JSON.stringify(c.body),
      request_body_truncated: false,
      status,
      error_code: c.error_code ?? null,
      response_body: status === null ? null : JSON.stringify(answer),
      response_body_truncated: false,
      latency_ms: 3,
      client_ip: c.ip ?? "127.0.0.1",
      at,
      wall_at: wall,
      delivery: c.delivery ?? (status === null ? "connection_reset" : "answered"),
      objects: [],
      events: [],
      sample: false,
    };
    requests.push(entry);
    return entry;
  };
  return { requests, call };
}

const RECEIVER = "https://shop.example/webhooks";

function event(n: number, over: Partial<WebhookEvent> = {}): WebhookEvent {
  return {
    id: `EVT_${n}`,
    type: "payment.received",
    transaction_id: `TXN_${n}`,
    created_at: T0,
    status: "delivered",
    attempts: 1,
    scheduled_attempts: 1,
    next_attempt_at: null,
    error: null,
    data: {},
    ...over,
  } as WebhookEvent;
}

let deliveries = 0;
function delivery(eventId: string, over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: `DLV_${++deliveries}`,
    event_id: eventId,
    event_type: "payment.received",
    trigger: "initial",
    url: RECEIVER,
    sent_at: T0,
    nonce: "0".repeat(32),
    request_headers: {},
    request_body: "{}",
    status_code: 200,
    error: null,
    latency_ms: 40,
    response_excerpt: "ok",
    outcome: over.status_code === undefined || (over.status_code !== null && over.status_code < 300) ? "delivered" : "failed",
    fault: null,
    next_retry_at: null,
    ...over,
  };
}

function check(input: Partial<CheckInput>, id: string): CheckResult {
  const report = evaluateChecks({ requests: [], requestLogEnabled: true, deliveries: [], events: [], credits: null, ...input });
  const rule = report.rules.find((r) => r.id === id);
  expect(rule, id).toBeDefined();
  return rule!;
}

const seqs = (r: CheckResult) => r.evidence.requests.map((e) => e.seq);

const destination = { bank_code: "058", account_number: "0123456785" };
const transfer = (reference?: string, amount = 5000) => ({
  ...destination,
  amount,
  account_name: "EZE SEGUN FOLAKE",
  bank_name: "Guaranty Trust Bank",
  ...(reference ? { reference } : {}),
});
const answered = (data: Record<string, unknown>) => ({ success: true, data });

describe("the catalogue", () => {
  it("has at least 12 rules, each with a stable kebab-case id, a title, a severity and a one-line rationale", () => {
    expect(CHECK_RULES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(CHECK_RULES.map((r) => r.id)).size).toBe(CHECK_RULES.length);
    for (const rule of CHECK_RULES) {
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(["error", "warning", "info"]).toContain(rule.severity);
      expect(rule.title.length).toBeGreaterThan(10);
      expect(rule.rationale).not.toContain("\n");
      expect(rule.rationale.length).toBeLessThan(300);
    }
  });

  it("with nothing to read, every rule is not applicable and the verdict is pass", () => {
    const report = evaluateChecks({ requests: [], requestLogEnabled: true, deliveries: [], events: [], credits: null });
    expect(report.rules.every((r) => r.status === "not_applicable")).toBe(true);
    expect(report.summary).toMatchObject({ verdict: "pass", fired: 0, passed: 0, not_applicable: CHECK_RULES.length });
  });
});

describe("request rules", () => {
  it("transfer-to-unverified-account: a transfer with no successful name enquiry of its account before it", () => {
    const bad = requestLog();
    bad.call("verifyAccount", { body: destination, status: 504, error_code: "GATEWAY_TIMEOUT" }); // timed out: no name
    const unverified = bad.call("createPayout", { body: transfer("inv-1") });
    bad.call("createPayout", { body: { ...transfer("inv-2"), account_number: "1" }, status: 422, error_code: "VALIDATION_ERROR" }); // refused: nothing sent
    const fired = check({ requests: bad.requests }, "transfer-to-unverified-account");
    expect(fired).toMatchObject({ status: "fired", occurrences: 1, severity: "error" });
    expect(seqs(fired)).toEqual([unverified.seq]);
    expect(fired.evidence.requests[0]).toMatchObject({ method: "POST", path: "/api/v1/payout/transfer", status: 201, note: expect.stringContaining("058/0123456785") });

    const good = requestLog();
    good.call("verifyAccount", { body: destination });
    good.call("createPayout", { body: transfer("inv-1") });
    expect(check({ requests: good.requests }, "transfer-to-unverified-account").status).toBe("passed");
    expect(check({ requests: [] }, "transfer-to-unverified-account").status).toBe("not_applicable");
  });

  it("payout-retried-with-new-reference: the double-pay pattern after a reset, a 5xx or a held-back answer", () => {
    for (const unclear of [{ status: null }, { status: 500, error_code: "INTERNAL_ERROR" }, { status: 504, error_code: "GATEWAY_TIMEOUT" }, { delivery: "slow_response" as const }]) {
      const bad = requestLog();
      bad.call("verifyAccount", { body: destination });
      bad.call("createPayout", { body: transfer("inv-1"), ...unclear });
      const retry = bad.call("createPayout", { body: transfer("inv-1-retry") });
      const fired = check({ requests: bad.requests }, "payout-retried-with-new-reference");
      expect(fired.status, JSON.stringify(unclear)).toBe("fired");
      expect(seqs(fired)).toEqual([retry.seq]);
      expect(fired.evidence.requests[0]!.note).toContain("#2");
    }
    // Without a reference at all, the retry is blind too.
    const blind = requestLog();
    blind.call("createPayout", { body: transfer(), status: null });
    blind.call("createPayout", { body: transfer() });
    expect(check({ requests: blind.requests }, "payout-retried-with-new-reference").occurrences).toBe(1);
  });

  it("payout-retried-with-new-reference: silent on the safe paths", () => {
    const statusFirst = requestLog();
    statusFirst.call("createPayout", { body: transfer("inv-1"), status: null });
    statusFirst.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ reference: "inv-1", status: "failed" }) });
    statusFirst.call("createPayout", { body: transfer("inv-2") });
    expect(check({ requests: statusFirst.requests }, "payout-retried-with-new-reference").status).toBe("passed");

    const sameReference = requestLog();
    sameReference.call("createPayout", { body: transfer("inv-1"), status: 500, error_code: "INTERNAL_ERROR" });
    sameReference.call("createPayout", { body: transfer("inv-1"), status: 409, error_code: "DUPLICATE_REFERENCE" });
    expect(check({ requests: sameReference.requests }, "payout-retried-with-new-reference").status).toBe("passed");

    // A bank that was down made nothing: a new reference is no double payment.
    const bankDown = requestLog();
    bankDown.call("createPayout", { body: transfer("inv-1"), status: 503, error_code: "BANK_UNAVAILABLE" });
    bankDown.call("createPayout", { body: transfer("inv-2") });
    expect(check({ requests: bankDown.requests }, "payout-retried-with-new-reference").status).toBe("not_applicable");

    // Another amount to the same account is another payout.
    const other = requestLog();
    other.call("createPayout", { body: transfer("inv-1"), status: null });
    other.call("createPayout", { body: transfer("inv-2", 7000) });
    expect(check({ requests: other.requests }, "payout-retried-with-new-reference").status).toBe("passed");
  });

  it("purchase-retried-after-unclear-answer: a VTU purchase or card funding re-sent unchanged, unless the balance was looked at first", () => {
    const airtime = { network: "mtn", phone: "08031234567", amount: 500 };
    const bad = requestLog();
    bad.call("buyAirtime", { body: airtime, status: 500, error_code: "INTERNAL_ERROR" });
    const again = bad.call("buyAirtime", { body: airtime });
    bad.call("fundVirtualCard", { body: { amount: 10 }, status: null });
    const refund = bad.call("fundVirtualCard", { body: { amount: 10 } });
    const fired = check({ requests: bad.requests }, "purchase-retried-after-unclear-answer");
    expect(seqs(fired)).toEqual([again.seq, refund.seq]);

    const good = requestLog();
    good.call("buyAirtime", { body: airtime, status: 500, error_code: "INTERNAL_ERROR" });
    good.call("getWalletBalance");
    good.call("buyAirtime", { body: airtime });
    good.call("fundVirtualCard", { body: { amount: 10 }, status: null });
    good.call("listVirtualCardTransactions");
    good.call("fundVirtualCard", { body: { amount: 10 } });
    expect(check({ requests: good.requests }, "purchase-retried-after-unclear-answer").status).toBe("passed");
  });

  it(`status-polled-too-fast: one reference read twice within 5 s on both clocks`, () => {
    const bad = requestLog();
    bad.call("getPayoutStatus", { query: "reference=inv-1" });
    const fast = bad.call("getPayoutStatus", { query: "reference=inv-1", wallMs: 800 });
    bad.call("getPayoutStatus", { query: "reference=inv-2", wallMs: 100 }); // another reference
    expect(seqs(check({ requests: bad.requests }, "status-polled-too-fast"))).toEqual([fast.seq]);

    const good = requestLog();
    good.call("getPayoutStatus", { query: "reference=inv-1" });
    good.call("getPayoutStatus", { query: "reference=inv-1", wallMs: 5_000 });
    // A test on a manual clock advances it between reads: fast on the wall, paced on the merchant's clock.
    good.call("getVtuTransactionStatus", { query: "reference=VTU_1" });
    good.call("getVtuTransactionStatus", { query: "reference=VTU_1", wallMs: 10, simMs: 30_000 });
    expect(check({ requests: good.requests }, "status-polled-too-fast").status).toBe("passed");
  });

  it("final-status-polled-again: reads after the status was final", () => {
    const bad = requestLog();
    bad.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "processing" }) });
    bad.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "completed" }) });
    const after = bad.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "completed" }) });
    bad.call("getVtuTransactionStatus", { query: "reference=VTU_1", answer: { success: true, status: "Success" } });
    const vtu = bad.call("getVtuTransactionStatus", { query: "reference=VTU_1", answer: { success: true, status: "Success" } });
    const fired = check({ requests: bad.requests }, "final-status-polled-again");
    expect(fired).toMatchObject({ status: "fired", severity: "info" });
    expect(seqs(fired)).toEqual([after.seq, vtu.seq]);

    const good = requestLog();
    good.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "processing" }) });
    good.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "processing" }) });
    good.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "failed" }) });
    expect(check({ requests: good.requests }, "final-status-polled-again").status).toBe("passed");
  });

  it("checkout-polled-after-expiry: an expired link read again", () => {
    const expired = answered({ reference: "CHK_1", status: "expired", expires_at: "2026-01-05T09:30:00.000Z" });
    const bad = requestLog();
    bad.call("getCheckoutStatus", { query: "reference=CHK_1", answer: answered({ status: "pending" }) });
    bad.call("getCheckoutStatus", { query: "reference=CHK_1", answer: expired });
    const again = bad.call("getCheckoutStatus", { query: "reference=CHK_1", answer: expired });
    expect(seqs(check({ requests: bad.requests }, "checkout-polled-after-expiry"))).toEqual([again.seq]);

    const good = requestLog();
    good.call("getCheckoutStatus", { query: "reference=CHK_1", answer: answered({ status: "pending" }) });
    good.call("getCheckoutStatus", { query: "reference=CHK_1", answer: expired }); // how it learns
    expect(check({ requests: good.requests }, "checkout-polled-after-expiry").status).toBe("passed");
  });

  it("amount-with-more-than-two-decimals: a floating-point sum sent as an amount", () => {
    const bad = requestLog();
    const sum = bad.call("buyAirtime", { body: { network: "mtn", phone: "08031234567", amount: 100 * 1.1 }, status: 422, error_code: "VALIDATION_ERROR" });
    bad.call("createCheckout", { body: { amount: 12500.5 } });
    const fired = check({ requests: bad.requests }, "amount-with-more-than-two-decimals");
    expect(seqs(fired)).toEqual([sum.seq]);
    expect(fired.evidence.requests[0]!.note).toBe("amount 110.00000000000001");
    expect(check({ requests: bad.requests.slice(1) }, "amount-with-more-than-two-decimals").status).toBe("passed");
    expect(check({ requests: [] }, "amount-with-more-than-two-decimals").status).toBe("not_applicable");
  });

  it("secret-key-in-browser: a request with an Origin (or Sec-Fetch-Site) header", () => {
    const bad = requestLog();
    bad.call("getWalletBalance");
    const page = bad.call("getWalletBalance", { headers: { origin: "http://localhost:3000" } });
    const fetched = bad.call("getWalletBalance", { headers: { "sec-fetch-site": "same-origin" } });
    const fired = check({ requests: bad.requests }, "secret-key-in-browser");
    expect(seqs(fired)).toEqual([page.seq, fetched.seq]);
    expect(fired.evidence.requests[0]!.note).toContain("Origin: http://localhost:3000");
    expect(check({ requests: bad.requests.slice(0, 1) }, "secret-key-in-browser").status).toBe("passed");
  });

  it("refused-request-repeated-unchanged: the same refused request, refused the same way again", () => {
    const wrong = { ...transfer("inv-1"), account_name: "JOHN DOE" };
    const bad = requestLog();
    bad.call("createPayout", { body: wrong, status: 422, error_code: "ACCOUNT_NAME_MISMATCH" });
    const again = bad.call("createPayout", { body: wrong, status: 422, error_code: "ACCOUNT_NAME_MISMATCH" });
    expect(seqs(check({ requests: bad.requests }, "refused-request-repeated-unchanged"))).toEqual([again.seq]);

    const good = requestLog();
    good.call("createPayout", { body: wrong, status: 422, error_code: "ACCOUNT_NAME_MISMATCH" });
    good.call("createPayout", { body: transfer("inv-1") }); // fixed
    // Refusals that can change (a balance funded, a cap freed) are not lasting ones.
    good.call("createPayout", { body: transfer("inv-2"), status: 422, error_code: "INSUFFICIENT_BALANCE" });
    good.call("createPayout", { body: transfer("inv-2"), status: 422, error_code: "INSUFFICIENT_BALANCE" });
    expect(check({ requests: good.requests }, "refused-request-repeated-unchanged").status).toBe("passed");
  });

  it("retried-before-retry-after: sooner than retry_after on both clocks", () => {
    const limited = { success: false, message: "Slow down.", error_code: "RATE_LIMITED", retry_after: 60 };
    const bad = requestLog();
    bad.call("createPayout", { body: transfer("inv-1"), status: 429, error_code: "RATE_LIMITED", answer: limited });
    const early = bad.call("createPayout", { body: transfer("inv-1"), wallMs: 10_000 });
    const fired = check({ requests: bad.requests }, "retried-before-retry-after");
    expect(seqs(fired)).toEqual([early.seq]);
    expect(fired.evidence.requests[0]!.note).toContain("wait 60 s (RATE_LIMITED)");

    const good = requestLog();
    good.call("createPayout", { body: transfer("inv-1"), status: 429, error_code: "RATE_LIMITED", answer: limited });
    good.call("createPayout", { body: transfer("inv-1"), wallMs: 50, simMs: 60_000 }); // a manual clock advanced that far
    expect(check({ requests: good.requests }, "retried-before-retry-after").status).toBe("passed");
  });

  it("request-from-ip-not-allowlisted and transfer-names-not-from-lookups: the refusals that name them", () => {
    const log = requestLog();
    const ip = log.call("getWalletBalance", { status: 403, error_code: "IP_NOT_WHITELISTED", ip: "203.0.113.9" });
    const bank = log.call("createPayout", { body: { ...transfer("inv-1"), bank_name: "GTBank" }, status: 422, error_code: "BANK_NAME_MISMATCH" });
    expect(seqs(check({ requests: log.requests }, "request-from-ip-not-allowlisted"))).toEqual([ip.seq]);
    expect(check({ requests: log.requests }, "request-from-ip-not-allowlisted").evidence.requests[0]!.note).toBe("From 203.0.113.9.");
    expect(seqs(check({ requests: log.requests }, "transfer-names-not-from-lookups"))).toEqual([bank.seq]);
    const good = requestLog();
    good.call("getWalletBalance");
    good.call("createPayout", { body: transfer("inv-1") });
    expect(check({ requests: good.requests }, "request-from-ip-not-allowlisted").status).toBe("passed");
    expect(check({ requests: good.requests }, "transfer-names-not-from-lookups").status).toBe("passed");
  });

  it("transfer-without-own-reference: a transfer made with no reference of the merchant's", () => {
    const log = requestLog();
    const blind = log.call("createPayout", { body: transfer() });
    log.call("createPayout", { body: transfer("inv-1") });
    expect(seqs(check({ requests: log.requests }, "transfer-without-own-reference"))).toEqual([blind.seq]);
    expect(check({ requests: log.requests.slice(1) }, "transfer-without-own-reference").status).toBe("passed");
  });

  it("with the request log off, the request rules are not applicable", () => {
    const report = evaluateChecks({ requests: [], requestLogEnabled: false, deliveries: [], events: [], credits: null });
    expect(report.examined).toMatchObject({ request_log: false, requests: 0, first_request_seq: null });
    expect(report.rules.filter((r) => r.status !== "not_applicable")).toEqual([]);
    expect(report.summary.verdict).toBe("pass");
  });
});

describe("webhook rules", () => {
  it("webhook-answered-error: a non-2xx answer to a good delivery; the capture and faults that send nothing are not judged", () => {
    const e = event(1);
    const failing = delivery(e.id, { status_code: 500, response_excerpt: "boom" });
    const input = {
      events: [e],
      deliveries: [
        failing,
        delivery(e.id, { url: CAPTURE_URL, status_code: 500 }),
        delivery(e.id, { status_code: null, error: "Dropped by fault injection", fault: "drop" }),
        delivery(e.id, { status_code: 401, fault: "bad_signature" }),
        delivery(e.id),
      ],
    };
    const fired = check(input, "webhook-answered-error");
    expect(fired.evidence.deliveries.map((d) => d.id)).toEqual([failing.id]);
    expect(fired.evidence.deliveries[0]!.note).toBe("HTTP 500: boom");
    expect(check({ events: [e], deliveries: [delivery(e.id)] }, "webhook-answered-error").status).toBe("passed");
    expect(check({ events: [e], deliveries: [delivery(e.id, { url: CAPTURE_URL })] }, "webhook-answered-error").status).toBe("not_applicable");
  });

  it("webhook-answered-slowly: a time-out, or a 2xx after more than 10 s", () => {
    const e = event(1);
    const timedOut = delivery(e.id, { status_code: null, error: "Timed out after 10 s", latency_ms: 10_000 });
    const slow = delivery(e.id, { status_code: 200, latency_ms: 12_000 });
    const fired = check({ events: [e], deliveries: [timedOut, slow, delivery(e.id, { latency_ms: 9_000 })] }, "webhook-answered-slowly");
    expect(fired.evidence.deliveries.map((d) => d.id)).toEqual([timedOut.id, slow.id]);
    expect(check({ events: [e], deliveries: [delivery(e.id, { latency_ms: 9_999 })] }, "webhook-answered-slowly").status).toBe("passed");
  });

  it("webhook-unreachable: no answer other than a time-out", () => {
    const e = event(1);
    const refused = delivery(e.id, { status_code: null, error: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9" });
    const fired = check({ events: [e], deliveries: [refused, delivery(e.id, { status_code: null, error: "Timed out after 10 s" })] }, "webhook-unreachable");
    expect(fired.evidence.deliveries.map((d) => d.id)).toEqual([refused.id]);
    expect(check({ events: [e], deliveries: [delivery(e.id, { status_code: 500 })] }, "webhook-unreachable").status).toBe("passed");
  });

  it("webhook-accepted-bad-signature: 2xx to a delivery signed with a wrong key", () => {
    const e = event(1);
    const accepted = delivery(e.id, { fault: "bad_signature" });
    expect(check({ events: [e], deliveries: [accepted] }, "webhook-accepted-bad-signature").evidence.deliveries[0]!.id).toBe(accepted.id);
    expect(check({ events: [e], deliveries: [delivery(e.id, { fault: "bad_signature", status_code: 401 })] }, "webhook-accepted-bad-signature").status).toBe("passed");
    expect(check({ events: [e], deliveries: [delivery(e.id)] }, "webhook-accepted-bad-signature").status).toBe("not_applicable");
  });

  it("webhook-receiver-missing: events stored with no webhook_url to send them to", () => {
    const fired = check({ events: [event(1, { status: "no_url" }), event(2)] }, "webhook-receiver-missing");
    expect(fired.evidence.transactions).toEqual([{ transaction_id: "TXN_1", note: "payment.received EVT_1 was never sent: no webhook_url was set." }]);
    expect(check({ events: [event(2)] }, "webhook-receiver-missing").status).toBe("passed");
  });
});

describe("credit rules (the merchant's own view)", () => {
  const events = [event(1), event(2), event(3, { type: "checkout.completed" }), event(4, { type: "payout.completed" })];
  const acknowledged = events.map((e) => delivery(e.id, { event_type: e.type }));
  const report = (...ids: string[]) => ({ transaction_ids: ids, reported_at: T0 });

  it("are not applicable until credits are reported", () => {
    for (const id of ["transaction-credited-twice", "delivered-payment-not-credited", "credit-without-payment"]) {
      expect(check({ events, deliveries: acknowledged }, id).status, id).toBe("not_applicable");
    }
  });

  it("pass when each acknowledged payment was credited once", () => {
    const credits = report("TXN_1", "TXN_2", "TXN_3");
    for (const id of ["transaction-credited-twice", "delivered-payment-not-credited", "credit-without-payment"]) {
      expect(check({ events, deliveries: acknowledged, credits }, id).status, id).toBe("passed");
    }
  });

  it("transaction-credited-twice: an id reported twice", () => {
    const fired = check({ events, deliveries: acknowledged, credits: report("TXN_1", "TXN_2", "TXN_1", "TXN_3", "TXN_1") }, "transaction-credited-twice");
    expect(fired.evidence.transactions).toEqual([{ transaction_id: "TXN_1", note: "Credited 3 times." }]);
  });

  it("delivered-payment-not-credited: a payment answered 2xx (good signature) that the merchant never credited", () => {
    const deliveries = [...acknowledged, delivery("EVT_5", { event_type: "payment.received" })];
    const fired = check({ events, deliveries, credits: report("TXN_1", "TXN_3") }, "delivered-payment-not-credited");
    expect(fired.evidence.deliveries.map((d) => d.event_id)).toEqual(["EVT_2"]);
    // A payment refused (or accepted with a bad signature) is not a credit the merchant owes from that delivery.
    const refused = [delivery("EVT_2", { status_code: 500 }), delivery("EVT_2", { fault: "bad_signature" })];
    expect(check({ events, deliveries: refused, credits: report() }, "delivered-payment-not-credited").status).toBe("not_applicable");
  });

  it("credit-without-payment: a credit no payment event names", () => {
    const fired = check({ events, deliveries: acknowledged, credits: report("TXN_1", "TXN_4", "TXN_FORGED", "TXN_FORGED") }, "credit-without-payment");
    expect(fired.evidence.transactions.map((t) => t.transaction_id)).toEqual(["TXN_4", "TXN_FORGED"]);
  });
});

describe("the report", () => {
  it("lists fired rules first, errors before warnings before infos, with a verdict of fail on an error", () => {
    const log = requestLog();
    log.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "completed" }) });
    log.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "completed" }), wallMs: 100 }); // warning + info
    log.call("createPayout", { body: transfer("inv-2") }); // error
    const report = evaluateChecks({ requests: log.requests, requestLogEnabled: true, deliveries: [], events: [], credits: null });
    expect(report.rules.slice(0, 3).map((r) => [r.id, r.severity, r.status])).toEqual([
      ["transfer-to-unverified-account", "error", "fired"],
      ["status-polled-too-fast", "warning", "fired"],
      ["final-status-polled-again", "info", "fired"],
    ]);
    expect(report.summary).toMatchObject({ verdict: "fail", fired: 3, errors: 1, warnings: 1, infos: 1 });
    expect(report.rules.slice(3).every((r) => r.status !== "fired")).toBe(true);
  });

  it("warnings alone pass; times are ISO 8601 on the merchant's clock", () => {
    const warnings = evaluateChecks({ requests: [], requestLogEnabled: true, deliveries: [], events: [event(1, { status: "no_url" })], credits: null });
    expect(warnings.summary).toMatchObject({ verdict: "pass", warnings: 1, errors: 0 });
    const log = requestLog();
    const made = log.call("createPayout", { body: transfer() });
    const fired = evaluateChecks({ requests: log.requests, requestLogEnabled: true, deliveries: [], events: [], credits: null }).rules[0]!;
    expect(fired.evidence.requests[0]!.at).toBe(new Date(made.at).toISOString());
  });

  it("keeps at most 20 evidence items per kind and counts every occurrence; a full log is judged quickly", () => {
    const log = requestLog();
    for (let i = 0; i < 10_000; i++) log.call("createPayout", { body: transfer(`inv-${i}`), wallMs: 1 });
    const e = event(1);
    const many = Array.from({ length: 1_000 }, () => delivery(e.id, { status_code: 503 }));
    const started = performance.now();
    const report = evaluateChecks({ requests: log.requests, requestLogEnabled: true, deliveries: many, events: [e], credits: null });
    expect(performance.now() - started).toBeLessThan(2_000);
    const unverified = report.rules.find((r) => r.id === "transfer-to-unverified-account")!;
    expect(unverified.occurrences).toBe(10_000);
    expect(unverified.evidence.requests).toHaveLength(20);
    expect(report.rules.find((r) => r.id === "webhook-answered-error")!.evidence.deliveries).toHaveLength(20);
  });

  it("a correct integration fires nothing", () => {
    const log = requestLog();
    log.call("verifyAccount", { body: destination });
    log.call("createPayout", { body: transfer("inv-1") });
    log.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "processing" }) });
    log.call("getPayoutStatus", { query: "reference=inv-1", answer: answered({ status: "completed" }) });
    log.call("buyAirtime", { body: { network: "mtn", phone: "08031234567", amount: 500 } });
    log.call("createCheckout", { body: { amount: 12500.5 } });
    log.call("getCheckoutStatus", { query: "reference=CHK_1", answer: answered({ status: "paid" }) });
    const e = event(1);
    const deliveries = [delivery(e.id, { fault: "bad_signature", status_code: 401 }), delivery(e.id, { trigger: "retry" }), delivery(e.id, { trigger: "duplicate", fault: "duplicate" })];
    const report = evaluateChecks({ requests: log.requests, requestLogEnabled: true, deliveries, events: [e], credits: { transaction_ids: ["TXN_1"], reported_at: T0 } });
    expect(report.rules.filter((r) => r.status === "fired")).toEqual([]);
    expect(report.summary.verdict).toBe("pass");
  });
});
