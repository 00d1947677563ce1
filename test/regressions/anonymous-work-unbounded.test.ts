/**
 * Anonymous work had no bounds. One 1 MB
 * POST /sandbox/v1/scenarios created 97,454 merchants; sign-up accepted 5k-26k merchants in 10 s;
 * snapshot bodies up to 256 MB were parsed; a merchant could add outcome rules without end; and a
 * deeply nested JSON body reached recursive validators. Now: per-IP quotas on the open routes
 * (429 QUOTA_EXCEEDED with retry_after), a merchant cap (429 MERCHANT_LIMIT_REACHED, freed by
 * DELETE /sandbox/v1/merchant), 20 merchants per scenario, a snapshot body limit (413), 100 outcome
 * rules, 32 levels of JSON nesting (422), and --shared hides the merchant count on /health.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AppOptions } from "../../src/app.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { Registry } from "../../src/engine/registry.js";
import { expectError, harness, httpCall, signUpAt, startFromArgs, stopServers, type Reply } from "../helpers.js";

afterEach(stopServers);

const catalog = loadCatalog();

/** A harness without the demo merchant (counts start at 0), with the given quotas, cap and app options. */
function emptySandbox(options: Partial<AppOptions> & { maxMerchants?: number } = {}) {
  const { maxMerchants, ...appOptions } = options;
  return harness({ ...appOptions, registry: new Registry({ catalog, maxMerchants }) });
}

/** An anonymous sign-up with no settings on a running server; the reply is for the test to examine. */
const signUpRequest = (baseUrl: string) => httpCall(baseUrl, "POST", "/sandbox/v1/merchants", { body: {} });

const scenario = (merchants: number, extra: Record<string, unknown> = {}) => ({
  name: "many",
  merchants: Object.fromEntries(Array.from({ length: merchants }, (_, i) => [`m${i}`, { wallet_balance: 10 }])),
  ...extra,
});

/** `[[[...]]]` or `{"a":{"a":...}}` nested `depth` levels. */
const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);

function expectQuota(res: Reply) {
  const err = expectError(res, 429, "QUOTA_EXCEEDED");
  expect(Number.isInteger(err.retry_after)).toBe(true);
  expect(err.retry_after).toBeGreaterThanOrEqual(1);
  expect(err.retry_after).toBeLessThanOrEqual(60);
  expect(res.headers.get("retry-after")).toBe(String(err.retry_after));
}

describe("quotas on the open routes, per client IP", () => {
  it("the 4th sign-up from one IP in a minute is 429 QUOTA_EXCEEDED and creates nothing; another IP is still served", async () => {
    const s = emptySandbox({ quotas: { signupsPerMinute: 3, scenarioLoadsPerMinute: 0 } });
    for (let i = 0; i < 3; i++) await s.merchant({}, { ip: "203.0.113.7" });
    expect(s.registry.size).toBe(3);
    const refused = await s.call("POST", "/sandbox/v1/merchants", { body: {}, ip: "203.0.113.7" });
    expectQuota(refused);
    expect(refused.body.message).toContain("203.0.113.7");
    expect(s.registry.size).toBe(3);
    // The same address written as IPv4-mapped IPv6 is the same caller.
    expectQuota(await s.call("POST", "/sandbox/v1/merchants", { body: {}, ip: "::ffff:203.0.113.7" }));
    await s.merchant({}, { ip: "203.0.113.8" });
    await s.merchant({}, { ip: "2001:db8::7" });
    expect(s.registry.size).toBe(5);
    // Scenario loads have a quota of their own (0 here: none), and merchants keep working.
    expect((await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(1), ip: "203.0.113.7" })).status).toBe(201);
  });

  it("scenario loads likewise: the 3rd of 2 per minute is 429 and loads nothing; sign-ups are counted apart", async () => {
    const s = emptySandbox({ quotas: { signupsPerMinute: 0, scenarioLoadsPerMinute: 2 } });
    for (let i = 0; i < 2; i++) expect((await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(2), ip: "198.51.100.1" })).status).toBe(201);
    expect(s.registry.size).toBe(4);
    expectQuota(await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(2), ip: "198.51.100.1" }));
    expect(s.registry.size).toBe(4);
    expect((await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(2), ip: "198.51.100.2" })).status).toBe(201);
    await s.merchant({}, { ip: "198.51.100.1" });
    expect(s.registry.size).toBe(7);
  });

  it("--signups-per-minute reaches the server: the 3rd sign-up of 2 is refused over HTTP", async () => {
    const server = await startFromArgs(["--signups-per-minute", "2"]);
    expect((await signUpRequest(server.url)).status).toBe(201);
    expect((await signUpRequest(server.url)).status).toBe(201);
    const refused = await signUpRequest(server.url);
    expect(refused.status).toBe(429);
    const body = refused.body as { retry_after: number };
    expect(body).toMatchObject({ success: false, error_code: "QUOTA_EXCEEDED", retry_after: expect.any(Number) });
    expect(refused.headers.get("retry-after")).toBe(String(body.retry_after));
  });
});

