import { describe, expect, it } from "vitest";
import { balanceOf, expectLedgerConsistent, harness, makeNuban } from "./helpers.js";

const body = (reference?: string) => ({
  amount: 1_000,
  bank_code: "058",
  account_number: makeNuban("058", "123456789"),
  account_name: "BELLO HALIMA",
  bank_name: "Guaranty Trust Bank",
  ...(reference ? { reference } : {}),
});

describe("concurrency", () => {
  it("100 concurrent payouts against a wallet that affords 50: exactly 50 accepted", async () => {
    // Each payout costs 1,000 + 10 fee; the wallet holds exactly 50 of them.
    const m = await harness().merchant({ wallet_balance: 50 * 1_010, limits: { payout_attempts_per_hour: 0 } });
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => m.call("POST", "/api/v1/payout/transfer", { body: body(), ip: `10.0.${i >> 8}.${i & 255}` })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 422)).toHaveLength(50);
    expect(replies.filter((r) => r.body.error_code === "INSUFFICIENT_BALANCE")).toHaveLength(50);
    expect(await balanceOf(m)).toBe(0);
    expect(m.tenant.state.payouts.size).toBe(50);
    expectLedgerConsistent(m.tenant);
  });

  it("concurrent payouts with one reference: exactly one accepted", async () => {
    const m = await harness().merchant({ limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 } });
    const replies = await Promise.all(Array.from({ length: 30 }, () => m.call("POST", "/api/v1/payout/transfer", { body: body("same-ref") })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.body.error_code === "DUPLICATE_REFERENCE")).toHaveLength(29);
    expect(await balanceOf(m)).toBe(1_000_000 - 1_010);
    expectLedgerConsistent(m.tenant);
  });
});
