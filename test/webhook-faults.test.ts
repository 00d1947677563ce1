/**
 * Webhook faults injected by outcome rules, per-merchant signature settings, the README's verification
 * snippets run against a real delivery, the `listen` receiver, and retries on a realtime clock.
 * Every test uses real HTTP receivers on ephemeral 127.0.0.1 ports and the manual clock unless it says
 * otherwise.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "../src/cli/listen.js";
import { verifyWebhookSignature } from "../src/webhooks/sign.js";
import { harness, makeNuban, START, type Merchant } from "./helpers.js";
import { startReceiver, type Received, type Receiver } from "./receiver.js";

const iso = (ms: number) => new Date(ms).toISOString();
const repoFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const receivers: Receiver[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});
async function receiver(answer?: Receiver["answer"]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

const flush = (m: Merchant) => m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 0 } });
const advance = async (m: Merchant, seconds: number) => {
  const res = await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
};
async function fault(m: Merchant, rule: { outcome: string; match?: Record<string, string>; times?: number; delay_seconds?: number }) {
  const res = await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "webhook", ...rule } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; times: number | null };
}
const events = async (m: Merchant) => (await m.call("GET", "/sandbox/v1/events")).body.data as any[];
const deliveries = async (m: Merchant) => (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data as any[];
const rules = async (m: Merchant) => (await m.call("GET", "/sandbox/v1/outcomes")).body.data as any[];
const signatureOf = (x: Received) => x.headers["x-webhook-signature"] as string;

async function virtualAccount(m: Merchant) {
  const res = await m.call("POST", "/api/v1/virtual-account/create", {
    body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.account_number as string;
}
async function transferIn(m: Merchant, account: string, amount = 7_500, narration = "Order 1001") {
  const res = await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, {
    body: { amount, narration, payer_name: "BELLO HALIMA", payer_bank: "Zenith Bank" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { transaction_id: string };
}
async function payout(m: Merchant, reference: string, account_number: string) {
  const res = await m.call("POST", "/api/v1/payout/transfer", {
    body: { amount: 5_000, reference, bank_code: "058", account_number, account_name: "EZE NGOZI", bank_name: "GTBank" },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data as { order_no: string };
}

/** A merchant with one payment.received delivered to a plain 200 receiver. */
async function oneDelivery(settings: Record<string, unknown> = {}) {
  const r = await receiver();
  const m = await harness().merchant({ webhook_url: r.url, ...settings });
  const payment = await transferIn(m, await virtualAccount(m));
  await flush(m);
  expect(r.received).toHaveLength(1);
  return { r, m, payment, got: r.received[0]! };
}

