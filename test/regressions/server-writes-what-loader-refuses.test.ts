/**
 * The server wrote what its own `--data` loader rejected, so
 * the next start failed for every merchant. Triggers seen: a scenario payment link of 1e308 (became
 * Infinity in kobo, saved as null), a timeline entry at `+99999999999d` (a time no Date can hold), 902
 * wallet fundings of 1e11 (the balance passed 2^53 kobo and stopped being exact), and scenario amounts
 * with three decimals (0.001) accepted. The old code accepted all of them at entry. Now each is refused
 * at entry (422 naming the path; the wallet has a ceiling, BALANCE_LIMIT_EXCEEDED), and a server that
 * took every allowed maximum restarts and loads every merchant file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CLOCK, MAX_TIME } from "../../src/domain/bounds.js";
import { parseSnapshot } from "../../src/domain/snapshot.js";
import { payoutBody } from "../client.js";
import {
  balanceAt,
  expectError,
  harness,
  httpCall,
  makeNuban,
  signUpAtStart,
  signUpAt,
  snapshotAt,
  startFromArgs,
  stopServers,
  tempDirs,
  type ServerMerchant,
} from "../helpers.js";

const tempDir = tempDirs("msb-loader-");
afterEach(stopServers); // registered after tempDirs, so it runs first: no server writes into a removed folder
/** A --data folder not made yet (the server makes it), in a new temporary folder removed after the test. */
const dataFolder = async () => join(await tempDir(), "data");

const END = new Date(MAX_CLOCK).toISOString();
const YEAR_S = 365 * 86_400;
const BVN = "12345678901";
const va = { as: "va", email: "ada@example.com", reference: "cust-1", first_name: "Ada", last_name: "Obi", bvn: BVN };
const holder = { as: "h", first_name: "Ada", last_name: "Obi", email: "ada@example.com", approved: true };

describe("scenarios are refused at entry, naming the path", () => {
  it.each([
    ["a payment link of 1e308", { payment_links: [{ as: "l", amount: 1e308 }] }, "payment_links.0.amount", "Must be at most 100,000,000,000 Naira."],
    [
      "a timeline entry at +99999999999d",
      { virtual_accounts: [va], timeline: [{ at: "+99999999999d", transfer: { to: "va", amount: 10 } }] },
      "timeline.0.at",
      `falls after ${END}, the end of the clock's range`,
    ],
    [
      "a timeline entry one millisecond after the end of the clock",
      { virtual_accounts: [va], timeline: [{ at: new Date(MAX_CLOCK + 1).toISOString(), transfer: { to: "va", amount: 10 } }] },
      "timeline.0.at",
      `falls after ${END}, the end of the clock's range`,
    ],
    ["a payment link of 150.001", { payment_links: [{ as: "l", amount: 150.001 }] }, "payment_links.0.amount", "Must have at most two decimal places."],
    [
      "a timeline transfer of 10.001",
      { virtual_accounts: [va], timeline: [{ at: "+1m", transfer: { to: "va", amount: 10.001 } }] },
      "timeline.0.transfer.amount",
      "Must have at most two decimal places.",
    ],
    [
      "a timeline pay_link of 0.001",
      { payment_links: [{ as: "l", amount: 150 }], timeline: [{ at: "+1m", pay_link: { link: "l", amount: 0.001 } }] },
      "timeline.0.pay_link.amount",
      "Must be at least 0.01 Naira.",
    ],
    ["a payout_min of 0.001", { merchants: { shop: { limits: { payout_min: 0.001 } } } }, "merchants.shop.limits.payout_min", "Must have at most two decimal places."],
    ["a card funded with 1.001 USD", { cardholders: [holder], cards: [{ as: "c", cardholder: "h", fund: 1.001 }] }, "cards.0.fund", "Must have at most two decimal places."],
  ])("%s (JSON)", async (_, parts, path, detail) => {
    const h = harness();
    const merchants = h.registry.size;
    const scenario = { name: "hostile", merchants: { shop: { kyc: { bvn: BVN } } }, ...parts };
    const err = expectError(await h.call("POST", "/sandbox/v1/scenarios", { body: scenario }), 422, "VALIDATION_ERROR");
    expect(err.errors).toEqual({ [path]: [detail] });
    expect(err.message).toBe(`The scenario is invalid: ${detail}`);
    expect(h.registry.size, "no merchant is left behind").toBe(merchants);
  });

  it.each([
    ["a payment link of 1e308", "payment_links:\n  - { as: l, amount: 1e308 }\n", "payment_links.0.amount", "Must be at most 100,000,000,000 Naira."],
    ["a payment link of 1.0e+309 (Infinity in YAML)", "payment_links:\n  - { as: l, amount: 1.0e+309 }\n", "payment_links.0.amount", "Must be a number."],
    [
      "a timeline entry at +99999999999d",
      "virtual_accounts:\n  - { as: va, email: a@example.com, reference: r1, first_name: Ada, last_name: Obi, bvn: '12345678901' }\n" +
        "timeline:\n  - { at: +99999999999d, transfer: { to: va, amount: 10 } }\n",
      "timeline.0.at",
      `falls after ${END}, the end of the clock's range`,
    ],
    ["a payment link of 100.001", "payment_links:\n  - { as: l, amount: 100.001 }\n", "payment_links.0.amount", "Must have at most two decimal places."],
  ])("%s (YAML)", async (_, tail, path, detail) => {
    const h = harness();
    const merchants = h.registry.size;
    const yaml = `name: hostile\nmerchants:\n  shop: {}\n${tail}`;
    const err = expectError(await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml } }), 422, "VALIDATION_ERROR");
    expect(err.errors).toEqual({ [path]: [detail] });
    expect(h.registry.size, "no merchant is left behind").toBe(merchants);
  });
});

