/**
 * Webhook faults injected by outcome rules, per-merchant signature settings, the verification
 * snippets of docs/how-to/receive-webhooks.md run against a real delivery, the `listen` receiver, and
 * retries on a realtime clock. Every test uses real HTTP receivers on ephemeral 127.0.0.1 ports and the
 * manual clock unless it says otherwise.
 */
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listen } from "../../src/cli/listen.js";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { at, client, PAYOUT_ACCOUNT, type TestClient } from "../client.js";
import { closedAfterEach, closeServer, harness, receivers, repoFile, runProcess } from "../helpers.js";
import type { Received, Receiver } from "../receiver.js";

const receiver = receivers();
const closedAfter = closedAfterEach(closeServer);

const signatureOf = (x: Received) => x.headers["x-webhook-signature"] as string;
type Fault = { outcome: string; match?: Record<string, string>; times?: number; delay_seconds?: number };
/** A webhook fault: an outcome rule on the webhook target (asserts 201). */
const fault = (c: TestClient, rule: Fault) => c.rule({ target: "webhook", ...rule });
/** A payment into a new virtual account of the merchant. */
const paymentIn = async (c: TestClient) => c.transferIn((await c.virtualAccount()).account_number);

/** A merchant (`settings` added at sign-up) whose webhooks go to a new plain 200 receiver, with the webhook fault `rule` if given. */
async function hooked(settings: Record<string, unknown> = {}, rule?: Fault) {
  const r = await receiver();
  const c = client(await harness().merchant({ webhook_url: r.url, ...settings }));
  const created = rule ? await fault(c, rule) : undefined;
  return { r, c, m: c.merchant, rule: created };
}

/**
 * From a clock still at START: one second short of `seconds` nothing more reaches `r`; at `seconds`
 * exactly one more request does, sent then, signed, for `payment`. Returns it.
 */
async function nextArrivesAt(r: Receiver, c: TestClient, seconds: number, payment: { transaction_id: string }): Promise<Received> {
  const before = r.received.length;
  await c.advance(seconds - 1);
  expect(r.received).toHaveLength(before);
  await c.advance(1);
  expect(r.received).toHaveLength(before + 1);
  const got = r.received[before]!;
  expect(got.body.sent_at).toBe(at(seconds));
  expect(got.body.data.transaction_id).toBe(payment.transaction_id);
  expect(verifyWebhookSignature(got.raw, signatureOf(got), c.merchant.webhookSecret)).toBe(true);
  return got;
}

/** A merchant with one payment.received delivered to a plain 200 receiver. */
async function oneDelivery(settings: Record<string, unknown> = {}) {
  const { r, c, m } = await hooked(settings);
  const payment = await paymentIn(c);
  await c.flush();
  expect(r.received).toHaveLength(1);
  return { r, m, payment, got: r.received[0]! };
}

