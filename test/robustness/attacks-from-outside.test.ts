/**
 * "Never down, never corrupt": the security review's attack families, run from outside:
 * an anonymous attacker with open sign-up, over HTTP only, against the built CLI started as users
 * start it (`start --data DIR`, and a second server with `--shared`). The review found that hostile
 * input could fail a request with a 500, keep state the sandbox then could not save or load back (a
 * clock past the Date range, a 1e308 amount, 0.001 Naira), take unbounded memory or time (a huge
 * retry schedule, 20 MB bodies, sign-up floods, deep nesting), plant a `javascript:` redirect or
 * another merchant's payment link, or point webhooks at the sandbox's own network.
 *
 * Each family: the attack gets a JSON error envelope (never a 500, never a dropped connection), and a
 * bystander merchant (signed up first) is still served with its balance unchanged. At the end both
 * processes are alive, stop cleanly, and a restart on the same --data loads every merchant file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payoutBody } from "../client.js";
import {
  balanceAt,
  expectError,
  httpCall,
  REPO_ROOT,
  repoFile,
  signUpAtStart,
  snapshotAt,
  type HttpReply,
  type ServerMerchant,
} from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";
import { rawConnection, writeChunked } from "../support/raw-http.js";

const CLI = repoFile("dist/cli.mjs");
const MAX_CLOCK_ISO = "9998-12-31T23:59:59.999Z";
const CEILING_NAIRA = 10_000_000_000_000; // MAX_BALANCE_MINOR in Naira
const EVIL_REDIRECT = "javascript:alert(document.domain)";

/** The attack was refused through the one error envelope, as JSON, with this status and code. */
function refused(res: HttpReply, status: number, code: string) {
  const body = expectError(res, status, code);
  expect(res.headers.get("content-type") ?? "", res.text.slice(0, 600)).toMatch(/^application\/json/);
  return body;
}

/** A JSON text nested `depth` levels deep, built without recursion. */
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const deepYamlFlow = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

interface Server {
  proc: StartedServer;
  url: string;
  data: string;
  args: string[];
}

const tmp = mkdtempSync(join(tmpdir(), "msb-attacks-"));
const running: StartedServer[] = [];

/** The built CLI started as users start it, on the `data` folder (and `extra` flags). */
async function startCli(data: string, extra: string[] = []): Promise<Server> {
  const args = [CLI, "start", "--port", "0", "--data", data, ...extra];
  const proc = await startServerProcess(process.execPath, args, { cwd: REPO_ROOT, ready: "merchant file(s) restored", timeoutMs: 20_000 });
  running.push(proc);
  return { proc, url: proc.url, data, args };
}
async function stopCli(s: Server): Promise<number | null> {
  running.splice(running.indexOf(s.proc), 1);
  return s.proc.stop();
}

const BYSTANDER_BALANCE = 123_456.78;
let main: Server;
let shared: Server;
let bystander: ServerMerchant;
let sharedBystander: ServerMerchant;
let bystanderLink: { reference: string; account_number: string; amount: number };

/** The bystander of each server is still served, with its balance as it was. */
async function bystandersServed() {
  expect(await balanceAt(main.url, bystander.keys)).toBe(BYSTANDER_BALANCE);
  expect(await balanceAt(shared.url, sharedBystander.keys)).toBe(BYSTANDER_BALANCE);
}

beforeAll(async () => {
  [main, shared] = await Promise.all([
    startCli(join(tmp, "main")),
    startCli(join(tmp, "shared"), ["--shared", "--signups-per-minute", "5"]),
  ]);
  bystander = await signUpAtStart(main.url, { wallet_balance: BYSTANDER_BALANCE, business_name: "Bystander Foods Ltd" });
  sharedBystander = await signUpAtStart(shared.url, { wallet_balance: BYSTANDER_BALANCE }); // shared sign-up 1 of 5
  const link = await httpCall(main.url, "POST", "/api/v1/checkout/create", { keys: bystander.keys, body: { amount: 4_200, description: "Jollof" } });
  expect(link.status, link.text).toBe(200);
  const status = await httpCall(main.url, "GET", `/api/v1/checkout/status?reference=${link.body.reference}`, { keys: bystander.keys });
  bystanderLink = { reference: link.body.reference, account_number: status.body.data.account_number, amount: 4_200 };
}, 40_000);

