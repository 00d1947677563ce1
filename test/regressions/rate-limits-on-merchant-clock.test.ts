/**
 * The rate limits ran on the merchant's simulated clock. On a manual clock a
 * merchant's 1,001st request in a test run was refused until someone advanced the clock, and
 * `Retry-After: 60` was still 429 after 62 s of real time: a client that obeyed it waited forever.
 * Now the per-minute request cap counts wall-clock time, and the payout attempt caps (which stay on
 * the merchant's clock, so a test can advance past them) tell the truth for that clock: no
 * Retry-After header on a manual clock, and a message that names the advance that gets past them.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, harness } from "../helpers.js";

describe("the per-minute request cap on a manual-clock merchant", () => {
  it("refuses the 1,001st request of a minute, and admits again once retry_after real seconds have passed, the merchant's clock untouched", async () => {
    const h = harness();
    const m = await h.merchant(); // a manual clock, the default 1,000 requests per minute
    for (let i = 0; i < 1_000; i++) {
      const res = await m.call("GET", "/api/v1/wallet/balance");
      if (res.status !== 200) expect.fail(`request ${i + 1} got ${res.status}`);
    }
    const limited = await m.call("GET", "/api/v1/wallet/balance");
    const body = expectError(limited, 429, "RATE_LIMITED");
    expect(body.retry_after).toBe(60);
    expect(limited.headers.get("retry-after")).toBe("60");

    h.wall.now += 62_000; // the client obeyed Retry-After, and then some
    const again = await m.call("GET", "/api/v1/wallet/balance");
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.now).toBe("2026-03-02T09:00:00.000Z");
  });
});

describe("a payout attempt cap on a manual-clock merchant", () => {
  it("sends no Retry-After (waiting never frees it) and names the advance that does; advancing exactly retry_after does", async () => {
    const h = harness();
    const c = client(await h.merchant({ limits: { payout_attempts_per_hour: 1 } }));
    expect((await c.payout()).status).toBe(201);
    const limited = await c.payout();
    const body = expectError(limited, 429, "RATE_LIMITED");
    expect(body.retry_after).toBe(3_600);
    expect(limited.headers.get("retry-after")).toBeNull();
    expect(body.message).toContain("advance the clock by 3600 seconds (POST /sandbox/v1/clock/advance)");

    h.wall.now += 3_700_000; // real time passing changes nothing on a manual clock
    expectError(await c.payout(), 429, "RATE_LIMITED");
    await c.advance(body.retry_after!);
    expect((await c.payout()).status).toBe(201);
  });
});