describe("webhook faults", () => {
  it("duplicate: the event arrives twice, same transaction_id, different nonce, logged as a duplicate", async () => {
    const { r, c, m } = await hooked({}, { outcome: "duplicate", times: 1 });
    const payment = await paymentIn(c);
    await c.flush();

    expect(r.received).toHaveLength(2);
    const [first, second] = r.received as [Received, Received];
    expect(first.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.data).toEqual(first.body.data);
    expect(first.body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body.nonce).not.toBe(first.body.nonce);
    for (const x of r.received) expect(verifyWebhookSignature(x.raw, signatureOf(x), m.webhookSecret)).toBe(true);

    const [event] = await c.events();
    expect(event).toMatchObject({ type: "payment.received", transaction_id: payment.transaction_id, status: "delivered", attempts: 2 });
    const log = await c.deliveries();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ event_id: event!.id, trigger: "initial", fault: "duplicate", outcome: "delivered", status_code: 200, nonce: first.body.nonce });
    expect(log[1]).toMatchObject({ event_id: event!.id, trigger: "duplicate", fault: "duplicate", outcome: "delivered", status_code: 200, nonce: second.body.nonce, next_retry_at: null });
    expect(await c.rules()).toEqual([]);
  });

  it("delay: nothing arrives until delay_seconds have passed on the merchant clock; a deferred entry is logged", async () => {
    const { r, c } = await hooked({}, { outcome: "delay", delay_seconds: 120, times: 1 });
    const payment = await paymentIn(c);
    await c.flush();
    expect(r.received).toHaveLength(0);
    const [pending] = await c.events();
    expect(pending).toMatchObject({ status: "pending", attempts: 0, next_attempt_at: at(120) });

    const got = await nextArrivesAt(r, c, 120, payment);

    const log = await c.deliveries();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      trigger: "initial",
      outcome: "deferred",
      fault: "delay",
      sent_at: at(0),
      next_retry_at: at(120),
      nonce: null,
      status_code: null,
      request_body: null,
    });
    expect(log[1]).toMatchObject({
      trigger: "released",
      outcome: "delivered",
      fault: null,
      status_code: 200,
      sent_at: at(120),
      nonce: got.body.nonce,
      next_retry_at: null,
    });
    expect((await c.events())[0]).toMatchObject({ status: "delivered", attempts: 1, next_attempt_at: null });
    expect(await c.rules()).toEqual([]);
  });

  it("out_of_order: the first event is held until the next one is delivered, so they arrive reversed", async () => {
    const { r, c, m } = await hooked({}, { outcome: "out_of_order", times: 1 });
    const account = (await c.virtualAccount()).account_number;
    const first = await c.transferIn(account, 100, { narration: "first" });
    await c.flush();
    expect(r.received).toHaveLength(0);
    const [held] = await c.events();
    expect(held).toMatchObject({ transaction_id: first.transaction_id, status: "held", attempts: 0 });
    expect(await c.deliveries()).toEqual([
      expect.objectContaining({ event_id: held!.id, trigger: "initial", outcome: "held", fault: "out_of_order", nonce: null, status_code: null }),
    ]);

    const second = await c.transferIn(account, 200, { narration: "second" });
    await c.flush();
    expect(r.received.map((x) => x.body.data.transaction_id)).toEqual([second.transaction_id, first.transaction_id]);
    expect(r.received.map((x) => x.body.data.reference)).toEqual(["second", "first"]);
    for (const x of r.received) expect(verifyWebhookSignature(x.raw, signatureOf(x), m.webhookSecret)).toBe(true);

    const all = await c.events();
    expect(all.map((e) => [e.transaction_id, e.status, e.attempts])).toEqual([
      [first.transaction_id, "delivered", 1],
      [second.transaction_id, "delivered", 1],
    ]);
    const log = await c.deliveries();
    expect(log.map((d) => [d.event_id, d.trigger, d.outcome, d.fault])).toEqual([
      [all[0]!.id, "initial", "held", "out_of_order"],
      [all[1]!.id, "initial", "delivered", null],
      [all[0]!.id, "released", "delivered", null],
    ]);
  });

  it("bad_signature: a well-formed signature that does not verify; a 401 gets a retry at +60 s that verifies", async () => {
    const { r, c, m } = await hooked({}, { outcome: "bad_signature", times: 1 });
    r.answer = (_n, req) => ({ status: verifyWebhookSignature(req.raw, signatureOf(req), m.webhookSecret) ? 200 : 401, body: "bad signature" });
    const payment = await paymentIn(c);
    await c.flush();

    expect(r.received).toHaveLength(1);
    const bad = r.received[0]!;
    const badSig = signatureOf(bad);
    expect(badSig).toMatch(/^[0-9a-f]{64}$/);
    expect(badSig).not.toBe(createHmac("sha256", m.webhookSecret).update(bad.raw).digest("hex"));
    expect(verifyWebhookSignature(bad.raw, badSig, m.webhookSecret)).toBe(false);
    const [first] = await c.deliveries();
    expect(first).toMatchObject({
      trigger: "initial",
      fault: "bad_signature",
      status_code: 401,
      response_excerpt: "bad signature",
      outcome: "failed",
      next_retry_at: at(60),
    });
    expect(first!.request_headers["x-webhook-signature"]).toBe(badSig);
    expect(await c.rules()).toEqual([]);

    const good = await nextArrivesAt(r, c, 60, payment);
    expect(good.body.nonce).not.toBe(bad.body.nonce);
    const log = await c.deliveries();
    expect(log).toHaveLength(2);
    expect(log[1]).toMatchObject({ trigger: "retry", fault: null, status_code: 200, outcome: "delivered", next_retry_at: null });
    expect((await c.events())[0]).toMatchObject({ status: "delivered", attempts: 2, next_attempt_at: null });
  });

  it("drop: no request reaches the receiver, the attempt fails as if it were down, and the retry arrives", async () => {
    const { r, c } = await hooked({}, { outcome: "drop", times: 1 });
    const payment = await paymentIn(c);
    await c.flush();

    expect(r.received).toHaveLength(0);
    const [dropped] = await c.deliveries();
    expect(dropped).toMatchObject({
      trigger: "initial",
      fault: "drop",
      status_code: null,
      response_excerpt: null,
      outcome: "failed",
      next_retry_at: at(60),
    });
    expect(dropped!.error).toMatch(/fault injection/);
    expect((await c.events())[0]).toMatchObject({ status: "pending", attempts: 1, next_attempt_at: at(60) });

    const got = await nextArrivesAt(r, c, 60, payment);
    expect(got.body.nonce).not.toBe(dropped!.nonce);
    const log = await c.deliveries();
    expect(log.map((d) => [d.trigger, d.fault, d.status_code, d.outcome])).toEqual([
      ["initial", "drop", null, "failed"],
      ["retry", null, 200, "delivered"],
    ]);
    expect((await c.events())[0]).toMatchObject({ status: "delivered", attempts: 2, next_attempt_at: null });
  });

  it("match { event: payout.failed } applies only to that event type, and times: 1 is consumed by one event", async () => {
    const { r, c, rule } = await hooked({}, { outcome: "drop", match: { event: "payout.failed" }, times: 1 });
    expect(rule!.times).toBe(1);

    // Other event types pass untouched and leave the rule alone.
    const payment = await paymentIn(c);
    await c.flush();
    expect(r.received.map((x) => x.body.data.transaction_id)).toEqual([payment.transaction_id]);
    expect(await c.rules()).toEqual([expect.objectContaining({ id: rule!.id, times: 1, match: { event: "payout.failed" } })]);

    const ok = await c.processingPayout({ reference: "ok", account_number: PAYOUT_ACCOUNT });
    const bad1 = await c.processingPayout({ reference: "bad-1", account_number: "0123450001" });
    const bad2 = await c.processingPayout({ reference: "bad-2", account_number: "0123450001" });
    await c.advance(30); // all three settle; the first payout.failed is dropped, the second is not
    // Attempts of one instant go out side by side, so they may arrive in any order.
    expect(r.received.slice(1).map((x) => [x.body.event, x.body.data.transaction_id]).sort()).toEqual([
      ["payout.completed", ok.order_no],
      ["payout.failed", bad2.order_no],
    ]);
    expect(await c.rules()).toEqual([]);

    const log = await c.deliveries();
    expect(log.map((d) => [d.event_type, d.fault, d.outcome])).toEqual([
      ["payment.received", null, "delivered"],
      ["payout.completed", null, "delivered"],
      ["payout.failed", "drop", "failed"],
      ["payout.failed", null, "delivered"],
    ]);
    const droppedEvent = (await c.events()).find((e) => e.transaction_id === bad1.order_no);
    expect(droppedEvent).toMatchObject({ type: "payout.failed", status: "pending", attempts: 1, next_attempt_at: at(90) });

    await c.advance(60); // the dropped one's retry
    expect(r.received.slice(3).map((x) => [x.body.event, x.body.data.transaction_id, x.body.sent_at])).toEqual([
      ["payout.failed", bad1.order_no, at(90)],
    ]);
    expect((await c.events()).map((e) => e.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);
  });
});