afterAll(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop(2_000)));
  rmSync(tmp, { recursive: true, force: true });
});

describe("attacks from outside, against `start --data` and `start --shared`", () => {
  it("(8) --shared: webhook URLs into the sandbox's own network are refused, however they come in", async () => {
    const a = await signUpAtStart(shared.url); // shared sign-up 2 of 5
    const targets = [
      "http://127.0.0.1:4010/hook",
      "http://localhost:4010/hook",
      "http://LocalHost./hook",
      "http://10.1.2.3/hook",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://0.0.0.0:4010/hook",
      "http://2130706433/hook", // 127.0.0.1 written as one number
      "http://127.1/hook",
    ];
    const good = await snapshotAt(shared.url, a.keys);
    for (const url of targets) {
      refused(await httpCall(shared.url, "PATCH", "/sandbox/v1/merchant", { keys: a.keys, body: { webhook_url: url } }), 422, "VALIDATION_ERROR");
      const doc = structuredClone(good);
      doc.merchant.webhook_url = url;
      refused(await httpCall(shared.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, body: doc }), 422, "VALIDATION_ERROR");
    }
    refused(
      await httpCall(shared.url, "POST", "/sandbox/v1/scenarios", { body: { name: "ssrf", merchants: { m: { webhook_url: "http://10.0.0.1/hook" } } } }),
      422,
      "VALIDATION_ERROR",
    );
    // Sign-ups 3, 4 and 5 of 5: refused for their webhook_url.
    for (const url of ["http://127.0.0.1/hook", "http://localhost/hook", "http://10.9.8.7/hook"]) {
      const body = refused(await httpCall(shared.url, "POST", "/sandbox/v1/merchants", { body: { webhook_url: url } }), 422, "VALIDATION_ERROR");
      expect(JSON.stringify(body.errors)).toContain("webhook_url");
    }
    expect(await snapshotAt(shared.url, a.keys)).toEqual(good);
    // Shared mode's /health tells strangers nothing about the merchants.
    const health = await httpCall(shared.url, "GET", "/health");
    expect(health.status).toBe(200);
    expect(health.body).not.toHaveProperty("merchants");
    await bystandersServed();
  });

  it("(6) a sign-up flood past the per-IP quota gets 429 QUOTA_EXCEEDED, and the merchants already there are served", async () => {
    // Five sign-ups were made from this address in the last minute (two accepted, three refused).
    const flood = await Promise.all(Array.from({ length: 40 }, () => httpCall(shared.url, "POST", "/sandbox/v1/merchants", { body: {} })));
    for (const res of flood) {
      const body = refused(res, 429, "QUOTA_EXCEEDED");
      expect(body.retry_after).toBeGreaterThanOrEqual(1);
      expect(body.retry_after).toBeLessThanOrEqual(60);
      expect(res.headers.get("retry-after")).toBe(String(body.retry_after));
    }
    await bystandersServed();
  });

  it("(1) hostile snapshots: a clock past the Date range, 6,000-deep event data, javascript: redirect, file: webhook, 1,500 retries", async () => {
    const a = await signUpAtStart(main.url);
    const link = await httpCall(main.url, "POST", "/api/v1/checkout/create", { keys: a.keys, body: { amount: 1_500, redirect_url: "https://shop.example.com/done" } });
    expect(link.status).toBe(200);
    const good = await snapshotAt(main.url, a.keys);
    const put = (doc: unknown) => httpCall(main.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, body: doc });
    const tweak = (change: (doc: any) => void) => {
      const doc = structuredClone(good);
      change(doc);
      return doc;
    };

    // The clock past what a Date can hold (8.64e15 ms), and past the sandbox's own range.
    for (const now of [8.64e15 + 1, Number.MAX_SAFE_INTEGER, 1e308, Date.UTC(9999, 0, 1)]) {
      const body = refused(await put(tweak((d) => (d.clock.now = now))), 422, "VALIDATION_ERROR");
      expect(JSON.stringify(body.errors)).toContain("clock.now");
    }
    // An event whose data nests 6,000 levels (as hand-written JSON: the server must not recurse on it).
    const event = {
      id: "EVT_deep", type: "payment.received", transaction_id: "TXN_deep", created_at: good.clock.now, status: "pending",
      attempts: 0, scheduled_attempts: 0, next_attempt_at: null, error: null, data: "__DEEP__",
    };
    const deep = JSON.stringify(tweak((d) => d.state.events.push(event))).replace('"__DEEP__"', deepJson(6_000));
    expect(refused(await httpCall(main.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, raw: deep }), 422, "VALIDATION_ERROR").errors).toHaveProperty("body");
    // A javascript: redirect on the payment link.
    refused(await put(tweak((d) => (d.state.checkouts[0].redirect_url = EVIL_REDIRECT))), 422, "VALIDATION_ERROR");
    // Webhooks to a file, and a retry schedule of 1,500 entries.
    refused(await put(tweak((d) => (d.merchant.webhook_url = "file:///etc/passwd"))), 422, "VALIDATION_ERROR");
    refused(await put(tweak((d) => (d.merchant.webhook.retry_schedule_seconds = Array.from({ length: 1_500 }, () => 1)))), 422, "VALIDATION_ERROR");
    // The same settings through PATCH.
    const patch = (body: unknown) => httpCall(main.url, "PATCH", "/sandbox/v1/merchant", { keys: a.keys, body });
    refused(await patch({ webhook_url: "file:///etc/passwd" }), 422, "VALIDATION_ERROR");
    refused(await patch({ webhook: { retry_schedule_seconds: Array.from({ length: 1_500 }, () => 1) } }), 422, "VALIDATION_ERROR");
    refused(await patch({ clock: { now: "+275760-09-13T00:00:00.001Z" } }), 422, "VALIDATION_ERROR");

    // Nothing changed, the page carries no javascript: URL, and the snapshot still round-trips.
    expect(await snapshotAt(main.url, a.keys)).toEqual(good);
    const page = await httpCall(main.url, "GET", `/pay/${link.body.reference}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/javascript:/i);
    expect((await put(good)).status).toBe(200);
    await bystandersServed();
  });

  it("(2) hostile scenario loads: a 1e308 link, +99999999999d, 0.001 amounts, 21 merchants, 10,000-deep nesting", async () => {
    const merchantsBefore = (await httpCall(main.url, "GET", "/health")).body.merchants;
    const postScenario = (body: unknown) => httpCall(main.url, "POST", "/sandbox/v1/scenarios", { body });
    const va = { as: "acct", email: "ada@example.com", reference: "va-1", first_name: "Ada", last_name: "Obi", bvn: "22212345678" };

    refused(await postScenario({ name: "huge link", merchants: { m: {} }, payment_links: [{ as: "l", amount: 1e308 }] }), 422, "VALIDATION_ERROR");
    refused(
      await postScenario({ name: "far future", merchants: { m: {} }, virtual_accounts: [va], timeline: [{ at: "+99999999999d", transfer: { to: "acct", amount: 100 } }] }),
      422,
      "VALIDATION_ERROR",
    );
    refused(await postScenario({ name: "tenth of a kobo", merchants: { m: { wallet_balance: 0.001 } } }), 422, "VALIDATION_ERROR");
    refused(await postScenario({ name: "tenth of a kobo link", merchants: { m: {} }, payment_links: [{ as: "l", amount: 100.001 }] }), 422, "VALIDATION_ERROR");
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`m${i}`, {}]));
    refused(await postScenario({ name: "crowd", merchants: many }), 422, "VALIDATION_ERROR");
    // 10,000 levels as JSON, and as YAML inside the { yaml } form (which no JSON depth check sees).
    const deepLoad = await httpCall(main.url, "POST", "/sandbox/v1/scenarios", { raw: `{"name":"deep","merchants":{"m":{}},"steps":[${deepJson(10_000)}]}` });
    expect(refused(deepLoad, 422, "VALIDATION_ERROR").errors).toHaveProperty("body");
    refused(await postScenario({ yaml: `name: deep\nmerchants: { m: {} }\nsteps: ${deepYamlFlow(10_000)}\n` }), 422, "VALIDATION_ERROR");
    // A YAML alias bomb (each level doubles: 2^30 nodes if expanded).
    const bomb = ["a0: &a0 [x, x]", ...Array.from({ length: 30 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}, *a${i}]`)].join("\n");
    refused(await postScenario({ yaml: `name: bomb\nmerchants: { m: {} }\n${bomb}\n` }), 422, "VALIDATION_ERROR");

    // No merchant was left behind by a refused load.
    expect((await httpCall(main.url, "GET", "/health")).body.merchants).toBe(merchantsBefore);
    await bystandersServed();
  });

  it("(3) wallet fundings up to the balance ceiling: refused past it, and the wallet still works", async () => {
    const a = await signUpAtStart(main.url, { wallet_balance: 100_000_000_000 });
    const fundHundredBillion = () => httpCall(main.url, "POST", "/sandbox/v1/wallet/fund", { keys: a.keys, body: { amount: 100_000_000_000 } });
    const replies: HttpReply[] = [];
    for (let batch = 0; batch < 5; batch++) replies.push(...(await Promise.all(Array.from({ length: 20 }, fundHundredBillion))));
    const accepted = replies.filter((r) => r.status === 200);
    const refusals = replies.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(99); // 100 x 100 bn = the ceiling exactly
    expect(refusals).toHaveLength(1);
    const body = refused(refusals[0]!, 422, "BALANCE_LIMIT_EXCEEDED");
    expect(body.message).toMatch(/ceiling/);
    expect(await balanceAt(main.url, a.keys)).toBe(CEILING_NAIRA);
    refused(await httpCall(main.url, "POST", "/sandbox/v1/wallet/fund", { keys: a.keys, body: { amount: 0.01 } }), 422, "BALANCE_LIMIT_EXCEEDED");
    refused(await httpCall(main.url, "POST", "/sandbox/v1/wallet/fund", { keys: a.keys, body: { amount: 1e12 } }), 422, "VALIDATION_ERROR");

    // At the ceiling the wallet still pays out, and its snapshot saves and loads back.
    const payout = await httpCall(main.url, "POST", "/api/v1/payout/transfer", {
      keys: a.keys,
      body: payoutBody({ amount: 5_000, reference: "at-ceiling" }),
    });
    expect(payout.status, payout.text).toBe(201);
    expect(await balanceAt(main.url, a.keys)).toBe(CEILING_NAIRA - payout.body.data.total_deducted);
    const snap = await snapshotAt(main.url, a.keys);
    expect((await httpCall(main.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, body: snap })).status).toBe(200);
    await bystandersServed();
  });

  it("(4) ten-year clock advances until refused, then a transfer at the end of the range", async () => {
    // An hourly payout limit of 1,500: each transfer below (1,000) fits in its own hour.
    const a = await signUpAtStart(main.url, { wallet_balance: 50_000, limits: { payout_hourly_amount: 1_500 } });
    const requestAdvance = (body: unknown) => httpCall(main.url, "POST", "/sandbox/v1/clock/advance", { keys: a.keys, body });
    let advances = 0;
    let last: HttpReply;
    for (;;) {
      last = await requestAdvance({ by: "3650d" });
      if (last.status !== 200) break;
      advances += 1;
      expect(advances, "the clock must stop before the end of 9998").toBeLessThan(1_000);
    }
    expect(advances).toBeGreaterThan(700);
    expect(refused(last, 422, "VALIDATION_ERROR").errors).toHaveProperty("by");
    expect(JSON.stringify(last.body)).toContain("9998-12-31T23:59:59.999Z");
    refused(await requestAdvance({ seconds: 1e300 }), 422, "VALIDATION_ERROR");
    refused(await requestAdvance({ by: "99999999999d" }), 422, "VALIDATION_ERROR");
    refused(await requestAdvance({ to: "+275760-09-13T00:00:00.000Z" }), 422, "VALIDATION_ERROR");

    const transfer = (reference: string) =>
      httpCall(main.url, "POST", "/api/v1/payout/transfer", {
        keys: a.keys,
        body: payoutBody({ amount: 1_000, reference }),
      });
    const first = await transfer("far-future-1");
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.created_at).toMatch(/^99\d\d-/);

    // To the last instant of the range (years later): the payout settles on the way, and another one
    // works, in an hour window of its own.
    const end = await requestAdvance({ to: MAX_CLOCK_ISO });
    expect(end.status, end.text).toBe(200);
    expect(end.body.data.now).toBe(MAX_CLOCK_ISO);
    expect((await httpCall(main.url, "GET", "/api/v1/payout/status?reference=far-future-1", { keys: a.keys })).body.data.status).toBe("completed");
    const second = await transfer("far-future-2");
    expect(second.status, second.text).toBe(201);
    expect(second.body.data.created_at).toBe(MAX_CLOCK_ISO);
    const link = await httpCall(main.url, "POST", "/api/v1/checkout/create", { keys: a.keys, body: { amount: 100 } });
    expect(link.status, link.text).toBe(200);
    refused(await requestAdvance({ seconds: 1 }), 422, "VALIDATION_ERROR");

    // The state at the end of time exports and imports.
    const snap = await snapshotAt(main.url, a.keys);
    expect((await httpCall(main.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, body: snap })).status).toBe(200);
    expect((await httpCall(main.url, "GET", "/sandbox/v1/clock", { keys: a.keys })).body.data.now).toBe(MAX_CLOCK_ISO);
    await bystandersServed();
  }, 30_000);

  it("(5) oversized bodies: a 20 MB snapshot and a 2 MB /api/v1 body get 413", async () => {
    const a = await signUpAtStart(main.url);
    const big = (bytes: number) => JSON.stringify({ padding: "x".repeat(bytes) });
    refused(await httpCall(main.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, raw: big(20 * 1024 * 1024) }), 413, "PAYLOAD_TOO_LARGE");
    refused(await httpCall(main.url, "POST", "/api/v1/payout/transfer", { keys: a.keys, raw: big(2 * 1024 * 1024) }), 413, "PAYLOAD_TOO_LARGE");
    // Anonymous, on the open routes too.
    refused(await httpCall(main.url, "POST", "/sandbox/v1/merchants", { raw: big(2 * 1024 * 1024) }), 413, "PAYLOAD_TOO_LARGE");
    refused(await httpCall(main.url, "POST", "/sandbox/v1/scenarios", { raw: big(2 * 1024 * 1024) }), 413, "PAYLOAD_TOO_LARGE");
    // Chunked (no Content-Length up front): cut off as it streams. The refusal keeps its word about
    // the connection: it says "close", or the same connection serves the client's next request.
    const conn = await rawConnection(main.url);
    const head = `POST /api/v1/payout/transfer HTTP/1.1\r\nHost: sandbox\r\nX-Api-Key: ${a.keys["x-api-key"]}\r\nX-Api-Secret: ${a.keys["x-api-secret"]}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    conn.socket.write(head);
    writeChunked(conn.socket, big(2 * 1024 * 1024));
    const tooLarge = await conn.response();
    expect(tooLarge, "no reply to the chunked upload").not.toBeNull();
    expect(tooLarge!.status).toBe(413);
    expect(JSON.parse(tooLarge!.body)).toMatchObject({ success: false, error_code: "PAYLOAD_TOO_LARGE" });
    if (tooLarge!.headers.connection?.toLowerCase() !== "close") {
      conn.socket.write(`GET /api/v1/wallet/balance HTTP/1.1\r\nHost: sandbox\r\nX-Api-Key: ${a.keys["x-api-key"]}\r\nX-Api-Secret: ${a.keys["x-api-secret"]}\r\n\r\n`);
      const next = await conn.response();
      expect(next, "the 413 said keep-alive, but the next request on that connection was dropped unanswered").not.toBeNull();
      expect(next!.status).toBe(200);
    }
    conn.socket.destroy();
    expect(await balanceAt(main.url, a.keys)).toBe(1_000_000);
    await bystandersServed();
  });

  it("(7) planting another merchant's payment link (reference or account number) through a snapshot is refused", async () => {
    const a = await signUpAtStart(main.url);
    const own = await httpCall(main.url, "POST", "/api/v1/checkout/create", { keys: a.keys, body: { amount: 999 } });
    expect(own.status).toBe(200);
    const good = await snapshotAt(main.url, a.keys);
    const plant = (change: (checkout: any) => void) => {
      const doc = structuredClone(good);
      change(doc.state.checkouts[0]);
      return httpCall(main.url, "PUT", "/sandbox/v1/snapshot", { keys: a.keys, body: doc });
    };
    for (const change of [
      (c: any) => (c.reference = bystanderLink.reference),
      (c: any) => (c.account_number = bystanderLink.account_number),
      (c: any) => ((c.reference = bystanderLink.reference), (c.account_number = bystanderLink.account_number), (c.amount = 1)),
    ]) {
      const body = refused(await plant(change), 422, "VALIDATION_ERROR");
      expect(JSON.stringify(body.errors)).toMatch(/another merchant/);
    }
    expect(await snapshotAt(main.url, a.keys)).toEqual(good);

    // The link's public page and status still belong to the bystander, and it can still be paid.
    const page = await httpCall(main.url, "GET", `/pay/${bystanderLink.reference}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Bystander Foods Ltd");
    const status = await httpCall(main.url, "GET", `/pay/${bystanderLink.reference}/status`);
    expect(status.body.data).toMatchObject({ reference: bystanderLink.reference, amount: bystanderLink.amount, account_number: bystanderLink.account_number, status: "pending" });
    const mine = await httpCall(main.url, "GET", `/api/v1/checkout/status?reference=${bystanderLink.reference}`, { keys: bystander.keys });
    expect(mine.status).toBe(200);
    refused(await httpCall(main.url, "GET", `/api/v1/checkout/status?reference=${bystanderLink.reference}`, { keys: a.keys }), 404, "NOT_FOUND");
    await bystandersServed();
  });

  it("(9) the payment page of a link carries a CSP (nonce'd scripts only), and reflects no markup", async () => {
    for (const path of [`/pay/${bystanderLink.reference}`, `/processor/checkout/${bystanderLink.reference}`, "/pay/%3Cscript%3Ealert(1)%3C%2Fscript%3E"]) {
      const page = await httpCall(main.url, "GET", path);
      expect([200, 404]).toContain(page.status);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      const csp = page.headers.get("content-security-policy") ?? "";
      const directives = new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
      expect(directives.get("default-src")).toEqual(["'self'"]);
      expect(directives.get("object-src")).toEqual(["'none'"]);
      expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
      const scriptSrc = directives.get("script-src") ?? [];
      expect(scriptSrc.some((v) => /^'nonce-[^']+'$/.test(v))).toBe(true);
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(page.text).not.toContain("<script>alert(1)");
    }
    await bystandersServed();
  });

  it("both processes are still alive and stop cleanly, and a restart on the same --data loads every merchant file", async () => {
    for (const s of [main, shared]) {
      const health = await httpCall(s.url, "GET", "/health");
      expect(health.status, health.text).toBe(200);
      expect(health.body.status).toBe("ok");
      // No request met a bug, and nothing escaped to the process's last-resort handlers.
      expect(s.proc.output()).not.toMatch(/unexpected error|\] request \S+ failed/);
    }
    for (const s of [shared, main]) {
      const files = readdirSync(s.data).filter((n) => n.endsWith(".json"));
      expect(await stopCli(s)).toBe(0);
      const again = await startCli(s.data, s.args.slice(6));
      expect(again.proc.output()).toContain(`(${files.length} merchant file(s) restored)`);
      for (const file of files) {
        const saved = JSON.parse(readFileSync(join(s.data, file), "utf8")) as { merchant: { merchant_id: string; api_key: string; api_secret: string } };
        const res = await httpCall(again.url, "GET", "/sandbox/v1/merchant", { keys: { "x-api-key": saved.merchant.api_key, "x-api-secret": saved.merchant.api_secret } });
        expect(res.status, `${file}: ${res.text}`).toBe(200);
        expect(res.body.data.merchant_id).toBe(saved.merchant.merchant_id);
      }
      const who = s === main ? bystander : sharedBystander;
      expect(await balanceAt(again.url, who.keys)).toBe(BYSTANDER_BALANCE);
      expect(again.proc.output()).not.toMatch(/unexpected error/);
      expect(await stopCli(again)).toBe(0);
    }
  }, 30_000);
});