describe("scenario size and the merchant cap", () => {
  it("a scenario with 21 merchants is 422 and creates none; 20 load", async () => {
    const s = emptySandbox();
    const res = expectError(await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(21) }), 422, "VALIDATION_ERROR");
    expect(res.errors?.merchants?.join(" ")).toContain("At most 20 merchants");
    expect(s.registry.size).toBe(0);
    expect((await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(20) })).status).toBe(201);
    expect(s.registry.size).toBe(20);
  });

  it("a scenario with 101 outcome rules is 422 and creates nothing", async () => {
    const s = emptySandbox();
    const outcomes = Array.from({ length: 101 }, () => ({ target: "payout", outcome: "failed" }));
    const res = expectError(await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(1, { outcomes }) }), 422, "VALIDATION_ERROR");
    expect(Object.keys(res.errors ?? {})).toEqual(["outcomes"]);
    expect(s.registry.size).toBe(0);
  });

  it("past the cap, sign-up and scenario loads get 429 MERCHANT_LIMIT_REACHED; DELETE /sandbox/v1/merchant frees a place", async () => {
    const s = emptySandbox({ maxMerchants: 3 });
    const first = await s.merchant();
    await s.merchant();
    // A scenario of two would pass the cap: refused whole, nothing left behind.
    expectError(await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(2) }), 429, "MERCHANT_LIMIT_REACHED");
    expect(s.registry.size).toBe(2);
    await s.merchant();
    const full = expectError(await s.call("POST", "/sandbox/v1/merchants", { body: {} }), 429, "MERCHANT_LIMIT_REACHED");
    expect(full.message).toContain("DELETE /sandbox/v1/merchant");
    expect(full.retry_after).toBeUndefined();
    expectError(await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(1) }), 429, "MERCHANT_LIMIT_REACHED");
    expect(s.registry.size).toBe(3);

    expect((await first.call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expect(s.registry.size).toBe(2);
    expectError(await first.call("GET", "/sandbox/v1/merchant"), 401, "INVALID_CREDENTIALS");
    await s.merchant();
    expect(s.registry.size).toBe(3);
    expectError(await s.call("POST", "/sandbox/v1/merchants", { body: {} }), 429, "MERCHANT_LIMIT_REACHED");
  });

  it("--max-merchants reaches the server (the demo merchant counts)", async () => {
    const server = await startFromArgs(["--max-merchants", "2"]);
    expect(server.registry.size).toBe(1);
    const made = await signUpAt(server.url);
    const refused = await signUpRequest(server.url);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error_code: "MERCHANT_LIMIT_REACHED" });
    expect((await made.call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expect((await signUpRequest(server.url)).status).toBe(201);
    expect(server.registry.size).toBe(2);
  });
});

describe("snapshot body limit", () => {
  it("a body over the limit is 413 PAYLOAD_TOO_LARGE, with or without a Content-Length, and the merchant is unchanged", async () => {
    const s = emptySandbox({ snapshotLimitBytes: 4096 });
    const m = await s.merchant({ wallet_balance: 321 });
    const exported = (await m.call("GET", "/sandbox/v1/snapshot")).body;
    const small = JSON.stringify(exported);
    expect(small.length).toBeLessThan(4096);
    expect((await m.call("PUT", "/sandbox/v1/snapshot", { raw: small, headers: { "content-type": "application/json" } })).status).toBe(200);

    // Padded past the limit (JSON whitespace keeps it a valid snapshot).
    const big = small + " ".repeat(4097 - small.length);
    const json = { "content-type": "application/json" };
    const streamed = expectError(await m.call("PUT", "/sandbox/v1/snapshot", { raw: big, headers: json }), 413, "PAYLOAD_TOO_LARGE");
    expect(streamed.message).toContain("--snapshot-limit-mb");
    expectError(await m.call("PUT", "/sandbox/v1/snapshot", { raw: big, headers: { ...json, "content-length": String(big.length) } }), 413, "PAYLOAD_TOO_LARGE");
    expect((await m.call("GET", "/sandbox/v1/snapshot")).body).toEqual(exported);
    // Other routes keep their own 1 MB limit: 4 KB is fine there.
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { raw: JSON.stringify({ amount: 1 }) + " ".repeat(5000), headers: json })).status).toBe(200);
  });

  it("by default a snapshot may be 5 MB, not more (other bodies 1 MB)", async () => {
    const s = emptySandbox();
    const m = await s.merchant();
    const exported = JSON.stringify((await m.call("GET", "/sandbox/v1/snapshot")).body);
    const json = { "content-type": "application/json" };
    const twoMb = exported + " ".repeat(2 * 1024 * 1024);
    expect((await m.call("PUT", "/sandbox/v1/snapshot", { raw: twoMb, headers: json })).status).toBe(200);
    const sixMb = exported + " ".repeat(6 * 1024 * 1024);
    expectError(await m.call("PUT", "/sandbox/v1/snapshot", { raw: sixMb, headers: json }), 413, "PAYLOAD_TOO_LARGE");
    expectError(await m.call("POST", "/sandbox/v1/wallet/fund", { raw: JSON.stringify({ amount: 1 }) + " ".repeat(1024 * 1024), headers: json }), 413, "PAYLOAD_TOO_LARGE");
  });

  it("--snapshot-limit-mb reaches the server", async () => {
    const server = await startFromArgs(["--snapshot-limit-mb", "0.01"]);
    const m = await signUpAt(server.url);
    const exported = (await m.call("GET", "/sandbox/v1/snapshot")).text;
    expect((await m.call("PUT", "/sandbox/v1/snapshot", { raw: exported })).status).toBe(200);
    const refused = await m.call("PUT", "/sandbox/v1/snapshot", { raw: exported + " ".repeat(11_000) });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ success: false, error_code: "PAYLOAD_TOO_LARGE" });
  });
});

