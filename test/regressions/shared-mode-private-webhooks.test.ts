/**
 * On a sandbox shared over a network, any merchant could
 * point its webhook_url at the sandbox's own network (127.0.0.1, 10.x, [::1], localhost) and read
 * the internal services' answers back from the delivery log; there was no way to refuse private
 * targets. Shared mode (`--shared`) now refuses such URLs wherever settings come in (sign-up, PATCH,
 * snapshot, scenario), and checks at every delivery the address a hostname resolves to. Without
 * shared mode, webhooks to localhost work as before.
 */
import dns from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { client } from "../client.js";
import type { Answer } from "../receiver.js";
import { closedAfterEach, expectError, harness, httpCall, receivers, signUpAt, startFromArgs, stopServers, tempDirs, type Merchant } from "../helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
});
const dataDir = tempDirs("msb-shared-");
afterEach(stopServers); // registered after tempDirs, so it runs first: no server writes into a removed folder
const stoppedAfter = closedAfterEach((runtime: Runtime) => runtime.stop());
const receiver = receivers();
/** What the internal service a private webhook target stands for answers. */
const INTERNAL_SERVICE = (): Answer => ({ status: 200, body: "internal service's secret answer" });

/** A harness in (or out of) shared mode: its runtime refuses private targets at delivery, its app when they are set. */
function sharedModeSandbox(shared: boolean) {
  const runtime = stoppedAfter(createRuntime({ shared }));
  return harness({ runtime, shared });
}

/** An event whose first attempt starts now (a transfer into a virtual account), then wait for the attempt. */
async function paymentReceived(m: Merchant) {
  const c = client(m);
  await c.transferIn((await c.virtualAccount({ reference: "cust-1" })).account_number, 500);
  await c.flush();
  return c.deliveries();
}

/** Makes `name` resolve to 127.0.0.1 for this process (as a DNS record pointing inside would). */
function resolveLocally(name: string) {
  const real = dns.lookup;
  vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const opts = (typeof options === "object" && options !== null ? options : {}) as { all?: boolean };
    if (hostname !== name) return (real as (...args: unknown[]) => void)(hostname, options, callback);
    process.nextTick(() => (opts.all ? cb(null, [{ address: "127.0.0.1", family: 4 }]) : cb(null, "127.0.0.1", 4)));
  }) as unknown as typeof dns.lookup);
}

const PRIVATE = (port: number) => [`http://127.0.0.1:${port}/hook`, "http://localhost/hook", "http://10.0.0.1/hook", "http://[::1]/hook", `http://[::ffff:127.0.0.1]:${port}/`, "http://192.168.1.10/", "http://169.254.169.254/latest/meta-data", "http://api.localhost./hook"];

describe("shared mode refuses private webhook targets when they are set", () => {
  it("at sign-up and on PATCH: 422 naming webhook_url, nothing created or changed", async () => {
    const r = await receiver(INTERNAL_SERVICE);
    const port = Number(new URL(r.url).port);
    const s = sharedModeSandbox(true);
    const m = await s.merchant({ webhook_url: "https://hooks.example.com/in" });
    for (const url of PRIVATE(port)) {
      const before = s.registry.size;
      const signUp = expectError(await s.call("POST", "/sandbox/v1/merchants", { body: { webhook_url: url } }), 422, "VALIDATION_ERROR");
      expect(Object.keys(signUp.errors ?? {}), url).toEqual(["webhook_url"]);
      expect(signUp.errors!.webhook_url!.join(" ")).toMatch(/^Refused: .*(private or loopback address|loopback name)/);
      expect(s.registry.size).toBe(before);

      const patch = expectError(await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: url, business_name: "Changed" } }), 422, "VALIDATION_ERROR");
      expect(Object.keys(patch.errors ?? {})).toEqual(["webhook_url"]);
    }
    expect((await m.call("GET", "/sandbox/v1/merchant")).body.data).toMatchObject({ webhook_url: "https://hooks.example.com/in", business_name: "Sandbox Merchant" });
    // A public URL and null are still fine.
    expect((await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: "https://203.0.113.10/hook" } })).status).toBe(200);
    expect((await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: null } })).status).toBe(200);
    expect(r.received).toHaveLength(0);
  });

  it("in a snapshot PUT and in a scenario: refused, nothing planted", async () => {
    const r = await receiver(INTERNAL_SERVICE);
    const s = sharedModeSandbox(true);
    const m = await s.merchant({ wallet_balance: 77 });
    const before = (await m.call("GET", "/sandbox/v1/snapshot")).body.data;
    const planted = { ...structuredClone(before), merchant: { ...before.merchant, webhook_url: r.url } };
    const put = expectError(await m.call("PUT", "/sandbox/v1/snapshot", { body: planted }), 422, "VALIDATION_ERROR");
    expect(Object.keys(put.errors ?? {})).toEqual(["merchant.webhook_url"]);
    expect((await m.call("GET", "/sandbox/v1/snapshot")).body.data).toEqual(before);

    const size = s.registry.size;
    const loaded = expectError(
      await s.call("POST", "/sandbox/v1/scenarios", { body: { name: "x", merchants: { ok: {}, shop: { webhook_url: "http://10.0.0.1/hook" } } } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(loaded.errors ?? {})).toEqual(["merchants.shop.webhook_url"]);
    const yaml = `name: x\nmerchants:\n  shop:\n    webhook_url: ${r.url}\n`;
    expect(Object.keys(expectError(await s.call("POST", "/sandbox/v1/scenarios", { body: { yaml } }), 422, "VALIDATION_ERROR").errors ?? {})).toEqual(["merchants.shop.webhook_url"]);
    expect(s.registry.size).toBe(size);
    expect(r.received).toHaveLength(0);
  });
});