describe("signature settings", () => {
  it("sha512 + base64: the header is the base64 HMAC-SHA512 of the raw body", async () => {
    const { m, got } = await oneDelivery({ webhook: { signature_algorithm: "sha512", signature_encoding: "base64" } });
    const signature = signatureOf(got);
    expect(signature).toBe(createHmac("sha512", m.webhookSecret).update(got.raw).digest("base64"));
    expect(signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    expect(verifyWebhookSignature(got.raw, signature, m.webhookSecret, { algorithm: "sha512", encoding: "base64" })).toBe(true);
    expect(verifyWebhookSignature(got.raw, signature, m.webhookSecret)).toBe(false);
    expect(verifyWebhookSignature(got.raw, signature, `${m.webhookSecret}x`, { algorithm: "sha512", encoding: "base64" })).toBe(false);
  });

  it("default: the header is the lowercase hex HMAC-SHA256 of the raw body", async () => {
    const { m, got } = await oneDelivery();
    const signature = signatureOf(got);
    expect(signature).toBe(createHmac("sha256", m.webhookSecret).update(got.raw).digest("hex"));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(got.raw, signature, m.webhookSecret)).toBe(true);
    expect(verifyWebhookSignature(got.raw, signature, m.webhookSecret, { algorithm: "sha512", encoding: "base64" })).toBe(false);
  });
});

