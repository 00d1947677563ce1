/**
 * With --trust-proxy the client address is whatever X-Forwarded-For claims, and every distinct address
 * with a payout attempt added an entry to its merchant's per-IP window map. On a manual clock the hour
 * never passes, so nothing was ever pruned (and past 1,000 addresses every attempt scanned them all):
 * a client claiming millions of addresses held millions of entries. The open routes' per-IP quota kept
 * any number of addresses active within its minute too. Now idle addresses are forgotten first and at
 * most a fixed number are counted, the least recently admitted going past it.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { MAX_PAYOUT_ADDRESSES } from "../../src/domain/bounds.js";
import type { AppEnv } from "../../src/http/env.js";
import { onError } from "../../src/http/errors.js";
import { perIpQuota } from "../../src/http/quotas.js";
import { expectError, harness, type Merchant } from "../helpers.js";

/** A merchant whose only payout cap is the per-IP one, and no request cap: each claimed address is counted. */
async function merchantBehindProxy() {
  const h = harness({ trustProxy: true });
  return h.merchant({ limits: { payout_attempts_per_hour: 0, requests_per_minute: 0, payout_attempts_per_ip_per_hour: 1 } });
}

/** A payout attempt claiming `address`: refused by validation (422), but counted, as the spec says. */
const attemptFrom = (m: Merchant, address: string) => m.call("POST", "/api/v1/payout/transfer", { body: {}, headers: { "x-forwarded-for": address } });

const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const counted = (m: Merchant) => m.tenant.state.windows.payoutAttemptsByIp;

describe("payout attempts from claimed addresses", () => {
  it("count at most MAX_PAYOUT_ADDRESSES addresses; the least recently admitted are forgotten first", async () => {
    const m = await merchantBehindProxy();
    const total = MAX_PAYOUT_ADDRESSES + 150;
    for (let i = 0; i < total; i++) expect((await attemptFrom(m, address(i))).status).toBe(422);
    expect(counted(m).size).toBe(MAX_PAYOUT_ADDRESSES);
    expect(counted(m).has(address(0))).toBe(false);
    expect(counted(m).has(address(total - 1))).toBe(true);
    // A counted address is still held to its cap (1 per hour here).
    expectError(await attemptFrom(m, address(total - 1)), 429, "IP_RATE_LIMITED");
  });

  it("forget addresses whose hour has passed, without waiting for a thousand of them", async () => {
    const m = await merchantBehindProxy();
    for (let i = 0; i < 50; i++) await attemptFrom(m, address(i));
    expect(counted(m).size).toBe(50);
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 3_600 } })).status).toBe(200);
    await attemptFrom(m, "192.0.2.1");
    expect([...counted(m).keys()]).toEqual(["192.0.2.1"]);
  });
});

describe("the open routes' per-IP quota", () => {
  it("counts at most `maxAddresses` addresses: past it the least recently admitted is forgotten", async () => {
    const now = { t: 0 };
    const app = new Hono<AppEnv>();
    app.onError(onError);
    app.use(perIpQuota({ perMinute: 1, what: "sign-ups", trustProxy: true, now: () => now.t, maxAddresses: 3 }));
    app.post("/", (c) => c.json({ ok: true }));
    const from = (ip: string) => app.request("/", { method: "POST", headers: { "x-forwarded-for": ip } }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });

    expect((await from("192.0.2.1")).status).toBe(200);
    expect((await from("192.0.2.1")).status).toBe(429); // its one a minute
    for (const ip of ["192.0.2.2", "192.0.2.3", "192.0.2.4"]) expect((await from(ip)).status).toBe(200);
    // 192.0.2.1 was the least recent of four: no longer counted, so admitted again.
    expect((await from("192.0.2.1")).status).toBe(200);
    // The three most recent still are.
    expect((await from("192.0.2.4")).status).toBe(429);
    now.t += 60_000;
    expect((await from("192.0.2.4")).status).toBe(200);
  });
});
