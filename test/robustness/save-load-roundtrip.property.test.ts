/**
 * Property ("never down, never corrupt"): any state reachable through any entry path saves
 * and loads back identical. Random sequences of operations run through the HTTP app (harness): sign-up
 * with random valid settings, PATCH of settings, wallet funding, virtual accounts and transfers in,
 * payment links paid (lever or public page), wrongly paid and unpaid, payouts (completing, failing on
 * accounts ending 0001/0000, held on 0002, held for review by the threshold) and their levers, VTU of
 * every service with the magic phones 08011111111..08055555555 and their levers, cardholders, cards
 * funded, unloaded, spent with, frozen and terminated, outcome rules (added and deleted), webhooks to a
 * real receiver or the built-in capture, redeliveries, clock advances, realtime clocks and wall time,
 * scenario loads (generated and bundled), reset, and PUT of the merchant's own GET snapshot.
 *
 * After each sequence, for every merchant it made: GET /sandbox/v1/snapshot -> JSON text ->
 * parseSnapshot succeeds; fromSnapshot + shownSnapshot gives a deep-equal document (toSnapshot the one kept); and through the real
 * file store, persist(tenant) then loadAll() gives the same document. Inputs reach the API's own
 * maxima (lengths, amounts, counts), since the maxima are where the server and its loader disagreed.
 * Every response must also be below 500 and match the OpenAPI document (the harness checks that).
 * Fixed seed, modest runs; a failure prints the shrunk sequence.
 *
 * The same sequences also run against a `--data` store that journals every change: each
 * change is saved as it happens, only what changed since the last write, with compactions folding the
 * journal into the snapshot as it goes; reading the files back must give exactly the merchant's state.
 * A change the domain forgot to mark (domain/changes.ts) would be missing here.
 *
 * And against PostgreSQL (`--data postgres://…`): on one node, what a node started afresh loads equals
 * what the node that made the changes answers; on two nodes sharing the database, each operation sent
 * to one or the other as fast-check picks, both answer the same snapshot at the end, and so does a
 * third node started afresh. A wrong catch-up between nodes would show here.
 */
import fc from "fast-check";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_CLOCK } from "../../src/domain/bounds.js";
import { accountHolderName } from "../../src/domain/names.js";
import { OUTCOMES, QUERY_OUTCOMES } from "../../src/domain/records.js";
import { FileStore } from "../../src/store/file-store.js";
import { createRuntime } from "../../src/runtime.js";
import { FileTenantStore } from "../../src/persistence/file-tenant-store.js";
import { buildRegistry } from "../../src/server.js";
import { liveOf } from "../../src/engine/tenant.js";
import { fromSnapshot, parseSnapshot, shownSnapshot, toSnapshot } from "../../src/domain/snapshot.js";
import { snapshotOf, type Tenant } from "../../src/engine/tenant.js";
import { client, type TransferExtra } from "../client.js";
import { expectLedgerConsistent, harness, makeNuban, receivers, START, type Harness, type Merchant, type Reply } from "../helpers.js";
import type { Receiver } from "../receiver.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";
import { pgNode, sharedWall, type PgNode } from "../support/pg-nodes.js";

const ids = (file: string) => (JSON.parse(readFileSync(join("fixtures", file), "utf8")) as Array<{ id: number }>).map((x) => x.id);
const DATA_PLANS = ids("data-plans.json");
const CABLE_PLANS = ids("cable-plans.json");
const DISCOS = ids("discos.json");
const EXAM_TYPES = ids("exam-types.json");
const BUNDLED = readdirSync("scenarios").filter((f) => f.endsWith(".yaml")).sort();
const MAGIC_PHONES = ["08011111111", "08022222222", "08033333333", "08044444444", "08055555555", "+2348022222222", "2348033333333"];
/**
 * [bank_code, account_number]: valid NUBANs (completing), and the magic endings 0001, 0002, 0000, 0003 (fails
 * late) and 0004 (settles on status reads). The endings whose answer is lost, late or a 5xx (0006 to 0009) are
 * left out: this test reads every answer (test/api/ambiguous-outcomes.test.ts covers them).
 */
const BANK_NAMES = new Map((JSON.parse(readFileSync("fixtures/banks.json", "utf8")) as Array<{ bank_code: string; bank_name: string }>).map((b) => [b.bank_code, b.bank_name]));
const PAYOUT_ACCOUNTS = [
  ["058", makeNuban("058", "012345678")],
  ["044", makeNuban("044", "987654321")],
  ["058", "0123450001"],
  ["044", "0123450002"],
  ["058", "0123450000"],
  ["058", "0123450003"],
  ["044", "0123450004"],
] as const;
const TARGETS = Object.keys(OUTCOMES) as Array<keyof typeof OUTCOMES>;
const MATCH_FIELDS = ["reference", "amount", "bank_code", "account_number", "service", "phone", "network", "email", "event", "card_id", ...Array.from({ length: 20 }, (_, i) => `extra_${i}`)];

const receiver = receivers();
const pg = usePostgres();
/** The real receiver a `webhook_url: "receiver"` setting points at, started by the test. */
let hooks: Receiver;

// ---- Values --------------------------------------------------------------------------------------