describe("shared mode checks where a hostname leads, at every delivery", () => {
  it("a name that resolves to 127.0.0.1 is accepted as a URL but refused at delivery, with the reason in the log; the receiver gets nothing", async () => {
    const r = await receiver(INTERNAL_SERVICE);
    const name = "hooks.shop-under-test.example";
    resolveLocally(name);
    const url = `http://${name}:${new URL(r.url).port}/webhooks`;
    const s = sharedModeSandbox(true);
    const m = await s.merchant({ webhook_url: url, webhook: { retry_schedule_seconds: [] } });

    const deliveries = await paymentReceived(m);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      url,
      outcome: "failed",
      status_code: null,
      response_excerpt: null,
      error: `Refused: ${name} resolves to 127.0.0.1, which is a private or loopback address (shared mode refuses these webhook targets)`,
    });
    expect((await m.call("GET", "/sandbox/v1/events")).body.data[0]).toMatchObject({ type: "payment.received", status: "failed", attempts: 1 });
    expect(r.received).toHaveLength(0);
  });

  it("the same name, outside shared mode, does reach the receiver (the refusal above is shared mode's doing)", async () => {
    const r = await receiver(INTERNAL_SERVICE);
    const name = "hooks.shop-under-test.example";
    resolveLocally(name);
    const url = `http://${name}:${new URL(r.url).port}/webhooks`;
    const m = await sharedModeSandbox(false).merchant({ webhook_url: url });
    const deliveries = await paymentReceived(m);
    expect(deliveries[0]).toMatchObject({ url, outcome: "delivered", status_code: 200, error: null });
    expect(r.received).toHaveLength(1);
  });

  it("a merchant saved with a loopback URL before --shared was turned on cannot use it after", async () => {
    const r = await receiver(INTERNAL_SERVICE);
    const data = await dataDir();
    const before = await startFromArgs(["--data", data]);
    const { keys, call } = await signUpAt(before.url, { webhook_url: r.url, webhook: { retry_schedule_seconds: [] }, kyc: { bvn: "22212345678" } });
    const va = await call("POST", "/api/v1/virtual-account/create", { body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi" } });
    await stopServers();

    const shared = await startFromArgs(["--data", data, "--shared"]);
    expect((await httpCall(shared.url, "POST", `/sandbox/v1/virtual-accounts/${va.body.data.account_number}/transfers`, { keys, body: { amount: 500 } })).status).toBe(201);
    expect((await httpCall(shared.url, "POST", "/sandbox/v1/clock/advance", { keys, body: { seconds: 0 } })).status).toBe(200);
    const deliveries = (await httpCall(shared.url, "GET", "/sandbox/v1/webhook-deliveries", { keys })).body.data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ url: r.url, outcome: "failed", status_code: null, error: "Refused: 127.0.0.1 is a private or loopback address (shared mode refuses these webhook targets)" });
    expect(r.received).toHaveLength(0);
  });
});

describe("without shared mode", () => {
  it("webhooks to localhost and 127.0.0.1 are accepted and delivered", async () => {
    const r = await receiver(INTERNAL_SERVICE);
    const s = sharedModeSandbox(false);
    const local = await s.merchant({ webhook_url: `http://localhost:${new URL(r.url).port}/webhooks` });
    expect((await paymentReceived(local))[0]).toMatchObject({ outcome: "delivered", status_code: 200, response_excerpt: "internal service's secret answer" });
    const loopback = await s.merchant({ webhook_url: r.url });
    expect((await paymentReceived(loopback))[0]).toMatchObject({ outcome: "delivered", status_code: 200 });
    expect(r.received).toHaveLength(2);
    expect((await loopback.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: "http://10.0.0.1/hook" } })).status).toBe(200);
  });
});
