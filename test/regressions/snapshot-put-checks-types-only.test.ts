/**
 * PUT /sandbox/v1/snapshot checked types only. It accepted a
 * `javascript:` redirect URL, `file:` and `data:` webhook URLs, a 1,500-entry retry schedule, a clock
 * past year 275760, and unbounded limits and rates: none of which PATCH, sign-up or the API allow. Nor
 * did it check that records agree with each other (a ledger that does not add up, two payouts with one
 * reference, a sequence behind the ids in use, a card transaction of no card). The old code stored
 * all of it. A snapshot is now composed from the records' own schemas, with their bounds, plus
 * integrity checks across records: each is refused with 422 VALIDATION_ERROR naming the path, and
 * nothing changes.
 */
import { describe, expect, it } from "vitest";
import { expectError, harness, makeNuban, type Merchant } from "../helpers.js";

/** A merchant with a payment link, a payout, and a funded card (so a card transaction). */
async function merchantWithObjects(): Promise<{ m: Merchant; before: any }> {
  const m = await harness().merchant();
  const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 2500, redirect_url: "https://shop.example.com/done" } });
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const payout = await m.call("POST", "/api/v1/payout/transfer", {
    body: { amount: 1000, bank_code: "058", account_number: makeNuban("058", "012345678"), account_name: "EZE SEGUN FOLAKE", bank_name: "Guaranty Trust Bank", reference: "inv-1" },
  });
  expect(payout.status, JSON.stringify(payout.body)).toBe(201);
  const holder = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
  expect((await m.call("POST", `/sandbox/v1/cardholders/${holder.body.cardholder_id}/approve`)).status).toBe(200);
  const card = await m.call("POST", "/api/v1/virtual-cards", { body: { cardholder_id: holder.body.cardholder_id } });
  expect((await m.call("POST", `/api/v1/virtual-cards/${card.body.card_id}/fund`, { body: { amount: 5 } })).status).toBe(200);

  const before = (await m.call("GET", "/sandbox/v1/snapshot")).body;
  expect(before.data.state).toMatchObject({ checkouts: [expect.anything()], payouts: [expect.anything()], cards: [expect.anything()], card_transactions: [expect.anything()] });
  return { m, before };
}

/** Sets the value at a dotted path of GET's `data`. */
function edit(snapshot: any, path: string, value: unknown): any {
  const copy = structuredClone(snapshot);
  const keys = path.split(".");
  let target = copy.data;
  for (const key of keys.slice(0, -1)) target = target[key];
  target[keys.at(-1)!] = value;
  return copy;
}

async function expectRefused(m: Merchant, before: unknown, body: unknown, path: string) {
  const err = expectError(await m.call("PUT", "/sandbox/v1/snapshot", { body }), 422, "VALIDATION_ERROR");
  expect(err.message).toBe("The given data was invalid.");
  expect(Object.keys(err.errors ?? {}), JSON.stringify(err.errors)).toEqual([path]);
  expect(err.errors![path]!.length).toBeGreaterThan(0);
  expect((await m.call("GET", "/sandbox/v1/snapshot")).body, "the state is unchanged").toEqual(before);
  return err.errors![path]!;
}

const ips = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);