/** Major units with at most two decimals, from kobo; fast-check leans towards both ends. */
const money = (min: number, max: number) => fc.integer({ min: Math.round(min * 100), max: Math.round(max * 100) }).map((k) => k / 100);
/** Text of up to `max` characters: short and plain, arbitrary, or exactly the maximum. */
const textOf = (max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("Ada", "Obi", "Ngozi Eze", "Chinedu & Sons Ltd", "Ọlá Adébáyọ̀") },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: max, unit: "grapheme" }).filter((s) => s.trim().length > 0 && s.length <= max) },
    { weight: 1, arbitrary: fc.constantFrom("x", "é").map((c) => c.repeat(max)) },
  );
const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
const email = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("ada@example.com", "obi@example.com", "pending+kyc@example.com", "Ada@Example.com", `${"a".repeat(64)}@${"b".repeat(63)}.com`) },
  { weight: 1, arbitrary: fc.emailAddress().filter((e) => e.length <= 254) },
);
const isoTime = (min: number, max: number) => fc.integer({ min, max }).map((t) => new Date(t).toISOString());
const seconds = fc.oneof(fc.integer({ min: 0, max: 120 }), fc.constant(365 * 86_400));

/** Present now and then (`weight` in 10), else left out: a sequence must still get things done. */
const sometimes = <T>(a: fc.Arbitrary<T>, weight: number) => fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary: a });
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const settings = fc
  .record({
    business_name: sometimes(textOf(100), 5),
    capabilities: sometimes(fc.record({ payouts: fc.boolean(), vtu: fc.boolean(), virtual_cards: fc.boolean(), checkout: fc.boolean() }, { requiredKeys: [] }), 1),
    kyc: sometimes(fc.record({ bvn: fc.option(digits(11), { nil: null }), nin: fc.option(digits(11), { nil: null }) }, { requiredKeys: [] }), 5),
    ip_allowlist: sometimes(
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(["127.0.0.1", "::ffff:10.0.0.1", "2001:DB8::0:1"]) },
        { weight: 1, arbitrary: fc.array(fc.oneof(fc.ipV4(), fc.ipV6()), { maxLength: 100 }) },
      ),
      2,
    ),
    webhook_url: sometimes(fc.constantFrom("receiver", null), 4),
    webhook_capture: sometimes(fc.option(fc.record({ fail_first: fc.integer({ min: 0, max: 100 }) }), { nil: null }), 4),
    limits: sometimes(
      fc.record(
        {
          payout_min: money(0, 100),
          payout_max: money(100, 1e11),
          payout_hourly_amount: money(0, 1e11),
          payout_daily_amount: money(0, 1e11),
          payout_attempts_per_hour: fc.integer({ min: 0, max: 1_000_000 }),
          payout_attempts_per_ip_per_hour: fc.integer({ min: 0, max: 1_000_000 }),
          payout_review_threshold: money(0, 1e11),
          requests_per_minute: fc.integer({ min: 0, max: 1_000_000 }),
        },
        { requiredKeys: [] },
      ),
      4,
    ),
    card_funding_fee_usd: sometimes(money(0, 1000), 3),
    usd_ngn_rate: sometimes(fc.integer({ min: 1, max: 1_000_000_000 }).map((r) => r / 10_000), 3),
    delays: sometimes(fc.record({ payout_settlement_seconds: seconds, vtu_settlement_seconds: seconds, kyc_approval_seconds: seconds }, { requiredKeys: [] }), 5),
    webhook: sometimes(
      fc.record(
        {
          signature_algorithm: fc.constantFrom("sha256", "sha512"),
          signature_encoding: fc.constantFrom("hex", "base64"),
          timeout_seconds: fc.constantFrom(1, 10, 60),
          retry_schedule_seconds: fc.array(fc.oneof(fc.integer({ min: 0, max: 600 }), fc.constant(7 * 86_400)), { maxLength: 20 }),
        },
        { requiredKeys: [] },
      ),
      5,
    ),
    clock: sometimes(
      fc.record(
        {
          mode: fc.constantFrom("manual", "realtime"),
          speed: fc.oneof(fc.constantFrom(1, 60, 100_000), fc.double({ min: 0.001, max: 100_000, noNaN: true })),
          now: fc.oneof(fc.constant(new Date(START).toISOString()), isoTime(0, MAX_CLOCK), isoTime(MAX_CLOCK - 86_400_000, MAX_CLOCK)),
        },
        { requiredKeys: [] },
      ),
      4,
    ),
  })
  .map(defined);
const signup = fc.tuple(settings, sometimes(fc.oneof(money(0, 1_000_000), money(0, 1e11)), 7)).map(([s, wallet_balance]) => (wallet_balance === undefined ? s : { ...s, wallet_balance }));

// ---- Operations ------------------------------------------------------------------------------------