describe("webhook faults", () => {
  it("duplicate: the event arrives twice, same transaction_id, different nonce, logged as a duplicate", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    await fault(m, { outcome: "duplicate", times: 1 });
    const payment = await transferIn(m, await virtualAccount(m));
    await flush(m);

    expect(r.received).toHaveLength(2);
    const [first, second] = r.received as [Received, Received];
    expect(first.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.data).toEqual(first.body.data);
    expect(first.body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body.nonce).not.toBe(first.body.nonce);
    for (const x of r.received) expect(verifyWebhookSignature(x.raw, signatureOf(x), m.webhookSecret)).toBe(true);

    const [event] = await events(m);
    expect(event).toMatchObject({ type: "payment.received", transaction_id: payment.transaction_id, status: "delivered", attempts: 2 });
    const log = await deliveries(m);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ event_id: event.id, trigger: "initial", fault: "duplicate", outcome: "delivered", status_code: 200, nonce: first.body.nonce });
    expect(log[1]).toMatchObject({ event_id: event.id, trigger: "duplicate", fault: "duplicate", outcome: "delivered", status_code: 200, nonce: second.body.nonce, next_retry_at: null });
    expect(await rules(m)).toEqual([]);
  });

  it("delay: nothing arrives until delay_seconds have passed on the merchant clock; a deferred entry is logged", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    await fault(m, { outcome: "delay", delay_seconds: 120, times: 1 });
    const payment = await transferIn(m, await virtualAccount(m));
    await flush(m);
    expect(r.received).toHaveLength(0);
    const [pending] = await events(m);
    expect(pending).toMatchObject({ status: "pending", attempts: 0, next_attempt_at: iso(START + 120_000) });

    await advance(m, 119);
    expect(r.received).toHaveLength(0);
    await advance(m, 1);
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.body.sent_at).toBe(iso(START + 120_000));
    expect(got.body.data.transaction_id).toBe(payment.transaction_id);
    expect(verifyWebhookSignature(got.raw, signatureOf(got), m.webhookSecret)).toBe(true);

    const log = await deliveries(m);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      trigger: "initial",
      outcome: "deferred",
      fault: "delay",
      sent_at: iso(START),
      next_retry_at: iso(START + 120_000),
      nonce: null,
      status_code: null,
      request_body: null,
    });
    expect(log[1]).toMatchObject({
      trigger: "released",
      outcome: "delivered",
      fault: null,
      status_code: 200,
      sent_at: iso(START + 120_000),
      nonce: got.body.nonce,
      next_retry_at: null,
    });
    expect((await events(m))[0]).toMatchObject({ status: "delivered", attempts: 1, next_attempt_at: null });
    expect(await rules(m)).toEqual([]);
  });

  it("out_of_order: the first event is held until the next one is delivered, so they arrive reversed", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    await fault(m, { outcome: "out_of_order", times: 1 });
    const account = await virtualAccount(m);
    const first = await transferIn(m, account, 100, "first");
    await flush(m);
    expect(r.received).toHaveLength(0);
    const [held] = await events(m);
    expect(held).toMatchObject({ transaction_id: first.transaction_id, status: "held", attempts: 0 });
    expect(await deliveries(m)).toEqual([
      expect.objectContaining({ event_id: held.id, trigger: "initial", outcome: "held", fault: "out_of_order", nonce: null, status_code: null }),
    ]);

    const second = await transferIn(m, account, 200, "second");
    await flush(m);
    expect(r.received.map((x) => x.body.data.transaction_id)).toEqual([second.transaction_id, first.transaction_id]);
    expect(r.received.map((x) => x.body.data.reference)).toEqual(["second", "first"]);
    for (const x of r.received) expect(verifyWebhookSignature(x.raw, signatureOf(x), m.webhookSecret)).toBe(true);

    const all = await events(m);
    expect(all.map((e) => [e.transaction_id, e.status, e.attempts])).toEqual([
      [first.transaction_id, "delivered", 1],
      [second.transaction_id, "delivered", 1],
    ]);
    const log = await deliveries(m);
    expect(log.map((d) => [d.event_id, d.trigger, d.outcome, d.fault])).toEqual([
      [all[0].id, "initial", "held", "out_of_order"],
      [all[1].id, "initial", "delivered", null],
      [all[0].id, "released", "delivered", null],
    ]);
  });

  it("bad_signature: a well-formed signature that does not verify; a 401 gets a retry at +60 s that verifies", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    r.answer = (_n, req) => ({ status: verifyWebhookSignature(req.raw, signatureOf(req), m.webhookSecret) ? 200 : 401, body: "bad signature" });
    await fault(m, { outcome: "bad_signature", times: 1 });
    const payment = await transferIn(m, await virtualAccount(m));
    await flush(m);

    expect(r.received).toHaveLength(1);
    const bad = r.received[0]!;
    const badSig = signatureOf(bad);
    expect(badSig).toMatch(/^[0-9a-f]{64}$/);
    expect(badSig).not.toBe(createHmac("sha256", m.webhookSecret).update(bad.raw).digest("hex"));
    expect(verifyWebhookSignature(bad.raw, badSig, m.webhookSecret)).toBe(false);
    const [first] = await deliveries(m);
    expect(first).toMatchObject({
      trigger: "initial",
      fault: "bad_signature",
      status_code: 401,
      response_excerpt: "bad signature",
      outcome: "failed",
      next_retry_at: iso(START + 60_000),
    });
    expect(first.request_headers["x-webhook-signature"]).toBe(badSig);
    expect(await rules(m)).toEqual([]);

    await advance(m, 59);
    expect(r.received).toHaveLength(1);
    await advance(m, 1);
    expect(r.received).toHaveLength(2);
    const good = r.received[1]!;
    expect(good.body.sent_at).toBe(iso(START + 60_000));
    expect(good.body.data.transaction_id).toBe(payment.transaction_id);
    expect(good.body.nonce).not.toBe(bad.body.nonce);
    expect(verifyWebhookSignature(good.raw, signatureOf(good), m.webhookSecret)).toBe(true);
    const log = await deliveries(m);
    expect(log).toHaveLength(2);
    expect(log[1]).toMatchObject({ trigger: "retry", fault: null, status_code: 200, outcome: "delivered", next_retry_at: null });
    expect((await events(m))[0]).toMatchObject({ status: "delivered", attempts: 2, next_attempt_at: null });
  });

  it("drop: no request reaches the receiver, the attempt fails as if it were down, and the retry arrives", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    await fault(m, { outcome: "drop", times: 1 });
    const payment = await transferIn(m, await virtualAccount(m));
    await flush(m);

    expect(r.received).toHaveLength(0);
    const [dropped] = await deliveries(m);
    expect(dropped).toMatchObject({
      trigger: "initial",
      fault: "drop",
      status_code: null,
      response_excerpt: null,
      outcome: "failed",
      next_retry_at: iso(START + 60_000),
    });
    expect(dropped.error).toMatch(/fault injection/);
    expect((await events(m))[0]).toMatchObject({ status: "pending", attempts: 1, next_attempt_at: iso(START + 60_000) });

    await advance(m, 59);
    expect(r.received).toHaveLength(0);
    await advance(m, 1);
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.body.sent_at).toBe(iso(START + 60_000));
    expect(got.body.data.transaction_id).toBe(payment.transaction_id);
    expect(got.body.nonce).not.toBe(dropped.nonce);
    expect(verifyWebhookSignature(got.raw, signatureOf(got), m.webhookSecret)).toBe(true);
    const log = await deliveries(m);
    expect(log.map((d) => [d.trigger, d.fault, d.status_code, d.outcome])).toEqual([
      ["initial", "drop", null, "failed"],
      ["retry", null, 200, "delivered"],
    ]);
    expect((await events(m))[0]).toMatchObject({ status: "delivered", attempts: 2, next_attempt_at: null });
  });

  it("match { event: payout.failed } applies only to that event type, and times: 1 is consumed by one event", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    const rule = await fault(m, { outcome: "drop", match: { event: "payout.failed" }, times: 1 });
    expect(rule.times).toBe(1);

    // Other event types pass untouched and leave the rule alone.
    const payment = await transferIn(m, await virtualAccount(m));
    await flush(m);
    expect(r.received.map((x) => x.body.data.transaction_id)).toEqual([payment.transaction_id]);
    expect(await rules(m)).toEqual([expect.objectContaining({ id: rule.id, times: 1, match: { event: "payout.failed" } })]);

    const ok = await payout(m, "ok", makeNuban("058", "100200300"));
    const bad1 = await payout(m, "bad-1", "0123450001");
    const bad2 = await payout(m, "bad-2", "0123450001");
    await advance(m, 30); // all three settle; the first payout.failed is dropped, the second is not
    // Attempts of one instant go out side by side, so they may arrive in any order.
    expect(r.received.slice(1).map((x) => [x.body.event, x.body.data.transaction_id]).sort()).toEqual([
      ["payout.completed", ok.order_no],
      ["payout.failed", bad2.order_no],
    ]);
    expect(await rules(m)).toEqual([]);

    const log = await deliveries(m);
    expect(log.map((d) => [d.event_type, d.fault, d.outcome])).toEqual([
      ["payment.received", null, "delivered"],
      ["payout.completed", null, "delivered"],
      ["payout.failed", "drop", "failed"],
      ["payout.failed", null, "delivered"],
    ]);
    const droppedEvent = (await events(m)).find((e) => e.transaction_id === bad1.order_no);
    expect(droppedEvent).toMatchObject({ type: "payout.failed", status: "pending", attempts: 1, next_attempt_at: iso(START + 90_000) });

    await advance(m, 60); // the dropped one's retry
    expect(r.received.slice(3).map((x) => [x.body.event, x.body.data.transaction_id, x.body.sent_at])).toEqual([
      ["payout.failed", bad1.order_no, iso(START + 90_000)],
    ]);
    expect((await events(m)).map((e) => e.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);
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

describe("verification snippets", () => {
  const snippets = [
    { name: "Node", file: "examples/webhook-verify/verify.mjs", command: process.execPath },
    { name: "Python", file: "examples/webhook-verify/verify.py", command: "python3" },
    { name: "PHP", file: "examples/webhook-verify/verify.php", command: "php" },
  ] as const;

  function run(command: string, file: string, args: string[], stdin: Buffer): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, [repoFile(file), ...args], { stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });
  }

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

  it("README.md contains each snippet file verbatim", () => {
    const readme = readFileSync(repoFile("README.md"), "utf8");
    for (const { file } of snippets) {
      const code = readFileSync(repoFile(file), "utf8").trim();
      expect(code.length).toBeGreaterThan(0);
      expect(readme.includes(code), `README.md does not contain the code of ${file} verbatim`).toBe(true);
    }
  });
});