describe("the two-decimal rule that refuses 0.001", () => {
  // 1234567890.12 is a JSON number with two decimals; times 100 it is 123456789011.99998 in binary
  // floating point, so a check with a fixed 1e-6 tolerance takes it for a third decimal.
  const AMOUNT = 1_234_567_890.12;

  it("takes every two-decimal amount up to the maximum, at sign-up, funding, transfers, links and in scenarios", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: AMOUNT, kyc: { bvn: BVN } });
    expect((await m.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(AMOUNT);
    const funded = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: AMOUNT } });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    const account = (
      await m.call("POST", "/api/v1/virtual-account/create", {
        body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi" },
      })
    ).body.data.account_number;
    const paid = await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: AMOUNT } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.amount).toBe(AMOUNT);
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: AMOUNT } });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body.amount).toBe(AMOUNT);

    const json = await h.call("POST", "/sandbox/v1/scenarios", { body: { name: "two decimals", merchants: { shop: {} }, payment_links: [{ as: "l", amount: AMOUNT }] } });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    const yaml = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: `name: two decimals\nmerchants:\n  shop: { wallet_balance: ${AMOUNT} }\n` } });
    expect(yaml.status, JSON.stringify(yaml.body)).toBe(201);
  });
});

describe("the wallet's ceiling", () => {
  const CEILING = 10_000_000_000_000; // Naira: 1e15 kobo, twice which is still below 2^53
  const message = "This credit would take the wallet past the sandbox's ceiling of NGN 10,000,000,000,000; nothing was credited.";

  it("funding past it is refused with BALANCE_LIMIT_EXCEEDED and nothing is credited, by every way money comes in", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 1e11, kyc: { bvn: BVN } });
    // A card holding money, and a link and an account to pay into, made before the wallet is full.
    const cardholder = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    await m.call("POST", `/sandbox/v1/cardholders/${cardholder.body.cardholder_id}/approve`);
    const card = await m.call("POST", "/api/v1/virtual-cards", { body: { cardholder_id: cardholder.body.cardholder_id } });
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    expect((await m.call("POST", `/api/v1/virtual-cards/${card.body.card_id}/fund`, { body: { amount: 10 } })).status).toBe(200);
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 500 } });
    const account = (
      await m.call("POST", "/api/v1/virtual-account/create", {
        body: { email: "bola@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Bola", last_name: "Ade" },
      })
    ).body.data.account_number;

    let balance = (await m.call("GET", "/api/v1/wallet/balance")).body.data.balance as number;
    while (balance + 1e11 <= CEILING) {
      const funded = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1e11 } });
      expect(funded.status, JSON.stringify(funded.body)).toBe(200);
      balance = funded.body.data.balance;
    }
    const topUp = Math.round((CEILING - balance) * 100) / 100;
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: topUp } })).body.data.balance).toBe(CEILING);
    const ledgerBefore = (await m.call("GET", "/sandbox/v1/wallet/ledger")).body.data;
    expect(ledgerBefore.at(-1).balance_after).toBe(CEILING);

    const refusals = [
      await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 0.01 } }),
      await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: 0.01 } }),
      await m.call("POST", `/sandbox/v1/checkout/${link.body.reference}/pay`),
      await m.call("POST", `/api/v1/virtual-cards/${card.body.card_id}/unload`, { body: { amount: 1 } }),
    ];
    for (const res of refusals) expect(expectError(res, 422, "BALANCE_LIMIT_EXCEEDED").message).toBe(message);

    expect((await m.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(CEILING);
    expect((await m.call("GET", "/sandbox/v1/wallet/ledger")).body.data).toEqual(ledgerBefore);
    expect((await m.call("GET", `/api/v1/checkout/status?reference=${link.body.reference}`)).body.data.status).toBe("pending");
    expect((await m.call("GET", `/api/v1/virtual-cards/${card.body.card_id}`)).body.balance).toBe(10);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data).toEqual([]);
    // One amount is never more than 1e11 Naira either.
    const tooBig = expectError(await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1e11 + 0.01 } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(tooBig.errors ?? {})).toEqual(["amount"]);
  });
});

const merchantFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".json")).sort();

/** Every merchant file parses as a snapshot (the failure names the file and the path). */
function expectFilesLoad(dir: string): void {
  for (const name of merchantFiles(dir)) {
    const parsed = parseSnapshot(JSON.parse(readFileSync(join(dir, name), "utf8")));
    expect("error" in parsed ? `at ${parsed.path}: ${parsed.error}` : "loads", `${name} must be a file the loader takes`).toBe("loads");
  }
}

describe("a --data server that took the allowed maximum", () => {
  it("restarts and loads every merchant file, each merchant as it was", async () => {
    const dir = await dataFolder();
    const first = await startFromArgs(["--data", dir]);

    const m = await signUpAtStart(first.url, {
      wallet_balance: 1e11,
      kyc: { bvn: BVN },
      usd_ngn_rate: 100_000,
      card_funding_fee_usd: 1000,
      webhook_capture: { fail_first: 100 },
      webhook: { retry_schedule_seconds: Array.from({ length: 20 }, () => 7 * 86_400), timeout_seconds: 60 },
      delays: { payout_settlement_seconds: YEAR_S, vtu_settlement_seconds: YEAR_S, kyc_approval_seconds: YEAR_S },
      limits: { payout_min: 0.01, payout_max: 1e11, payout_hourly_amount: 1e11, payout_daily_amount: 1e11, payout_review_threshold: 1e11, payout_attempts_per_hour: 1_000_000, requests_per_minute: 1_000_000 },
    });

    // The wallet to its ceiling, in the largest steps allowed; one more kobo is refused.
    for (let i = 1; i < 100; i++) expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1e11 } })).status).toBe(200);
    expect(await balanceAt(first.url, m.keys)).toBe(1e13);
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 0.01 } })).body.error_code).toBe("BALANCE_LIMIT_EXCEEDED");

    // The clock to its end; objects whose timers fall up to a year after it (the last instant of 9999).
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { to: END } })).status).toBe(200);
    const payout = await m.call("POST", "/api/v1/payout/transfer", {
      body: {
        amount: 99_999_999_999.99,
        bank_code: "058",
        account_number: makeNuban("058", "012345678"),
        // 200 characters each, and still the names name enquiry and the bank list give (spacing and punctuation aside).
        account_name: `EZE${" ".repeat(185)}SEGUN FOLAKE`,
        bank_name: `Guaranty${"-".repeat(182)}Trust Bank`,
        reference: "r".repeat(100),
        narration: "x".repeat(200),
      },
    });
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    // Deliveries deferred by a year (a fault rule), with 20 retries a week apart after that.
    expect((await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "webhook", outcome: "delay", delay_seconds: YEAR_S, times: 1_000_000 } })).status).toBe(201);
    const account = await m.call("POST", "/api/v1/virtual-account/create", { body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi" } });
    expect((await m.call("POST", `/sandbox/v1/virtual-accounts/${account.body.data.account_number}/transfers`, { body: { amount: 1e10, narration: "n".repeat(200) } })).status).toBe(201);
    expect((await m.call("POST", "/api/v1/checkout/create", { body: { amount: 1e11, description: "d".repeat(200), redirect_url: `https://shop.example.com/${"p".repeat(1900)}` } })).status).toBe(200);
    const cardholder = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(cardholder.status).toBe(200);
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 0 } })).status).toBe(200);
    const timers = (await snapshotAt(first.url, m.keys)).state.timers as Array<{ at: number; kind: string }>;
    expect(Math.max(...timers.map((t) => t.at))).toBe(MAX_TIME);

    // Scenarios at their maxima: the largest link, transfer and card funding, a timeline at the end.
    const scenario = await httpCall(first.url, "POST", "/sandbox/v1/scenarios", {
      body: {
        name: "maxima",
        merchants: { shop: { wallet_balance: 1e11, kyc: { bvn: BVN }, usd_ngn_rate: 100_000 }, late: { wallet_balance: 0.01, clock: { now: END } } },
        virtual_accounts: [{ ...va, merchant: "shop" }],
        cardholders: [{ ...holder, merchant: "shop" }],
        cards: [{ merchant: "shop", as: "c", cardholder: "h", fund: 10_000 }],
        payment_links: [
          { merchant: "shop", as: "big", amount: 1e11, description: "d".repeat(200) },
          { merchant: "late", as: "last", amount: 100.01 },
        ],
        timeline: [
          { merchant: "shop", at: END, transfer: { to: "va", amount: 1e10, narration: "n".repeat(500), payer_name: "p".repeat(200), payer_bank: "b".repeat(200) } },
          { merchant: "late", at: END, pay_link: { link: "last" } },
        ],
      },
    });
    expect(scenario.status, scenario.text).toBe(201);
    // The scenario's merchants, each with its id and keys as the sign-up's.
    const loaded = Object.entries(scenario.body.data.merchants as Record<string, { merchant_id: string; api_key: string; api_secret: string }>).map(([alias, d]) => ({
      alias,
      id: d.merchant_id,
      keys: { "x-api-key": d.api_key, "x-api-secret": d.api_secret },
    }));
    const late = loaded.find((l) => l.alias === "late")!;
    expect((await httpCall(first.url, "POST", "/sandbox/v1/clock/advance", { keys: late.keys, body: { seconds: 0 } })).body.data.fired).toBe(1);

    const merchants = [m, ...loaded];
    const before = await Promise.all(merchants.map((k) => snapshotAt(first.url, k.keys)));
    await stopServers();
    const files = merchantFiles(dir);
    expect(files).toEqual(expect.arrayContaining(merchants.map((k) => `${k.id}.json`)));
    expectFilesLoad(dir);

    const second = await startFromArgs(["--data", dir]);
    expect(second.restored).toBe(files.length);
    const after = await Promise.all(merchants.map((k) => snapshotAt(second.url, k.keys)));
    expect(after).toEqual(before);
    expect(await balanceAt(second.url, m.keys)).toBe(9_909_999_999_000.01); // 1e13 - payout - fee + transfer
  });
});

