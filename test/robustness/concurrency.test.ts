/** Concurrency and security under load: exact outcomes, however requests interleave. */
import { describe, expect, it, vi } from "vitest";
import { client } from "../client.js";
import { expectError, expectLedgerConsistent, harness } from "../helpers.js";

const NO_CAPS = { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 };

describe("concurrency", () => {
  it("200 concurrent payouts on a wallet that affords 100: exactly 100 succeed", async () => {
    // Each payout of 2,000 Naira costs 2,000 + 20 fee.
    const c = client(await harness().merchant({ wallet_balance: 100 * 2_020, limits: NO_CAPS }));
    const replies = await Promise.all(Array.from({ length: 200 }, () => c.payout({ amount: 2_000 })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(100);
    expect(replies.filter((r) => r.status === 422 && r.body.error_code === "INSUFFICIENT_BALANCE")).toHaveLength(100);
    expect(await c.balance()).toBe(0);
    expect(new Set(replies.filter((r) => r.status === 201).map((r) => r.body.data.order_no)).size).toBe(100);
    expectLedgerConsistent(c.tenant);
  });

  it("concurrent card funding on a wallet that affords 10 fundings: exactly 10 succeed", async () => {
    // Each funding of 10 USD costs (10 + 1 fee) x 1,600 = 17,600 Naira.
    const c = client(await harness().merchant({ wallet_balance: 10 * 17_600 + 5_000, limits: NO_CAPS }));
    const card = (await c.fundedCard(0)).card_id;
    const replies = await Promise.all(Array.from({ length: 40 }, () => c.call("POST", `/api/v1/virtual-cards/${card}/fund`, { body: { amount: 10 } })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10);
    expect(replies.filter((r) => r.body.error_code === "INSUFFICIENT_BALANCE")).toHaveLength(30);
    expect((await c.card(card)).balance).toBe(100);
    expect(await c.balance()).toBe(5_000);
    expectLedgerConsistent(c.tenant);
  });

  it("concurrent unloads never take a card below zero", async () => {
    const c = client(await harness().merchant({ limits: NO_CAPS }));
    const card = (await c.fundedCard(50)).card_id;
    const replies = await Promise.all(Array.from({ length: 20 }, () => c.call("POST", `/api/v1/virtual-cards/${card}/unload`, { body: { amount: 7 } })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(7);
    expect(replies.filter((r) => r.body.error_code === "INSUFFICIENT_CARD_BALANCE")).toHaveLength(13);
    expect((await c.card(card)).balance).toBe(1);
    expectLedgerConsistent(c.tenant);
  });

  it("duplicate references under concurrency: exactly one accepted, one debit", async () => {
    const c = client(await harness().merchant({ limits: NO_CAPS }));
    const replies = await Promise.all(Array.from({ length: 50 }, () => c.payout({ amount: 2_000, reference: "same" })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409 && r.body.error_code === "DUPLICATE_REFERENCE")).toHaveLength(49);
    expect(c.tenant.state.ledger.filter((e) => e.kind === "payout")).toHaveLength(1);
  });
});

describe("security", () => {
  it("a wrong secret is rejected alike whatever its length", async () => {
    const h = harness();
    const m = await h.merchant();
    const sameLength = m.apiSecret.slice(0, -1) + (m.apiSecret.endsWith("a") ? "b" : "a");
    const replies = await Promise.all(
      [sameLength, m.apiSecret.slice(0, 5), `${m.apiSecret}${m.apiSecret}`, "x".repeat(4096)].map((secret) =>
        h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": m.apiKey, "x-api-secret": secret } }),
      ),
    );
    for (const r of replies) expectError(r, 401, "INVALID_CREDENTIALS");
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it("secrets never appear in error responses or in logs, even when a request fails badly", async () => {
    const h = harness();
    const m = await h.merchant();
    const lines: string[] = [];
    const spies = (["log", "error", "warn", "info"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "))),
    );
    const replies = [
      await h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": m.apiKey, "x-api-secret": `${m.apiSecret}x` } }),
      await m.call("POST", "/api/v1/payout/transfer", { body: { amount: -1, narration: m.apiSecret } }),
      await m.call("PATCH", "/sandbox/v1/merchant", { body: { api_secret: "sk_test_stolen" } }),
    ];
    Object.defineProperty(m.tenant.state, "payouts", { get: () => { throw new Error("simulated bug"); } });
    replies.push(await m.call("GET", "/api/v1/payout/status?reference=x"));
    for (const spy of spies) spy.mockRestore();
    expect(replies.map((r) => r.status)).toEqual([401, 422, 422, 500]);
    const exposed = JSON.stringify(replies.map((r) => r.body)) + lines.join("\n");
    expect(lines.length).toBeGreaterThan(0); // the 500 was logged...
    for (const secret of [m.apiSecret, m.webhookSecret]) expect(exposed).not.toContain(secret); // ...without any secret
  });

  it("merchant A's keys cannot read or change merchant B through the control API", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant({ business_name: "Bee Ltd", wallet_balance: 5_000 }));
    const bVa = await b.virtualAccount({ email: "b@example.com", reference: "b-1", first_name: "Bola", last_name: "Ade" });
    const bLink = await b.checkout({ amount: 500 });
    await b.processingPayout({ amount: 2_000, reference: "b-pay" });
    const before = JSON.stringify({ ledger: b.tenant.state.ledger, config: b.tenant.config });

    expect((await a.call("GET", "/sandbox/v1/merchant")).body.data.merchant_id).toBe(a.merchant.id);
    expectError(await a.call("POST", `/sandbox/v1/virtual-accounts/${bVa.account_number}/transfers`, { body: { amount: 100 } }), 404, "NOT_FOUND");
    expectError(await a.payLink(bLink.reference), 404, "NOT_FOUND");
    expectError(await a.call("POST", "/sandbox/v1/payouts/b-pay/complete"), 404, "NOT_FOUND");
    const snapshot = await a.snapshot();
    expect(JSON.stringify(snapshot)).not.toContain(b.merchant.apiSecret);
    expect(snapshot.merchant.merchant_id).toBe(a.merchant.id);
    await a.call("POST", "/sandbox/v1/reset");
    await a.advance("1d");
    expect(JSON.stringify({ ledger: b.tenant.state.ledger, config: b.tenant.config })).toBe(before);
    expect((await b.payoutStatus("b-pay")).status).toBe("processing");
  });
});