type Op =
  | { kind: "fund"; amount: number; description?: string }
  | { kind: "patch"; settings: Record<string, unknown> }
  | { kind: "virtualAccount"; body: Record<string, unknown> }
  | ({ kind: "transferIn"; pick: number; amount: number } & TransferExtra)
  | { kind: "paymentLever"; pick: number; action: "clear" | "fail" }
  | { kind: "createLink"; body: Record<string, unknown> }
  | { kind: "payLink"; pick: number; how: "lever" | "page" | "wrong" }
  | { kind: "payout"; body: Record<string, unknown> }
  | { kind: "payoutLever"; pick: number; action: "approve" | "reject" | "complete" | "fail" }
  | { kind: "vtu"; path: string; body: Record<string, unknown> }
  | { kind: "vtuLever"; pick: number; action: "succeed" | "fail" }
  | { kind: "cardholder"; body: Record<string, unknown> }
  | { kind: "approveHolder"; pick: number }
  | { kind: "issueCard"; pick: number; brand: "VISA" | "MASTERCARD"; label?: string }
  | { kind: "newCard"; holder: Record<string, unknown>; brand: "VISA" | "MASTERCARD"; fund?: number }
  | { kind: "card"; pick: number; action: "fund" | "unload" | "freeze" | "unfreeze" | "terminate" | "spend"; amount: number; merchant_name?: string }
  | { kind: "rule"; body: Record<string, unknown> }
  | { kind: "deleteRule"; pick: number; all: boolean }
  | { kind: "advance"; body: Record<string, unknown> }
  | { kind: "wallTick"; ms: number }
  | { kind: "redeliver"; pick: number }
  | { kind: "scenario"; body: Record<string, unknown>; advance: number }
  | { kind: "snapshotPut" }
  | { kind: "reset"; wallet_balance?: number };

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const pick = fc.nat(50);
const reference = fc.oneof(fc.constantFrom("inv-1", "inv-2", "cust-1"), fc.stringMatching(/^[\w.\-:/]{1,100}$/));

const virtualAccountBody = fc.oneof(
  fc.record({
    customer_type: fc.constant("individual"),
    email,
    reference,
    bank: fc.constant("partnerbank"),
    first_name: textOf(100),
    last_name: textOf(100),
    bvn: opt(digits(11)),
    nin: opt(digits(11)),
  }),
  fc.record({
    customer_type: fc.constant("business"),
    email,
    reference,
    bank: fc.constant("partnerbank"),
    business_name: textOf(200),
    cac_number: fc.stringMatching(/^(RC|BN|rc)\d{1,8}$/),
  }),
);

const vtuOp = fc.oneof(
  fc.record({ network: fc.constantFrom("mtn", "glo", "airtel", "9mobile"), phone: fc.constantFrom(...MAGIC_PHONES), amount: money(50, 50_000), airtime_type: fc.constantFrom("VTU", "Sharesell") }).map((body) => ({ path: "airtime", body })),
  fc.record({ phone: fc.constantFrom(...MAGIC_PHONES), data_plan_id: fc.constantFrom(...DATA_PLANS) }).map((body) => ({ path: "data", body })),
  fc
    .record({ cable_plan_id: fc.constantFrom(...CABLE_PLANS), smart_card_number: fc.oneof(fc.constantFrom("1111111111", "3333333333", "55555555555", "000000000000"), digits(10)), phone: opt(fc.constantFrom(...MAGIC_PHONES)) })
    .map((body) => ({ path: "cable", body })),
  fc
    .record({
      disco_id: fc.constantFrom(...DISCOS),
      meter_number: fc.oneof(fc.constantFrom("22222222222", "4444444444444"), digits(11)),
      meter_type: fc.constantFrom("Prepaid", "Postpaid"),
      amount: money(500, 100_000),
      customer_name: opt(textOf(100)),
      customer_address: opt(textOf(300)),
      customer_phone: opt(fc.constantFrom(...MAGIC_PHONES)),
    })
    .map((body) => ({ path: "electricity", body })),
  fc.record({ exam_type_id: fc.constantFrom(...EXAM_TYPES), quantity: fc.integer({ min: 1, max: 20 }) }).map((body) => ({ path: "exam", body })),
);

/**
 * Rules of every target. Those that make an answer a 5xx, cut or late (targets bank and response) always
 * match a field no request has, so they are saved and loaded like any rule but never fire: this test
 * reads every answer and expects no 5xx.
 */
const ruleBody = fc
  .constantFrom(...TARGETS)
  .chain((target) => {
    const inert = target === "bank" || target === "response";
    const anyMatch = fc.dictionary(fc.constantFrom(...MATCH_FIELDS), fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), fc.boolean()), { maxKeys: MATCH_FIELDS.length });
    return fc
      .record({
        target: fc.constant(target),
        outcome: fc.constantFrom(...OUTCOMES[target]),
        match: inert ? fc.constant({ extra_0: "never sent" }) : opt(anyMatch),
        delay_seconds: opt(inert || target === "verify_account" ? fc.integer({ min: 0, max: 120 }) : seconds),
        times: opt(fc.integer({ min: 1, max: 1_000_000 })),
        window_seconds: opt(fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constant(365 * 86_400))),
        queries: opt(fc.integer({ min: 1, max: 5 })),
      })
      .map((rule) => {
        // queries only with the outcomes that settle on a status read, and never beside delay_seconds.
        const { queries, ...rest } = rule;
        const settlesOnRead = (QUERY_OUTCOMES[target] ?? []).includes(rule.outcome);
        return settlesOnRead && queries !== undefined ? { ...rest, delay_seconds: undefined, queries } : rest;
      });
  });