/**
 * Found while writing this file: other entry paths that still take what the loader refuses. Whatever
 * the server answers (a refusal is fine), every merchant file it writes must load, and so must the
 * restart.
 */
describe("every way in: what the server accepts, its --data loader takes", () => {
  const long = (n: number, c = "a") => c.repeat(n);
  it.each([
    [
      "an individual virtual account with 100-character first and last names (the API's maximum)",
      [],
      async (m: ServerMerchant) =>
        m.call("POST", "/api/v1/virtual-account/create", { body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: long(100, "F"), last_name: long(100, "L"), bvn: BVN } }),
    ],
    [
      "a business virtual account with a 200-character business name (the API's maximum)",
      [],
      async (m: ServerMerchant) =>
        m.call("POST", "/api/v1/virtual-account/create", { body: { customer_type: "business", email: "co@example.com", reference: "co-1", bank: "partnerbank", business_name: long(200, "B"), cac_number: "RC1234567" } }),
    ],
    [
      "an outcome rule matching on 21 fields (a scenario's outcomes allow 20)",
      [],
      async (m: ServerMerchant) =>
        m.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", outcome: "failed", match: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`field_${i}`, i])) } }),
    ],
    [
      "a payout from a client whose X-Forwarded-For names a 100-character address (--trust-proxy)",
      ["--trust-proxy"],
      async (m: ServerMerchant) =>
        m.call("POST", "/api/v1/payout/transfer", { body: payoutBody({ amount: 1000 }), headers: { "x-forwarded-for": long(100, "x") } }),
    ],
  ] as const)("%s", async (_, flags, act) => {
    const dir = await dataFolder();
    const s = await startFromArgs(["--data", dir, ...flags]);
    const res = await act(await signUpAt(s.url, { kyc: { bvn: BVN } }));
    expect([200, 201, 422], JSON.stringify(res.body)).toContain(res.status);
    await stopServers();
    expectFilesLoad(dir);
    await expect(startFromArgs(["--data", dir])).resolves.toMatchObject({ restored: merchantFiles(dir).length });
  });

  it.each([
    ["a scenario merchant whose api_key and api_secret hold spaces", { shop: { api_key: "key with spaces 0001", api_secret: "secret with spaces 0001" } }, []],
    ["a scenario merchant whose webhook_secret holds a newline", { shop: { webhook_secret: "whsec_line\nbreak_000" } }, []],
    [
      "a scenario virtual account with a 300-character first name (unbounded in the scenario schema)",
      { shop: { kyc: { bvn: BVN } } },
      [{ as: "va", email: "ada@example.com", reference: "cust-1", first_name: long(300, "F"), last_name: "Obi" }],
    ],
  ] as const)("%s", async (_, merchants, virtual_accounts) => {
    const dir = await dataFolder();
    const s = await startFromArgs(["--data", dir]);
    const res = await httpCall(s.url, "POST", "/sandbox/v1/scenarios", { body: { name: "hostile", merchants, virtual_accounts } });
    expect([201, 422], JSON.stringify(res.body)).toContain(res.status);
    await stopServers();
    expectFilesLoad(dir);
    await expect(startFromArgs(["--data", dir])).resolves.toMatchObject({ restored: merchantFiles(dir).length });
  });
});
