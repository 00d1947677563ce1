import { describe, expect, it } from "vitest";
import { secretsEqual } from "../../src/http/auth.js";
import { DEMO_KEYS, expectError, harness } from "../helpers.js";

describe("authentication", () => {
  it("MISSING_CREDENTIALS (401) when either header is absent", async () => {
    const h = harness();
    const m = await h.merchant();
    expectError(await h.call("GET", "/api/v1/wallet/balance"), 401, "MISSING_CREDENTIALS");
    expectError(await h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": m.apiKey } }), 401, "MISSING_CREDENTIALS");
    expectError(await h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-secret": m.apiSecret } }), 401, "MISSING_CREDENTIALS");
  });

  it("INVALID_CREDENTIALS (401) for a wrong secret, an unknown key, or another merchant's secret", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const wrong = (key: string, secret: string) =>
      h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": key, "x-api-secret": secret } });
    expectError(await wrong(a.apiKey, `${a.apiSecret}x`), 401, "INVALID_CREDENTIALS");
    expectError(await wrong("pk_test_nobody", a.apiSecret), 401, "INVALID_CREDENTIALS");
    expectError(await wrong(a.apiKey, b.apiSecret), 401, "INVALID_CREDENTIALS");
    expect((await wrong(a.apiKey, a.apiSecret)).status).toBe(200);
  });

  it("the demo merchant from fixtures works with its printed keys", async () => {
    const h = harness();
    const res = await h.call("GET", "/api/v1/wallet/balance", { headers: DEMO_KEYS });
    expect(res.status).toBe(200);
    expect(res.body.data.balance).toBe(2_500_000);
  });

  it("a pair that verified before is refused at once once its merchant is deleted or its secret changes", async () => {
    const h = harness();
    const m = await h.merchant();
    const other = await h.merchant();
    expect((await m.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    const old = m.apiSecret;
    (m.tenant.config as { api_secret: string }).api_secret = `${old}-new`;
    expectError(await m.call("GET", "/api/v1/wallet/balance"), 401, "INVALID_CREDENTIALS");
    const fresh = { "x-api-key": m.apiKey, "x-api-secret": `${old}-new` };
    expect((await h.call("GET", "/api/v1/wallet/balance", { headers: fresh })).status).toBe(200);

    expect((await other.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    expect((await other.call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expectError(await other.call("GET", "/api/v1/wallet/balance"), 401, "INVALID_CREDENTIALS");
  });

  it("compares secrets by digest, so different lengths are handled", () => {
    expect(secretsEqual("abc", "abc")).toBe(true);
    expect(secretsEqual("abc", "abcd")).toBe(false);
    expect(secretsEqual("", "abc")).toBe(false);
  });
});

describe("IP allowlist", () => {
  it("IP_NOT_WHITELISTED (403) for an address not on the list, even with valid keys", async () => {
    const h = harness();
    const m = await h.merchant({ ip_allowlist: ["10.1.2.3"] });
    expectError(await m.call("GET", "/api/v1/wallet/balance", { ip: "10.9.9.9" }), 403, "IP_NOT_WHITELISTED");
    expect((await m.call("GET", "/api/v1/wallet/balance", { ip: "10.1.2.3" })).status).toBe(200);
    // IPv4-mapped IPv6 socket addresses are the same caller.
    expect((await m.call("GET", "/api/v1/wallet/balance", { ip: "::ffff:10.1.2.3" })).status).toBe(200);
  });

  it("an empty allowlist means allowlisting is off", async () => {
    const m = await harness().merchant({ ip_allowlist: [] });
    expect((await m.call("GET", "/api/v1/wallet/balance", { ip: "203.0.113.7" })).status).toBe(200);
  });

  it("ignores X-Forwarded-For unless trust-proxy is on", async () => {
    const strict = harness();
    const m = await strict.merchant({ ip_allowlist: ["10.1.2.3"] });
    const spoofed = await m.call("GET", "/api/v1/wallet/balance", { ip: "192.0.2.1", headers: { "x-forwarded-for": "10.1.2.3" } });
    expectError(spoofed, 403, "IP_NOT_WHITELISTED");

    const proxied = harness({ trustProxy: true });
    const p = await proxied.merchant({ ip_allowlist: ["10.1.2.3"] });
    const ok = await p.call("GET", "/api/v1/wallet/balance", { ip: "127.0.0.1", headers: { "x-forwarded-for": "10.1.2.3, 172.16.0.1" } });
    expect(ok.status).toBe(200);
    const blocked = await p.call("GET", "/api/v1/wallet/balance", { ip: "10.1.2.3", headers: { "x-forwarded-for": "198.51.100.4" } });
    expectError(blocked, 403, "IP_NOT_WHITELISTED");
  });

  it("the control API is not subject to the allowlist, so a merchant can always change it", async () => {
    const h = harness();
    const m = await h.merchant({ ip_allowlist: ["10.1.2.3"] });
    const res = await m.call("PATCH", "/sandbox/v1/merchant", { ip: "192.0.2.1", body: { ip_allowlist: [] } });
    expect(res.status).toBe(200);
    expect((await m.call("GET", "/api/v1/wallet/balance", { ip: "192.0.2.1" })).status).toBe(200);
  });
});

describe("general per-minute request limit", () => {
  it("RATE_LIMITED (429) with retry_after and Retry-After in real seconds once the per-minute cap is used, on the wall clock", async () => {
    const h = harness();
    const m = await h.merchant({ limits: { requests_per_minute: 3 } });
    for (let i = 0; i < 3; i++) expect((await m.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    h.wall.now += 20_000;
    const limited = await m.call("GET", "/api/v1/wallet/balance");
    const body = expectError(limited, 429, "RATE_LIMITED");
    expect(body.retry_after).toBe(40);
    expect(body.message).toBe("Too many requests: at most 3 per minute for this account. Retry in 40 s.");
    expect(limited.headers.get("retry-after")).toBe("40");
    h.wall.now += 39_999;
    expectError(await m.call("GET", "/api/v1/wallet/balance"), 429, "RATE_LIMITED");
    h.wall.now += 1; // exactly retry_after after the refusal
    expect((await m.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
  });

  it("the merchant's clock does not move the request cap: a manual clock's advance frees nothing, a fast realtime clock counts real seconds", async () => {
    const h = harness();
    const manual = await h.merchant({ limits: { requests_per_minute: 1 } });
    expect((await manual.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    expect((await manual.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1d" } })).status).toBe(200); // the control API is not capped
    expect(expectError(await manual.call("GET", "/api/v1/wallet/balance"), 429, "RATE_LIMITED").retry_after).toBe(60);

    const fast = await h.merchant({ limits: { requests_per_minute: 1 }, clock: { mode: "realtime", speed: 60 } });
    expect((await fast.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    h.wall.now += 30_000; // half an hour of the merchant's time, half a minute of the wall's
    const limited = await fast.call("GET", "/api/v1/wallet/balance");
    expect(expectError(limited, 429, "RATE_LIMITED").retry_after).toBe(30);
    expect(limited.headers.get("retry-after")).toBe("30");
    h.wall.now += 30_000;
    expect((await fast.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    expect((await manual.call("GET", "/api/v1/wallet/balance")).status).toBe(200); // a wall minute has passed for it too
  });

  it("counts traffic, not merchant state: reset and a snapshot PUT keep the count, and no snapshot carries it", async () => {
    const h = harness();
    const m = await h.merchant({ limits: { requests_per_minute: 2 } });
    const other = await h.merchant();
    expect((await m.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    const snapshot = (await other.call("GET", "/sandbox/v1/snapshot")).body.data;
    expect(snapshot.state.windows).not.toHaveProperty("minute");
    expect((await m.call("PUT", "/sandbox/v1/snapshot", { body: { ...snapshot, merchant: { ...snapshot.merchant, limits: { ...snapshot.merchant.limits, requests_per_minute: 2 } } } })).status).toBe(200);
    expect((await m.call("POST", "/sandbox/v1/reset")).status).toBe(200);
    expect((await m.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    expectError(await m.call("GET", "/api/v1/wallet/balance"), 429, "RATE_LIMITED");
  });

  it("0 turns it off, and one merchant's limit never touches another's", async () => {
    const h = harness();
    const off = await h.merchant({ limits: { requests_per_minute: 0 } });
    const tight = await h.merchant({ limits: { requests_per_minute: 1 } });
    for (let i = 0; i < 5; i++) expect((await off.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    expect((await tight.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    expectError(await tight.call("GET", "/api/v1/wallet/balance"), 429, "RATE_LIMITED");
    expect((await off.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
  });

  it("defaults to 1,000 per minute", async () => {
    const m = await harness().merchant();
    expect(m.tenant.config.limits.requests_per_minute).toBe(1000);
  });
});

describe("capabilities", () => {
  const off = (capability: string) => ({ capabilities: { [capability]: false } });

  it("PAYOUT_DISABLED in error_code with HTTP 403 on every payout endpoint", async () => {
    const m = await harness().merchant(off("payouts"));
    for (const [method, path, body] of [
      ["GET", "/api/v1/payout/banks"],
      ["POST", "/api/v1/payout/verify-account", { bank_code: "058", account_number: "0123456789" }],
      ["POST", "/api/v1/payout/transfer", {}],
      ["GET", "/api/v1/payout/status?reference=x"],
    ] as const) {
      expectError(await m.call(method, path, { body }), 403, "PAYOUT_DISABLED");
    }
  });

  it("SERVICE_NOT_ENABLED (403) for VTU, virtual cards and checkout", async () => {
    const h = harness();
    const vtu = await h.merchant(off("vtu"));
    const cards = await h.merchant(off("virtual_cards"));
    const checkout = await h.merchant(off("checkout"));
    expectError(await vtu.call("GET", "/api/v1/vtu/discos"), 403, "SERVICE_NOT_ENABLED");
    expectError(await cards.call("GET", "/api/v1/virtual-cards"), 403, "SERVICE_NOT_ENABLED");
    expectError(await checkout.call("POST", "/api/v1/checkout/create", { body: { amount: 500 } }), 403, "SERVICE_NOT_ENABLED");
    // The other capabilities of the same merchants still work.
    expect((await vtu.call("GET", "/api/v1/virtual-cards")).status).toBe(200);
    expect((await cards.call("GET", "/api/v1/vtu/discos")).status).toBe(200);
  });

  it("a capability switched on later through PATCH takes effect at once", async () => {
    const m = await harness().merchant(off("vtu"));
    expectError(await m.call("GET", "/api/v1/vtu/discos"), 403, "SERVICE_NOT_ENABLED");
    expect((await m.call("PATCH", "/sandbox/v1/merchant", { body: { capabilities: { vtu: true } } })).status).toBe(200);
    expect((await m.call("GET", "/api/v1/vtu/discos")).status).toBe(200);
  });
});