const scenarioBody = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...BUNDLED).map((file) => ({ yaml: readFileSync(join("scenarios", file), "utf8") })) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        wallet_balance: money(0, 1e11),
        capture: fc.boolean(),
        start: fc.oneof(fc.constant("2026-01-05T09:00:00.000Z"), isoTime(0, MAX_CLOCK - 86_400_000)),
        first_name: textOf(100),
        last_name: textOf(100),
        link: money(100, 1e11),
        description: opt(textOf(200)),
        card_fund: opt(money(1, 10_000)),
        approved: fc.boolean(),
        transfer: money(0.01, 1e10),
        at: fc.integer({ min: 0, max: 600 }),
        rules: fc.array(ruleBody, { maxLength: 3 }),
      })
      .map((s) => ({
        name: "generated",
        start: s.start,
        merchants: { shop: { wallet_balance: s.wallet_balance, kyc: { bvn: "12345678901" }, ...(s.capture ? { webhook_capture: { fail_first: 1 } } : {}) } },
        virtual_accounts: [{ as: "va", email: "ada@example.com", reference: "cust-1", first_name: s.first_name, last_name: s.last_name }],
        cardholders: [{ as: "h", first_name: "Ada", last_name: "Obi", email: "ada@example.com", approved: s.approved }],
        cards: s.approved ? [{ as: "c", cardholder: "h", ...(s.card_fund === undefined ? {} : { fund: s.card_fund }) }] : [],
        payment_links: [{ as: "l", amount: s.link, ...(s.description === undefined ? {} : { description: s.description }) }],
        outcomes: s.rules.map(({ match, ...r }) => (match === undefined ? r : { ...r, match })),
        timeline: [
          { at: `+${s.at}s`, transfer: { to: "va", amount: s.transfer, narration: "scenario transfer" } },
          { at: `+${s.at * 2}s`, pay_link: { link: "l" } },
        ],
      })),
  },
);

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const op: fc.Arbitrary<Op> = fc.oneof(
  weighted(2, fc.record({ kind: fc.constant("fund" as const), amount: fc.oneof(money(0.01, 100_000), money(0.01, 1e11)), description: textOf(200) }, { requiredKeys: ["kind", "amount"] })),
  weighted(1, settings.map((s) => ({ kind: "patch" as const, settings: s }))),
  weighted(3, virtualAccountBody.map((body) => ({ kind: "virtualAccount" as const, body }))),
  weighted(
    3,
    fc.record(
      {
        kind: fc.constant("transferIn" as const),
        pick,
        amount: fc.oneof(money(0.01, 100_000), money(0.01, 1e10)),
        // Verbatim: empty and blank narrations too.
        narration: fc.oneof(textOf(200), fc.constantFrom("", "  ", " Order 7 "), fc.string({ maxLength: 500 })),
        payer_name: textOf(100),
        payer_bank: textOf(100),
        status: fc.constantFrom("pending", "processing"),
        outcome: fc.constantFrom("success", "failed"),
        settle_after_seconds: seconds,
      },
      { requiredKeys: ["kind", "pick", "amount"] },
    ).map((o) => (o.status === undefined ? { ...o, outcome: undefined, settle_after_seconds: undefined } : o)),
  ),
  weighted(2, fc.record({ kind: fc.constant("paymentLever" as const), pick, action: fc.constantFrom("clear", "fail") })),
  weighted(
    3,
    fc
      .record(
        { amount: fc.oneof(money(100, 100_000), money(100, 1e11)), description: textOf(200), redirect_url: fc.webUrl().filter((u) => u.length <= 2000), customer_email: email, customer_name: textOf(100) },
        { requiredKeys: ["amount"] },
      )
      .map((body) => ({ kind: "createLink" as const, body })),
  ),
  weighted(3, fc.record({ kind: fc.constant("payLink" as const), pick, how: fc.constantFrom("lever", "page", "wrong") })),
  weighted(
    4,
    fc
      .record(
        {
          amount: fc.oneof({ weight: 4, arbitrary: money(100, 50_000) }, { weight: 1, arbitrary: money(0.01, 1e11) }),
          account: fc.constantFrom(...PAYOUT_ACCOUNTS),
          // Mostly the names name enquiry and the bank list give (so payouts are made), sometimes any text (refused).
          names: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ account_name: textOf(200), bank_name: textOf(200) }) }),
          reference,
          narration: fc.string({ maxLength: 200 }),
        },
        { requiredKeys: ["amount", "account", "names"] },
      )
      .map(({ account: [bank_code, account_number], names, ...body }) => ({
        kind: "payout" as const,
        body: { ...body, bank_code, account_number, ...(names ?? { account_name: accountHolderName(bank_code, account_number), bank_name: BANK_NAMES.get(bank_code)! }) },
      })),
  ),
  weighted(2, fc.record({ kind: fc.constant("payoutLever" as const), pick, action: fc.constantFrom("approve", "reject", "complete", "fail") })),
  weighted(3, vtuOp.map((v) => ({ kind: "vtu" as const, ...v }))),
  weighted(2, fc.record({ kind: fc.constant("vtuLever" as const), pick, action: fc.constantFrom("succeed", "fail") })),
  weighted(
    3,
    fc
      .record({ first_name: textOf(100), last_name: textOf(100), email, phone: fc.constantFrom(...MAGIC_PHONES) }, { requiredKeys: ["first_name", "last_name", "email"] })
      .map((body) => ({ kind: "cardholder" as const, body })),
  ),
  weighted(2, fc.record({ kind: fc.constant("approveHolder" as const), pick })),
  weighted(
    2,
    fc.record(
      {
        kind: fc.constant("newCard" as const),
        holder: fc.record({ first_name: textOf(100), last_name: textOf(100), email, phone: fc.constantFrom(...MAGIC_PHONES) }, { requiredKeys: ["first_name", "last_name", "email"] }),
        brand: fc.constantFrom("VISA", "MASTERCARD"),
        fund: fc.oneof(money(1, 100), money(1, 10_000)),
      },
      { requiredKeys: ["kind", "holder", "brand"] },
    ),
  ),
  weighted(3, fc.record({ kind: fc.constant("issueCard" as const), pick, brand: fc.constantFrom("VISA", "MASTERCARD"), label: textOf(50) }, { requiredKeys: ["kind", "pick", "brand"] })),
  weighted(
    4,
    fc.record(
      {
        kind: fc.constant("card" as const),
        pick,
        action: fc.constantFrom("fund", "fund", "unload", "freeze", "unfreeze", "terminate", "spend", "spend"),
        amount: fc.oneof(money(1, 100), money(1, 10_000), fc.constant(13.13)),
        merchant_name: textOf(100),
      },
      { requiredKeys: ["kind", "pick", "action", "amount"] },
    ),
  ),
  weighted(2, ruleBody.map((body) => ({ kind: "rule" as const, body }))),
  weighted(1, fc.record({ kind: fc.constant("deleteRule" as const), pick, all: fc.boolean() })),
  weighted(
    4,
    fc
      .oneof(fc.integer({ min: 0, max: 3 * 86_400 }).map((s) => ({ seconds: s })), fc.constantFrom("30s", "1m", "2h", "1d", "8d", "366d").map((by) => ({ by })))
      .map((body) => ({ kind: "advance" as const, body })),
  ),
  weighted(1, fc.record({ kind: fc.constant("wallTick" as const), ms: fc.integer({ min: 0, max: 120_000 }) })),
  weighted(2, fc.record({ kind: fc.constant("redeliver" as const), pick })),
  weighted(1, fc.record({ kind: fc.constant("scenario" as const), body: scenarioBody, advance: fc.integer({ min: 0, max: 3_600 }) })),
  weighted(1, fc.constant({ kind: "snapshotPut" as const })),
  weighted(1, fc.record({ kind: fc.constant("reset" as const), wallet_balance: money(0, 1e11) }, { requiredKeys: ["kind"] })),
);

