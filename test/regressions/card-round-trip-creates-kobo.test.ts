/**
 * Card fundings and unloads converted USD to Naira rounding
 * each to the nearest kobo, so at some rates a round trip created money: at 1600.5 NGN/USD, funding
 * USD 2.02 charged 3,233.01 and unloading it as two USD 1.01 credited 1,616.51 twice, and seventeen
 * such round trips turned a wallet of 100,000 into 100,000.17. Conversions are now exact in integers
 * (the rate has at most 4 decimals): a funding charges rounded up, an unload credits rounded down.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { client, type TestClient } from "../client.js";
import { expectError, harness, type Harness } from "../helpers.js";

const CARDS = "/api/v1/virtual-cards";
const SCALE = 10_000n; // the rate's 4 decimals

/** Naira (as the API shows it, two decimals) to kobo. */
const kobo = (naira: number) => BigInt(Math.round(naira * 100));
/** What the wallet pays for `cents` at `rate` (scaled by 10^4): rounded up; what it gets back: rounded down. */
const walletPays = (cents: bigint, rate: bigint) => (cents * rate + SCALE - 1n) / SCALE;
const walletGets = (cents: bigint, rate: bigint) => (cents * rate) / SCALE;

/** A merchant (`settings` at sign-up) with `cards` unfunded cards of one approved cardholder. */
async function cardMerchant(h: Harness, settings: Record<string, unknown>, cards: number) {
  const c = client(await h.merchant(settings));
  const { cardholder_id } = await c.cardholder({ email: "ada@example.com" });
  const ids: number[] = [];
  for (let i = 0; i < cards; i++) ids.push((await c.fundedCard(0, { cardholder_id })).card_id);
  return { c, m: c.merchant, ids };
}
const walletKobo = async (c: TestClient) => kobo(await c.balance());
const cardCents = async (c: TestClient, id: number) => kobo((await c.card(id)).balance);

type Op = { kind: "fund" | "unload"; card: number; cents: number } | { kind: "unloadAll" | "terminate"; card: number };

const rateScaled = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 1_000_000_000 }) }, // 0.0001 .. 100,000.0000
  { weight: 3, arbitrary: fc.integer({ min: 10_000_000, max: 20_000_000 }) }, // around today's 1,000-2,000
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => n * 10_000 + 5_000) }, // x.5: halves round
  { weight: 1, arbitrary: fc.constantFrom(1, 9_999, 16_005_000, 1_000_000_000) },
);
const cents = fc.oneof(fc.integer({ min: 100, max: 1_000 }), fc.integer({ min: 100, max: 1_000_000 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("fund" as const), card: fc.nat(2), cents }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("unload" as const), card: fc.nat(2), cents }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("unloadAll" as const), card: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("terminate" as const), card: fc.nat(2) }) },
);