/** The how-to page that shows the snippets: what it shows is what the tests below run. */
const WEBHOOKS_PAGE = "docs/how-to/receive-webhooks.md";

describe("verification snippets", () => {
  const snippets = [
    { name: "Node", file: "examples/webhook-verify/verify.mjs", command: process.execPath },
    { name: "Python", file: "examples/webhook-verify/verify.py", command: "python3" },
    { name: "PHP", file: "examples/webhook-verify/verify.php", command: "php" },
  ] as const;

  const run = (command: string, file: string, args: string[], stdin: Buffer) => runProcess(command, [repoFile(file), ...args], { stdin });

  async function checkSnippet(command: string, file: string) {
    const { m, got } = await oneDelivery();
    const signature = signatureOf(got);
    const valid = await run(command, file, [signature, m.webhookSecret], got.raw);
    expect(valid, valid.stderr).toEqual({ code: 0, stdout: "valid\n", stderr: "" });

    const tampered = Buffer.from(got.raw);
    const at = tampered.indexOf('"amount":7500') + '"amount":'.length;
    expect(at).toBeGreaterThan('"amount":'.length);
    tampered[at] = "8".charCodeAt(0); // one byte changed: the amount 7500 becomes 8500
    const invalid = await run(command, file, [signature, m.webhookSecret], tampered);
    expect(invalid, invalid.stderr).toEqual({ code: 1, stdout: "invalid\n", stderr: "" });
  }

  for (const { name, file, command } of snippets.filter((s) => s.name !== "PHP")) {
    it(`${name} (${file}) says valid for a real delivery and invalid for a changed byte`, async () => {
      await checkSnippet(command, file);
    });
  }

  const phpInstalled = spawnSync("php", ["-v"]).status === 0;
  const phpRuns = phpInstalled || Boolean(process.env.CI);
  if (!phpRuns) {
    console.warn(
      "\n!!! php is not installed: SKIPPING the PHP webhook verification snippet test (examples/webhook-verify/verify.php).\n" +
        "!!! Install php-cli to run it; with CI set this test fails instead of skipping.\n",
    );
  }
  it.skipIf(!phpRuns)("PHP (examples/webhook-verify/verify.php) says valid for a real delivery and invalid for a changed byte", async () => {
    if (!phpInstalled) throw new Error("php is not installed but CI is set: the PHP verification snippet must be tested in CI (install php-cli)");
    await checkSnippet("php", "examples/webhook-verify/verify.php");
  });

  it(`${WEBHOOKS_PAGE} contains each snippet file verbatim`, () => {
    const page = readFileSync(repoFile(WEBHOOKS_PAGE), "utf8");
    for (const { file } of snippets) {
      const code = readFileSync(repoFile(file), "utf8").trim();
      expect(code.length).toBeGreaterThan(0);
      expect(page.includes(code), `${WEBHOOKS_PAGE} does not contain the code of ${file} verbatim`).toBe(true);
    }
  });
});