// ---- Running them ------------------------------------------------------------------------------------

interface World {
  h: Harness;
  m: Merchant;
  /** Merchants made by scenario loads. */
  others: Tenant[];
}

/** The element at `i`, counting round the list (undefined for an empty list). */
const nth = <T>(list: T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
const withUrl = (s: Record<string, unknown>) => (s.webhook_url === "receiver" ? { ...s, webhook_url: `${hooks.url}/hooks` } : s);

const KINDS: Array<Op["kind"]> = [
  "fund", "patch", "virtualAccount", "transferIn", "paymentLever", "createLink", "payLink", "payout", "payoutLever", "vtu", "vtuLever", "cardholder",
  "approveHolder", "newCard", "issueCard", "card", "rule", "deleteRule", "advance", "wallTick", "redeliver", "scenario", "snapshotPut", "reset",
];
/** Kinds of operation that were accepted (2xx) at least once, over all runs. */
const accepted = new Set<string>();

/** Runs one operation as the world's merchant; the reply, when it made a request. */
async function perform(w: World, o: Op): Promise<Reply | undefined> {
  const { m, h } = w;
  const s = m.tenant.state;
  switch (o.kind) {
    case "fund":
      return m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: o.amount, ...(o.description === undefined ? {} : { description: o.description }) } });
    case "patch":
      return m.call("PATCH", "/sandbox/v1/merchant", { body: withUrl(o.settings) });
    case "virtualAccount":
      return m.call("POST", "/api/v1/virtual-account/create", { body: o.body });
    case "transferIn": {
      const account = nth([...s.virtualAccounts.keys()], o.pick) ?? "0000000000";
      const { kind: _k, pick: _p, ...body } = o;
      return m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body });
    }
    case "createLink":
      return m.call("POST", "/api/v1/checkout/create", { body: o.body });
    case "payLink": {
      const pending = [...s.checkouts.values()].filter((c) => c.status === "pending");
      const link = nth(pending, o.pick) ?? nth([...s.checkouts.values()], o.pick);
      const ref = link?.reference ?? "CHK_NONE";
      if (o.how === "page") return h.call("POST", `/pay/${ref}/simulate`, { body: {} });
      return m.call("POST", `/sandbox/v1/checkout/${ref}/pay`, { body: o.how === "wrong" && link ? { amount: link.amount / 100 + 1 } : {} });
    }
    case "payout":
      return m.call("POST", "/api/v1/payout/transfer", { body: o.body });
    case "payoutLever": {
      const open = [...s.payouts.values()].filter((p) => p.status === "processing" || p.status === "pending_approval").map((p) => p.reference);
      const ref = nth(open, o.pick) ?? nth([...s.payouts.keys()], o.pick) ?? "none";
      return m.call("POST", `/sandbox/v1/payouts/${encodeURIComponent(ref)}/${o.action}`, { body: { reason: "by the property test" } });
    }
    case "vtu":
      return m.call("POST", `/api/v1/vtu/${o.path}`, { body: o.body });
    case "paymentLever": {
      const open = [...s.vaPayments.values()].filter((p) => p.status === "pending" || p.status === "processing").map((p) => p.transaction_id);
      return m.call("POST", `/sandbox/v1/virtual-accounts/payments/${nth(open, o.pick) ?? nth([...s.vaPayments.keys()], o.pick) ?? "none"}/${o.action}`);
    }
    case "vtuLever": {
      const open = [...s.vtu.values()].filter((v) => v.status === "processing").map((v) => v.reference);
      return m.call("POST", `/sandbox/v1/vtu/${nth(open, o.pick) ?? nth([...s.vtu.keys()], o.pick) ?? "none"}/${o.action}`);
    }
    case "cardholder":
      return m.call("POST", "/api/v1/virtual-cards/cardholders", { body: o.body });
    case "approveHolder": {
      const pending = [...s.cardholders.values()].filter((c) => c.kyc_status === "PENDING").map((c) => c.cardholder_id);
      return m.call("POST", `/sandbox/v1/cardholders/${nth(pending, o.pick) ?? nth([...s.cardholders.keys()], o.pick) ?? 1}/approve`);
    }
    case "issueCard": {
      const approved = [...s.cardholders.values()].filter((c) => c.kyc_status === "APPROVED").map((c) => c.cardholder_id);
      return m.call("POST", "/api/v1/virtual-cards", {
        body: { cardholder_id: nth(approved, o.pick) ?? nth([...s.cardholders.keys()], o.pick) ?? 1, brand: o.brand, ...(o.label === undefined ? {} : { label: o.label }) },
      });
    }
    case "newCard": {
      // Cardholder, KYC approved by the lever, card issued, and funded: a card to work with.
      const holder = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: o.holder });
      if (holder.status !== 200) return holder;
      if (holder.body.kyc_status === "PENDING") expectBelow500(await m.call("POST", `/sandbox/v1/cardholders/${holder.body.cardholder_id}/approve`), "approve");
      const card = await m.call("POST", "/api/v1/virtual-cards", { body: { cardholder_id: holder.body.cardholder_id, brand: o.brand } });
      if (card.status !== 200 || o.fund === undefined) return card;
      return m.call("POST", `/api/v1/virtual-cards/${card.body.card_id}/fund`, { body: { amount: o.fund } });
    }
    case "card": {
      const live = [...s.cards.values()].filter((c) => c.status !== "terminated").map((c) => c.card_id);
      const id = nth(live, o.pick) ?? nth([...s.cards.keys()], o.pick) ?? 1;
      if (o.action === "spend") return m.call("POST", `/sandbox/v1/virtual-cards/${id}/spend`, { body: { amount: o.amount, ...(o.merchant_name ? { merchant_name: o.merchant_name } : {}) } });
      if (o.action === "fund" || o.action === "unload") return m.call("POST", `/api/v1/virtual-cards/${id}/${o.action}`, { body: { amount: o.amount } });
      return m.call("POST", `/api/v1/virtual-cards/${id}/${o.action}`);
    }
    case "rule":
      return m.call("POST", "/sandbox/v1/outcomes", { body: o.body });
    case "deleteRule":
      return o.all ? m.call("DELETE", "/sandbox/v1/outcomes") : m.call("DELETE", `/sandbox/v1/outcomes/${nth(s.outcomeRules, o.pick)?.id ?? "rule_0"}`);
    case "advance":
      return m.call("POST", "/sandbox/v1/clock/advance", { body: o.body });
    case "wallTick":
      h.wall.now += o.ms;
      return m.call("GET", "/sandbox/v1/clock");
    case "redeliver":
      return m.call("POST", `/sandbox/v1/events/${nth([...s.events.keys()], o.pick) ?? "EVT_NONE"}/redeliver`);
    case "scenario": {
      const res = await h.call("POST", "/sandbox/v1/scenarios", { body: o.body });
      if (res.status === 201) {
        for (const made of Object.values(res.body.data.merchants) as Array<{ merchant_id: string }>) {
          const merchant = h.existing(made.merchant_id);
          w.others.push(merchant.tenant);
          expectBelow500(await merchant.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: o.advance } }), "scenario advance");
        }
      }
      return res;
    }
    case "snapshotPut": {
      const got = await m.call("GET", "/sandbox/v1/snapshot");
      expect(got.status).toBe(200);
      const put = await m.call("PUT", "/sandbox/v1/snapshot", { body: got.body });
      expect(put.status, `PUT of its own GET: ${JSON.stringify(put.body)}`).toBe(200);
      return put;
    }
    case "reset":
      return m.call("POST", "/sandbox/v1/reset", { body: o.wallet_balance === undefined ? {} : { wallet_balance: o.wallet_balance } });
  }
}