describe("card conversions never create money", () => {
  it("the finding's rate: 17 round trips at 1600.5 lose 17 kobo instead of creating them", async () => {
    const h = harness();
    const { c, m, ids } = await cardMerchant(h, { wallet_balance: 100_000, usd_ngn_rate: 1600.5, card_funding_fee_usd: 0 }, 1);
    const card = ids[0]!;
    for (let i = 0; i < 17; i++) {
      const funded = await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 2.02 } });
      expect(funded.body).toMatchObject({ amount: 2.02, fee: 0, exchange_rate: 1600.5, wallet_amount: 3233.01 });
      for (let j = 0; j < 2; j++) {
        const unloaded = await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 1.01 } });
        expect(unloaded.body).toMatchObject({ amount: 1.01, wallet_amount: 1616.5 });
      }
    }
    expect(await c.balance()).toBe(99_999.83);
    expect(await cardCents(c, card)).toBe(0n);
  });

  it("property: at any rate (up to 4 decimals, up to 100,000) and any fund/unload/terminate sequence, wallet plus cards never exceed what went in", async () => {
    const h = harness();
    await fc.assert(
      fc.asyncProperty(rateScaled, fc.constantFrom(0, 0, 0.01, 1, 2.37), fc.array(op, { minLength: 1, maxLength: 12 }), async (R, fee, ops) => {
        const rate = BigInt(R);
        const opening = 100_000_000_000; // Naira: covers 12 fundings of USD 10,000 at 100,000
        const { c, m, ids } = await cardMerchant(h, { wallet_balance: opening, usd_ngn_rate: R / 10_000, card_funding_fee_usd: fee }, 3);
        const feeCents = BigInt(Math.round(fee * 100));
        let wallet = kobo(opening);
        const cards = ids.map((id) => ({ id, cents: 0n, terminated: false }));
        /** Wallet plus every card's value at the rate, both scaled by 10^4: never above the opening. */
        const holdsAtMost = () => {
          const value = wallet * SCALE + cards.reduce((sum, held) => sum + held.cents * rate, 0n);
          expect(value <= kobo(opening) * SCALE, `wallet ${wallet} + cards ${cards.map((c) => c.cents)} at ${R}`).toBe(true);
        };

        for (const o of ops) {
          const card = cards[o.card]!;
          if (o.kind === "fund") {
            const res = await m.call("POST", `${CARDS}/${card.id}/fund`, { body: { amount: o.cents / 100 } });
            if (card.terminated) {
              expectError(res, 409, "INVALID_STATE");
            } else {
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              const paid = walletPays(BigInt(o.cents), rate) + (feeCents > 0n ? walletPays(feeCents, rate) : 0n);
              expect(kobo(res.body.wallet_amount)).toBe(paid);
              wallet -= paid;
              card.cents += BigInt(o.cents);
            }
          } else if (o.kind === "unload" || o.kind === "unloadAll") {
            const amount = o.kind === "unload" ? BigInt(o.cents) : card.cents < 1_000_000n ? card.cents : 1_000_000n; // at most USD 10,000 a call
            if (amount < 100n) continue; // below the USD 1 minimum: nothing to try
            const res = await m.call("POST", `${CARDS}/${card.id}/unload`, { body: { amount: Number(amount) / 100 } });
            if (card.terminated) expectError(res, 409, "INVALID_STATE");
            else if (amount > card.cents) expectError(res, 422, "INSUFFICIENT_CARD_BALANCE");
            else {
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              expect(kobo(res.body.wallet_amount)).toBe(walletGets(amount, rate));
              wallet += walletGets(amount, rate);
              card.cents -= amount;
            }
          } else {
            const res = await m.call("POST", `${CARDS}/${card.id}/terminate`);
            if (card.terminated) expectError(res, 409, "INVALID_STATE");
            else {
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              expect(kobo(res.body.refunded_amount)).toBe(card.cents);
              wallet += walletGets(card.cents, rate);
              card.cents = 0n;
              card.terminated = true;
            }
          }
          expect(await walletKobo(c)).toBe(wallet);
          expect(await cardCents(c, card.id)).toBe(card.cents);
          holdsAtMost();
        }

        // Everything back to the wallet: it never ends above where it started.
        for (const card of cards) {
          if (card.terminated) continue;
          const res = await m.call("POST", `${CARDS}/${card.id}/terminate`);
          expect(res.status).toBe(200);
          wallet += walletGets(card.cents, rate);
          card.cents = 0n;
        }
        expect(await walletKobo(c)).toBe(wallet);
        expect(wallet <= kobo(opening)).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("a rate with more than 4 decimals (or past 100,000) is refused with 422; 4 decimals are accepted", async () => {
    const h = harness();
    const refused = expectError(await h.call("POST", "/sandbox/v1/merchants", { body: { usd_ngn_rate: 1600.12345 } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(refused.errors ?? {})).toEqual(["usd_ngn_rate"]);
    expectError(await h.call("POST", "/sandbox/v1/merchants", { body: { usd_ngn_rate: 100_000.0001 } }), 422, "VALIDATION_ERROR");
    expectError(await h.call("POST", "/sandbox/v1/merchants", { body: { usd_ngn_rate: 0 } }), 422, "VALIDATION_ERROR");

    const m = await h.merchant({ usd_ngn_rate: 1600.1234 });
    expect((await m.call("GET", "/sandbox/v1/merchant")).body.data.usd_ngn_rate).toBe(1600.1234);
    const patched = expectError(await m.call("PATCH", "/sandbox/v1/merchant", { body: { usd_ngn_rate: 0.00001 } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(patched.errors ?? {})).toEqual(["usd_ngn_rate"]);
    expect((await m.call("PATCH", "/sandbox/v1/merchant", { body: { usd_ngn_rate: 100_000 } })).status).toBe(200);

    // Nor can a snapshot or a scenario bring one in.
    const snapshot = (await m.call("GET", "/sandbox/v1/snapshot")).body.data;
    snapshot.merchant.usd_ngn_rate = 1600.12345;
    expectError(await m.call("PUT", "/sandbox/v1/snapshot", { body: snapshot }), 422, "VALIDATION_ERROR");
    expect((await m.call("GET", "/sandbox/v1/merchant")).body.data.usd_ngn_rate).toBe(100_000);
    const before = h.registry.size;
    expectError(await h.call("POST", "/sandbox/v1/scenarios", { body: { name: "r", merchants: { a: { usd_ngn_rate: 1.00001 } } } }), 422, "VALIDATION_ERROR");
    expect(h.registry.size).toBe(before);
  });
});