describe("PUT /sandbox/v1/snapshot refuses what no other way in allows", () => {
  it.each([
    ["a javascript: redirect_url", "state.checkouts.0.redirect_url", "javascript:alert(document.domain)"],
    ["a file: webhook_url", "merchant.webhook_url", "file:///etc/passwd"],
    ["a data: webhook_url", "merchant.webhook_url", "data:text/plain,hello"],
    ["a webhook_url of 2,001 characters", "merchant.webhook_url", `https://hooks.example.com/${"x".repeat(1975)}`],
    ["a 1,500-entry retry schedule", "merchant.webhook.retry_schedule_seconds", Array.from({ length: 1_500 }, () => 60)],
    ["a retry wait of 31,709 years", "merchant.webhook.retry_schedule_seconds", [1e12], "merchant.webhook.retry_schedule_seconds.0"],
    ["a webhook timeout of a day", "merchant.webhook.timeout_seconds", 86_400],
    ["a clock past year 275760", "clock.now", 8.64e15 + 1],
    ["a clock after the end of 9998", "clock.now", Date.UTC(9999, 0, 1)],
    ["a clock before 1970", "clock.now", -1],
    ["a clock speed of a trillion", "clock.speed", 1e12],
    ["a config clock speed of a trillion", "merchant.clock.speed", 1e12],
    ["an unbounded payout_max", "merchant.limits.payout_max", 9e15],
    ["an unbounded payout_review_threshold", "merchant.limits.payout_review_threshold", Number.MAX_SAFE_INTEGER],
    ["an unbounded requests_per_minute", "merchant.limits.requests_per_minute", 1e12],
    ["an unbounded payout_attempts_per_hour", "merchant.limits.payout_attempts_per_hour", 1e15],
    ["an unbounded usd_ngn_rate", "merchant.usd_ngn_rate", 1e308],
    ["a usd_ngn_rate with five decimals", "merchant.usd_ngn_rate", 1600.00001],
    ["an unbounded card_funding_fee", "merchant.card_funding_fee", 1e15],
    ["a settlement delay of 31,709 years", "merchant.delays.payout_settlement_seconds", 1e12],
    ["an allowlist of 101 addresses", "merchant.ip_allowlist", ips(101)],
    ["an allowlist entry that is not an address", "merchant.ip_allowlist", ["localhost; rm -rf /"], "merchant.ip_allowlist.0"],
    ["a payout of 9e15 kobo", "state.payouts.0.amount", 9e15],
    ["a card balance of 9e15 cents", "state.cards.0.balance", 9e15],
  ] as Array<[string, string, unknown, string?]>)("%s (%s)", async (_, path, value, named = path) => {
    const { m, before } = await merchantWithObjects();
    await expectRefused(m, before, edit(before, path, value), named);
  });

  it("the same values are refused by PATCH /sandbox/v1/merchant and the API, with the same kind of error", async () => {
    const { m } = await merchantWithObjects();
    const patches: Array<[Record<string, unknown>, string]> = [
      [{ webhook_url: "file:///etc/passwd" }, "webhook_url"],
      [{ webhook_url: "data:text/plain,hello" }, "webhook_url"],
      [{ webhook: { retry_schedule_seconds: Array.from({ length: 1_500 }, () => 60) } }, "webhook.retry_schedule_seconds"],
      [{ clock: { now: "+275760-09-13T00:00:00.001Z" } }, "clock.now"],
      [{ clock: { speed: 1e12 } }, "clock.speed"],
      [{ limits: { payout_max: 1e300 } }, "limits.payout_max"],
      [{ usd_ngn_rate: 1e308 }, "usd_ngn_rate"],
      [{ usd_ngn_rate: 1600.00001 }, "usd_ngn_rate"],
    ];
    for (const [body, path] of patches) {
      const err = expectError(await m.call("PATCH", "/sandbox/v1/merchant", { body }), 422, "VALIDATION_ERROR");
      expect(Object.keys(err.errors ?? {}), JSON.stringify(body)).toEqual([path]);
    }
    const link = expectError(await m.call("POST", "/api/v1/checkout/create", { body: { amount: 500, redirect_url: "javascript:alert(1)" } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(link.errors ?? {})).toEqual(["redirect_url"]);
  });
});

describe("PUT /sandbox/v1/snapshot checks that records agree", () => {
  it("a ledger whose balance_after does not add up", async () => {
    const { m, before } = await merchantWithObjects();
    const first = before.data.state.ledger[0];
    const [message] = await expectRefused(m, before, edit(before, "state.ledger.0.balance_after", first.balance_after + 1), "state.ledger.0.balance_after");
    expect(message).toBe(`must be ${first.amount}, the running total of the amounts`);
  });

  it("ledger entries out of order", async () => {
    const { m, before } = await merchantWithObjects();
    await expectRefused(m, before, edit(before, "state.ledger.0.entry_id", 2), "state.ledger.0.entry_id");
  });

  it("two payouts with the same reference", async () => {
    const { m, before } = await merchantWithObjects();
    const [payout] = before.data.state.payouts;
    const twin = { ...payout, order_no: `${payout.order_no}X` };
    const [message] = await expectRefused(m, before, edit(before, "state.payouts", [payout, twin]), "state.payouts.1.reference");
    expect(message).toBe("duplicate reference inv-1");
  });

  it("sequences.card behind a card_id in use", async () => {
    const { m, before } = await merchantWithObjects();
    expect(before.data.state.cards[0].card_id).toBe(1);
    const [message] = await expectRefused(m, before, edit(before, "state.sequences.card", 0), "state.sequences.card");
    expect(message).toBe("must be at least 1, the highest card number in use");
  });

  it("a card_transaction naming no card", async () => {
    const { m, before } = await merchantWithObjects();
    const [message] = await expectRefused(m, before, edit(before, "state.card_transactions.0.card_id", 999), "state.card_transactions.0.card_id");
    expect(message).toBe("names no card");
  });

  it("a card naming no cardholder", async () => {
    const { m, before } = await merchantWithObjects();
    await expectRefused(m, before, edit(before, "state.cards.0.cardholder_id", 999), "state.cards.0.cardholder_id");
  });

  it("a payment link on one of the merchant's virtual account numbers", async () => {
    const { m, before } = await merchantWithObjects();
    const link = before.data.state.checkouts[0];
    const va = {
      account_number: link.account_number,
      account_name: "Shop-Ada Obi",
      bank_name: link.bank_name,
      customer_type: "individual",
      customer_name: "Ada Obi",
      customer_email: "ada@example.com",
      reference: "cust-1",
      status: "Enabled",
      identity: { type: "bvn", value: "12345678901", source: "customer" },
      created_at: link.created_at,
    };
    await expectRefused(m, before, edit(before, "state.virtual_accounts", [va]), "state.checkouts.0.account_number");
  });
});