describe("listen receiver", () => {
  async function listener(secret: string | undefined) {
    const lines: string[] = [];
    const { url, server } = await listen({ host: "127.0.0.1", port: 0, secret, write: (line) => lines.push(line) });
    servers.push(server);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe("http://127.0.0.1:0");
    return { url, lines };
  }

  async function deliverOne(withSecret: boolean, rule?: { outcome: string; times: number }) {
    const m = await harness().merchant();
    const { url, lines } = await listener(withSecret ? m.webhookSecret : undefined);
    const patched = await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: `${url}/hooks` } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    if (rule) await fault(m, rule);
    const payment = await transferIn(m, await virtualAccount(m));
    await flush(m);
    const log = await deliveries(m);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ url: `${url}/hooks`, status_code: 200, outcome: "delivered", response_excerpt: '{"received":true}' });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toEqual(JSON.parse(log[0].request_body));
    return { payment, nonce: log[0].nonce as string, summary: lines[0]! };
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
    const h = harness({ realWall: true });
    const m = await h.merchant({ webhook_url: r.url, clock: { mode: "realtime", speed: 600 } });
    const payment = await transferIn(m, await virtualAccount(m));

    const [first, second] = (await r.waitFor(2, 5_000)) as [Received, Received];
    expect(first.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.data.transaction_id).toBe(payment.transaction_id);
    expect(second.body.nonce).not.toBe(first.body.nonce);
    expect(Date.parse(second.body.sent_at) - Date.parse(first.body.sent_at)).toBeGreaterThanOrEqual(60_000);
    for (const x of [first, second]) expect(verifyWebhookSignature(x.raw, signatureOf(x), m.webhookSecret)).toBe(true);

    await flush(m); // waits for the retry's answer to be logged
    const [event] = await events(m);
    expect(event).toMatchObject({ transaction_id: payment.transaction_id, status: "delivered", attempts: 2, next_attempt_at: null });
    const log = await deliveries(m);
    expect(log.map((d) => [d.trigger, d.status_code, d.outcome])).toEqual([
      ["initial", 500, "failed"],
      ["retry", 200, "delivered"],
    ]);
    expect(log[0].next_retry_at).toBe(iso(Date.parse(log[0].sent_at) + 60_000));
    expect(Date.parse(log[1].sent_at)).toBeGreaterThanOrEqual(Date.parse(log[0].next_retry_at));
    expect(r.received).toHaveLength(2);
  });
});
