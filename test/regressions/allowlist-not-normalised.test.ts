/**
 * Allowlist entries were compared as written, so
 * `::ffff:127.0.0.1` in ip_allowlist locked out a client at 127.0.0.1 (and `0:0:0:0:0:0:0:1` locked
 * out ::1; upper-case IPv6 never matched). Entries are now stored normalised, and the client IP is
 * normalised the same way, so an address matches however either side writes it.
 */
import { describe, expect, it } from "vitest";
import { expectError, harness } from "../helpers.js";

describe("IP allowlist normalisation", () => {
  it("stores entries normalised, at sign-up and on PATCH", async () => {
    const h = harness();
    const m = await h.merchant({ ip_allowlist: ["::ffff:127.0.0.1", "0:0:0:0:0:0:0:1", "2001:DB8::1"] });
    expect((await m.call("GET", "/sandbox/v1/merchant")).body.data.ip_allowlist).toEqual(["127.0.0.1", "::1", "2001:db8::1"]);

    const patched = await m.call("PATCH", "/sandbox/v1/merchant", { body: { ip_allowlist: ["::FFFF:7F00:2", "2001:0db8:0000:0000:0000:0000:0000:0002", "10.0.0.1"] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.ip_allowlist).toEqual(["127.0.0.2", "2001:db8::2", "10.0.0.1"]);
    expect((await m.call("GET", "/sandbox/v1/snapshot")).body.data.merchant.ip_allowlist).toEqual(["127.0.0.2", "2001:db8::2", "10.0.0.1"]);
  });

  it("admits a listed client however either side writes the address, and refuses the rest with 403 IP_NOT_WHITELISTED", async () => {
    const h = harness();
    const m = await h.merchant({ ip_allowlist: ["::ffff:127.0.0.1", "0:0:0:0:0:0:0:1", "2001:DB8::1"], wallet_balance: 250 });
    const balanceFrom = (ip: string) => m.call("GET", "/api/v1/wallet/balance", { ip });

    for (const ip of ["127.0.0.1", "::ffff:127.0.0.1", "::1", "0:0:0:0:0:0:0:1", "2001:db8::1", "2001:DB8:0:0:0:0:0:1", "::ffff:7f00:1"]) {
      const res = await balanceFrom(ip);
      expect(res.status, `${ip}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.balance).toBe(250);
    }
    for (const ip of ["127.0.0.2", "::ffff:127.0.0.2", "2001:db8::2", "10.0.0.1"]) {
      const err = expectError(await balanceFrom(ip), 403, "IP_NOT_WHITELISTED");
      expect(err.message).toContain(ip.replace("::ffff:", ""));
    }
    // A refused caller changed nothing; the control API stays open to every address.
    const refusedPayout = await m.call("POST", "/api/v1/payout/transfer", {
      ip: "192.0.2.1",
      body: { amount: 100, bank_code: "058", account_number: "0123456785", account_name: "EZE SEGUN FOLAKE", bank_name: "Guaranty Trust Bank" },
    });
    expectError(refusedPayout, 403, "IP_NOT_WHITELISTED");
    expect((await balanceFrom("127.0.0.1")).body.data.balance).toBe(250);
    expect((await m.call("GET", "/sandbox/v1/merchant", { ip: "192.0.2.1" })).status).toBe(200);
  });

  it("with only the IPv4-mapped form listed, 127.0.0.1 is admitted (the finding), and ::1 is not", async () => {
    const h = harness();
    const m = await h.merchant({ ip_allowlist: ["::ffff:127.0.0.1"] });
    expect((await m.call("GET", "/api/v1/wallet/balance", { ip: "127.0.0.1" })).status).toBe(200);
    expectError(await m.call("GET", "/api/v1/wallet/balance", { ip: "::1" }), 403, "IP_NOT_WHITELISTED");
  });

  it("behind a trusted proxy, the forwarded address is normalised too", async () => {
    const h = harness({ trustProxy: true });
    const m = await h.merchant({ ip_allowlist: ["2001:db8::1"] });
    const via = (forwarded: string) => m.call("GET", "/api/v1/wallet/balance", { ip: "10.0.0.9", headers: { "x-forwarded-for": forwarded } });
    expect((await via("2001:DB8:0::1, 10.0.0.9")).status).toBe(200);
    expectError(await via("2001:db8::3"), 403, "IP_NOT_WHITELISTED");
  });

  it("an entry that is not an IP address is 422 naming it", async () => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/merchants", { body: { ip_allowlist: ["127.0.0.1", "localhost"] } });
    const err = expectError(res, 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["ip_allowlist.1"]);
  });
});