function expectBelow500(res: Reply, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
}

/** GET snapshot -> text -> parseSnapshot; fromSnapshot + shownSnapshot; and the file store, each the same document. */
async function expectRoundTrip(w: World, tenant: Tenant, dir: string): Promise<void> {
  // Attempts in flight finish and whatever is due fires first (a realtime clock's due timers run on
  // the next request anyway); after this the state holds still.
  const m = w.h.existing(tenant.id);
  await client(m).flush();

  const res = await w.h.app.request("/sandbox/v1/snapshot", { headers: m.keys }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const doc = (JSON.parse(text) as { data: unknown }).data;
  const parsed = parseSnapshot(doc);
  if ("error" in parsed) expect.fail(`merchant ${tenant.id}: GET /sandbox/v1/snapshot gave a document parseSnapshot refuses, at ${parsed.path}: ${parsed.error}`);
  const { config, clock, state } = fromSnapshot(parsed.snapshot);
  expect(JSON.parse(JSON.stringify(shownSnapshot(config, clock, state))), "fromSnapshot + shownSnapshot").toEqual(doc);
  // What is kept (a payout's entries without their descriptions) is what the merchant kept.
  const kept = JSON.parse(JSON.stringify(snapshotOf(tenant)));
  expect(JSON.parse(JSON.stringify(toSnapshot(config, clock, state))), "fromSnapshot + toSnapshot").toEqual(kept);

  const store = new FileStore(dir, { revert: () => undefined });
  await store.persist(tenant.id, () => snapshotOf(tenant));
  const loaded = (await store.loadAll()).find((snap) => snap.merchant.merchant_id === tenant.id);
  expect(loaded, "the merchant's file loads").toBeDefined();
  expect(JSON.parse(JSON.stringify(loaded)), "persist then loadAll").toEqual(kept);
  const fromFile = fromSnapshot(loaded!);
  expect(JSON.parse(JSON.stringify(shownSnapshot(fromFile.config, fromFile.clock, fromFile.state))), "loadAll + shownSnapshot").toEqual(doc);
}

describe("save and load round-trip", () => {
  it("any state reachable through any entry path saves and loads back identical", async () => {
    hooks = await receiver((n) => ({ status: n % 3 === 2 ? 500 : 200, body: "ok" }));
    await fc.assert(
      fc.asyncProperty(signup, fc.array(op, { minLength: 1, maxLength: 50, size: "max" }), async (signupSettings, ops) => {
        const h = harness();
        const m = await h.merchant(withUrl(signupSettings));
        const world: World = { h, m, others: [] };
        for (const o of ops) {
          const res = await perform(world, o);
          if (res) {
            expectBelow500(res, o.kind);
            if (res.status < 300) accepted.add(o.kind);
          }
        }
        const dir = mkdtempSync(join(tmpdir(), "msb-roundtrip-"));
        try {
          for (const tenant of [m.tenant, ...world.others]) await expectRoundTrip(world, tenant, dir);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { seed: 20260311, numRuns: 80 },
    );
    // The sequences did reach these states: every kind of operation was accepted at least once.
    expect(KINDS.filter((k) => !accepted.has(k)), "operation kinds never accepted").toEqual([]);
  }, 120_000);

  it("every change saved through the journal reads back as exactly the merchant's state", async () => {
    hooks = await receiver((n) => ({ status: n % 3 === 2 ? 500 : 200, body: "ok" }));
    let compactions = 0;
    await fc.assert(
      fc.asyncProperty(signup, fc.array(op, { minLength: 1, maxLength: 50, size: "max" }), async (signupSettings, ops) => {
        const dir = mkdtempSync(join(tmpdir(), "msb-journal-"));
        try {
          // Every write appends (no merchant is small enough to rewrite whole) and compactions run often.
          const wall = { now: START };
          const { registry } = buildRegistry({}, () => wall.now);
          const tenantStore = new FileTenantStore(dir, registry, { wholeBelowBytes: 0, compactAboveBytes: 16 * 1024 });
          const store = tenantStore.files;
          const persist = (t: Tenant) => store.persist(t.id, () => snapshotOf(t), () => liveOf(t));
          const runtime = createRuntime({ store: tenantStore });
          // The harness's own wall clock is the one the registry reads.
          const h = Object.assign(harness({ registry, runtime }), { wall });
          const m = await h.merchant(withUrl(signupSettings));
          const world: World = { h, m, others: [] };
          for (const o of ops) {
            const res = await perform(world, o);
            if (res) expectBelow500(res, o.kind);
          }
          const tenants = [m.tenant, ...world.others];
          for (const tenant of tenants) {
            await client(h.existing(tenant.id)).flush();
            await persist(tenant);
          }
          runtime.stop();
          await store.flush();
          compactions += store.compactions;
          const loaded = await new FileStore(dir, { revert: () => undefined }).loadAll();
          for (const tenant of tenants) {
            const saved = loaded.find((snap) => snap.merchant.merchant_id === tenant.id);
            const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshotOf(tenant))));
            if ("error" in parsed) expect.fail(`merchant ${tenant.id}: its own snapshot is refused at ${parsed.path}: ${parsed.error}`);
            expect(JSON.parse(JSON.stringify(saved ?? null)), `merchant ${tenant.id}: snapshot + journal replayed`).toEqual(JSON.parse(JSON.stringify(parsed.snapshot)));
          }
          await store.close(); // its open journals
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { seed: 20261122, numRuns: 60 },
    );
    expect(compactions, "compactions ran while the journal grew").toBeGreaterThan(0);
  }, 180_000);
});

/** Operations sent to node A or B by `route` (cycled); merchants and the harness as either node serves them. */
function routedWorld(nodes: PgNode[], route: number[], wall: { now: number }, m: Merchant): World {
  let i = 0;
  const next = () => nodes[route[i++ % route.length]! % nodes.length]!;
  const routed = (made: Pick<Merchant, "id" | "apiKey" | "apiSecret" | "webhookSecret">): Merchant => ({
    ...nodes[0]!.as(made),
    get tenant() {
      return nodes.map((n) => n.h.registry.get(made.id)).find((t) => t !== undefined)!;
    },
    call: (method, path, opts) => next().as(made).call(method, path, opts),
  });
  const h: Harness = {
    ...nodes[0]!.h,
    wall,
    call: (method, path, opts) => next().h.call(method, path, opts),
    existing(merchantId) {
      const tenant = nodes.map((n) => n.h.registry.get(merchantId)).find((t) => t !== undefined);
      expect(tenant, `merchant ${merchantId} on a node`).toBeDefined();
      const { api_key, api_secret, webhook_secret } = tenant!.config;
      return routed({ id: merchantId, apiKey: api_key, apiSecret: api_secret, webhookSecret: webhook_secret });
    },
  };
  return { h, m: routed(m), others: [] };
}

/** Each node's GET /sandbox/v1/snapshot of the merchant, after its attempts and due timers are done. */
async function snapshotsOn(nodes: PgNode[], made: Merchant): Promise<unknown[]> {
  await client(nodes[0]!.as(made)).flush();
  const docs: unknown[] = [];
  for (const n of nodes) {
    const res = await n.as(made).call("GET", "/sandbox/v1/snapshot");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    docs.push(res.body.data);
  }
  return docs;
}

/**
 * `count` nodes on the test database, the operations sent to them by `route`; then, for every merchant
 * made, each node and a node started afresh answer the same snapshot, whose ledger adds up.
 */
async function roundTripOnNodes(count: number, signupSettings: Record<string, unknown>, ops: Op[], route: number[]): Promise<void> {
  const wall = sharedWall();
  const nodes: PgNode[] = [];
  try {
    for (let i = 0; i < count; i++) nodes.push(await pgNode(pg.cluster.url, wall, `node-${i}`, { poolSize: 2 }));
    const m = await nodes[route[0]! % count]!.h.merchant(withUrl(signupSettings));
    const world = routedWorld(nodes, route, wall, m);
    for (const o of ops) {
      const res = await perform(world, o);
      if (res) expectBelow500(res, o.kind);
      if (res && res.status < 300) acceptedOnPg.add(o.kind);
    }
    const fresh = await pgNode(pg.cluster.url, wall, "node-fresh", { poolSize: 2 });
    try {
      for (const id of [m.id, ...world.others.map((t) => t.id)]) {
        const docs = await snapshotsOn([...nodes, fresh], world.h.existing(id));
        for (const [i, doc] of docs.entries()) expect(doc, `merchant ${id}: ${i === count ? "a fresh node" : `node ${i}`} as node 0`).toEqual(docs[0]);
        expectLedgerConsistent(fresh.h.registry.get(id)!);
      }
    } finally {
      await fresh.close();
    }
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
  }
}

/** Kinds of operation accepted at least once by the PostgreSQL runs. */
const acceptedOnPg = new Set<string>();

describe.skipIf(SKIP_POSTGRES)("save and load round-trip on PostgreSQL", () => {
  afterAll(() => {
    // The sequences reached these states on PostgreSQL too (when both tests ran).
    if (acceptedOnPg.size > 0) expect(KINDS.filter((k) => !acceptedOnPg.has(k)), "operation kinds never accepted on PostgreSQL").toEqual([]);
  });
  it("on one node, every change kept in the database loads back on a fresh node as exactly the merchant's state", async () => {
    hooks = await receiver((n) => ({ status: n % 3 === 2 ? 500 : 200, body: "ok" }));
    await fc.assert(
      fc.asyncProperty(signup, fc.array(op, { minLength: 1, maxLength: 40, size: "max" }), (signupSettings, ops) => roundTripOnNodes(1, signupSettings, ops, [0])),
      { seed: 20261127, numRuns: 25 },
    );
  }, 180_000);

  it("on two nodes sharing the database, each operation sent to either, both and a fresh node answer the same state", async () => {
    hooks = await receiver((n) => ({ status: n % 3 === 2 ? 500 : 200, body: "ok" }));
    await fc.assert(
      fc.asyncProperty(
        signup,
        fc.array(op, { minLength: 1, maxLength: 40, size: "max" }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 16, maxLength: 16 }),
        (signupSettings, ops, route) => roundTripOnNodes(2, signupSettings, ops, route),
      ),
      { seed: 20261128, numRuns: 25 },
    );
  }, 240_000);
});
