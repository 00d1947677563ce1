import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectLedgerConsistent, harness } from "../helpers.js";

describe("concurrency", () => {
  it("100 concurrent payouts against a wallet that affords 50: exactly 50 accepted", async () => {
    // Each payout (1,000 Naira to one account) costs 1,000 + 10 fee; the wallet holds exactly 50 of them.
    const c = client(await harness().merchant({ wallet_balance: 50 * 1_010, limits: { payout_attempts_per_hour: 0 } }));
    const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => c.payout({ amount: 1_000 }, { ip: `10.0.${i >> 8}.${i & 255}` })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 422)).toHaveLength(50);
    expect(replies.filter((r) => r.body.error_code === "INSUFFICIENT_BALANCE")).toHaveLength(50);
    expect(await c.balance()).toBe(0);
    expect(c.tenant.state.payouts.size).toBe(50);
    expectLedgerConsistent(c.tenant);
  });

  it("concurrent payouts with one reference: exactly one accepted", async () => {
    const c = client(await harness().merchant({ limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 } }));
    const replies = await Promise.all(Array.from({ length: 30 }, () => c.payout({ amount: 1_000, reference: "same-ref" })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.body.error_code === "DUPLICATE_REFERENCE")).toHaveLength(29);
    expect(await c.balance()).toBe(1_000_000 - 1_010);
    expectLedgerConsistent(c.tenant);
  });
});