describe("outcome rules per merchant", () => {
  it("the 101st rule is 422 and not added; deleting one makes room", async () => {
    const s = emptySandbox();
    const m = await s.merchant();
    for (let i = 0; i < 100; i++) {
      const res = await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", match: { reference: `inv-${i}` }, outcome: "failed" } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const refused = expectError(await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", outcome: "failed" } }), 422, "VALIDATION_ERROR");
    expect(refused.errors?.target?.join(" ")).toContain("at most 100 outcome rules");
    const rules = (await m.call("GET", "/sandbox/v1/outcomes")).body.data;
    expect(rules).toHaveLength(100);
    expect((await m.call("DELETE", `/sandbox/v1/outcomes/${rules[0].id}`)).status).toBe(200);
    expect((await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", outcome: "failed" } })).status).toBe(201);
    expect((await m.call("GET", "/sandbox/v1/outcomes")).body.data).toHaveLength(100);
  });
});

describe("JSON nesting", () => {
  it.each([
    ["arrays", deepArray(10_000)],
    ["objects", deepObject(10_000)],
  ])("a body of %s nested 10,000 deep is 422 VALIDATION_ERROR on /api/v1 and on /sandbox/v1/scenarios, and the sandbox carries on", async (_kind, deep) => {
    const s = emptySandbox();
    const m = await s.merchant({ wallet_balance: 5_000 });
    const json = { "content-type": "application/json" };

    const body = `{"amount":100,"bank_code":"058","account_number":"0123456785","account_name":"X","bank_name":"GTBank","narration":${deep}}`;
    const api = expectError(await m.call("POST", "/api/v1/payout/transfer", { raw: body, headers: json }), 422, "VALIDATION_ERROR");
    expect(api.errors?.body?.join(" ")).toContain("at most 32 levels");
    // Before the merchant's own keys are even checked.
    expectError(await s.call("POST", "/api/v1/payout/transfer", { raw: body, headers: json }), 422, "VALIDATION_ERROR");

    const loaded = expectError(await s.call("POST", "/sandbox/v1/scenarios", { raw: `{"name":"deep","merchants":{"a":{}},"x":${deep}}`, headers: json }), 422, "VALIDATION_ERROR");
    expect(loaded.errors?.body).toBeDefined();
    expect(s.registry.size).toBe(1);

    // Nothing moved, and the sandbox still answers.
    expect((await m.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(5_000);
    expect((await m.call("GET", "/sandbox/v1/snapshot")).body.data.state.payouts).toEqual([]);
    expect((await s.call("GET", "/health")).status).toBe(200);
    expect((await s.call("POST", "/sandbox/v1/scenarios", { body: scenario(1) })).status).toBe(201);
  });
});

describe("/health", () => {
  it("shows the merchant count by default, and none with --shared", async () => {
    const open = await startFromArgs([]);
    const openHealth = await httpCall(open.url, "GET", "/health");
    expect(openHealth.status).toBe(200);
    expect(openHealth.body).toEqual({ success: true, status: "ok", merchants: 1 });

    const shared = await startFromArgs(["--shared"]);
    await signUpRequest(shared.url);
    const sharedHealth = await httpCall(shared.url, "GET", "/health");
    expect(sharedHealth.status).toBe(200);
    expect(sharedHealth.body).toEqual({ success: true, status: "ok" });
  });
});