describe("listen receiver", () => {
  async function listener(secret: string | undefined) {
    const lines: string[] = [];
    const { url, server } = await listen({ host: "127.0.0.1", port: 0, secret, write: (line) => lines.push(line) });
    closedAfter(server);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe("http://127.0.0.1:0");
    return { url, lines };
  }

  async function deliverOne(withSecret: boolean, rule?: { outcome: string; times: number }) {
    const c = client(await harness().merchant());
    const { url, lines } = await listener(withSecret ? c.merchant.webhookSecret : undefined);
    const patched = await c.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: `${url}/hooks` } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    if (rule) await fault(c, rule);
    const payment = await paymentIn(c);
    await c.flush();
    const log = await c.deliveries();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ url: `${url}/hooks`, status_code: 200, outcome: "delivered", response_excerpt: '{"received":true}' });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toEqual(JSON.parse(log[0]!.request_body!));
    return { payment, nonce: log[0]!.nonce!, summary: lines[0]! };
  }
  const summaryLine = (tx: string, nonce: string, verdict: string) =>
    new RegExp(`^\\[\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\] payment\\.received transaction_id=${tx} nonce=${nonce}  signature: ${verdict.replace(/[()]/g, "\\$&")}$`);

  it("prints the event, its transaction_id and signature: valid", async () => {
    const { payment, nonce, summary } = await deliverOne(true);
    expect(summary).toContain("payment.received");
    expect(summary).toContain(payment.transaction_id);
    expect(summary).toContain("signature: valid");
    expect(summary).toMatch(summaryLine(payment.transaction_id, nonce, "valid"));
  });

  it("says signature: INVALID for a bad_signature fault", async () => {
    const { payment, nonce, summary } = await deliverOne(true, { outcome: "bad_signature", times: 1 });
    expect(summary).toContain("signature: INVALID");
    expect(summary).toMatch(summaryLine(payment.transaction_id, nonce, "INVALID"));
  });

  it("says the signature is not checked without a secret", async () => {
    const { payment, nonce, summary } = await deliverOne(false);
    expect(summary).toContain("not checked");
    expect(summary).toMatch(summaryLine(payment.transaction_id, nonce, "not checked (no --secret)"));
  });
});

describe("realtime clock", () => {
  it("a failed delivery is retried by itself after 60 sim s (100 wall ms at 600x)", async () => {
    const r = await receiver((n) => ({ status: n === 0 ? 500 : 200 }));
    const c = client(await harness({ realWall: true }).merchant({ webhook_url: r.url, clock: { mode: "realtime", speed: 600 } }));
    const m = c.merchant;
    const payment = await paymentIn(c);

    const [first, second] = (await r.waitFor(2, 5_000)) as [Received, Received];
    expect(first.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.nonce).not.toBe(first.body.nonce);
    expect(Date.parse(second.body.sent_at) - Date.parse(first.body.sent_at)).toBeGreaterThanOrEqual(60_000);
    for (const x of [first, second]) expect(verifyWebhookSignature(x.raw, signatureOf(x), m.webhookSecret)).toBe(true);

    await c.flush(); // waits for the retry's answer to be logged
    const [event] = await c.events();
    expect(event).toMatchObject({ transaction_id: payment.transaction_id, status: "delivered", attempts: 2, next_attempt_at: null });
    const log = await c.deliveries();
    expect(log.map((d) => [d.trigger, d.status_code, d.outcome])).toEqual([
      ["initial", 500, "failed"],
      ["retry", 200, "delivered"],
    ]);
    expect(log[0]!.next_retry_at).toBe(new Date(Date.parse(log[0]!.sent_at) + 60_000).toISOString());
    expect(Date.parse(log[1]!.sent_at)).toBeGreaterThanOrEqual(Date.parse(log[0]!.next_retry_at!));
    expect(r.received).toHaveLength(2);
  });
});
