/**
 * The one way domain tests build their world: a DomainContext (seeded ids, a merchant config from
 * newMerchantConfig, the bundled catalogue, a Set-backed claim, a given `now`) and an empty state.
 * Rules are called directly, with no HTTP: time moves by setting `ctx.now`.
 */
import { expect } from "vitest";
import { admitPayoutAttempt } from "../../src/domain/attempt-caps.js";
import { approveKyc, createCardholder, fundCard, issueCard, spendCard } from "../../src/domain/cards.js";
import { createCheckout, payCheckout } from "../../src/domain/checkout.js";
import type { ClaimKind, DomainContext } from "../../src/domain/context.js";
import { DomainError, type DomainErrorCode } from "../../src/domain/errors.js";
import { recordIncident } from "../../src/domain/incidents.js";
import { newCredentials, newMerchantConfig, type MerchantSettings } from "../../src/domain/merchant.js";
import { toMinor } from "../../src/domain/money.js";
import { accountHolderName } from "../../src/domain/names.js";
import { addRule } from "../../src/domain/outcomes.js";
import { createPayout, failPayout, type PayoutRequest } from "../../src/domain/payouts.js";
import type { Timer } from "../../src/domain/records.js";
import type { LoggedRequest } from "../../src/domain/request-log.js";
import { emptyState, type TenantState } from "../../src/domain/state.js";
import { fireTimer, isDomainTimer } from "../../src/domain/timer-dispatch.js";
import { popDue } from "../../src/domain/timers.js";
import { addTimelineEntry } from "../../src/domain/timeline.js";
import { receiveTransfer } from "../../src/domain/va-payments.js";
import { createVirtualAccount, type VirtualAccountRequest } from "../../src/domain/virtual-accounts.js";
import { priceElectricity, priceExam, purchase } from "../../src/domain/vtu.js";
import { fundWallet } from "../../src/domain/wallet.js";
import { planAttempt } from "../../src/domain/webhook-policy.js";
import { createIds } from "../../src/engine/ids.js";
import { loadCatalog } from "../../src/store/fixtures.js";

/** 2026-01-05T09:00:00Z, the scenarios' default start. */
export const T0 = Date.UTC(2026, 0, 5, 9);

const catalog = loadCatalog();

export interface TestContext extends DomainContext {
  /** What `claim` has handed out, as `kind:value` (seed it to make values taken). */
  claimed: Set<string>;
}

export interface SetupOptions {
  now?: number;
  seed?: string;
  settings?: MerchantSettings;
  /** Opening wallet balance in Naira (one wallet_funding entry); none by default. */
  balance?: number;
}

export function makeContext(opts: SetupOptions = {}): TestContext {
  const seed = opts.seed ?? "domain";
  const now = opts.now ?? T0;
  const claimed = new Set<string>();
  const credentials = newCredentials(createIds(`${seed}:merchant`), createIds(`${seed}:secrets`));
  return {
    now,
    ids: createIds(seed),
    config: newMerchantConfig(credentials, opts.settings ?? {}, "manual", now),
    catalog,
    // Waits are told in real seconds unless a test sets a manual clock (then as the advance to make).
    clock: { mode: "realtime", speed: 1 },
    claimed,
    claim(kind: ClaimKind, value: string) {
      const key = `${kind}:${value}`;
      if (claimed.has(key)) return false;
      claimed.add(key);
      return true;
    },
  };
}

/** Fires every domain timer due by `upTo`, each at its own time (as the engine does), and leaves `ctx.now` at `upTo`. */
export function runDue({ ctx, state }: { ctx: TestContext; state: TenantState }, upTo: number): Timer[] {
  const fired: Timer[] = [];
  for (let t = popDue(state, upTo); t; t = popDue(state, upTo)) {
    ctx.now = t.at;
    if (isDomainTimer(t)) fireTimer(ctx, state, t);
    fired.push(t);
  }
  ctx.now = upTo;
  return fired;
}

/** A context and an empty state (funded with `balance` Naira when given). */
export function setup(opts: SetupOptions = {}): { ctx: TestContext; state: TenantState } {
  const ctx = makeContext(opts);
  const state = emptyState();
  if (opts.balance) fundWallet(ctx, state, toMinor(opts.balance));
  return { ctx, state };
}

/** The DomainError `act` throws (failing the test when it throws nothing or something else). */
export function thrown(act: () => unknown): DomainError {
  try {
    act();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error("expected a DomainError; nothing was thrown");
}

/** Runs `act`, expects a DomainError with `code`, and checks that the state is exactly as it was. */
export function expectRefusal(state: TenantState, act: () => unknown, code: DomainErrorCode): DomainError {
  const before = structuredClone(state);
  const error = thrown(act);
  expect(error.code).toBe(code);
  expect(state).toEqual(before);
  return error;
}

/** The field errors of a VALIDATION_ERROR refusal. */
export const fieldsOf = (err: DomainError) => err.details.errors ?? {};

/** A valid NUBAN at GTBank (058): serial 000000001, check digit 8. */
export const GTB_ACCOUNT = "0000000018";

/** A valid transfer to GTB_ACCOUNT: the bank's and the holder's names follow a changed bank or account unless given. */
export function payoutRequest(over: Partial<PayoutRequest> = {}): PayoutRequest {
  const bank_code = over.bank_code ?? "058";
  const account_number = over.account_number ?? GTB_ACCOUNT;
  return {
    amount: toMinor(5_000),
    bank_name: catalog.bankByCode.get(bank_code)?.bank_name ?? "Guaranty Trust Bank",
    client_ip: "10.0.0.1",
    ...over,
    bank_code,
    account_number,
    account_name: over.account_name ?? accountHolderName(bank_code, account_number),
  };
}

export function individualRequest(over: Partial<Extract<VirtualAccountRequest, { customer_type: "individual" }>> = {}): VirtualAccountRequest {
  return { customer_type: "individual", email: "ada@example.com", reference: "cust-1", first_name: "Ada", last_name: "Okafor", bvn: "22222222222", ...over };
}

/** A merchant with one individual virtual account (reference cust-1), for transfers into it. */
export function withAccount(opts: SetupOptions = {}) {
  const world = setup(opts);
  const { account } = createVirtualAccount(world.ctx, world.state, individualRequest());
  return { ...world, account };
}

/**
 * A merchant that has used every part of the domain: accounts and transfers, links, payouts in each
 * state, VTU with pins and a token, a funded card, rules, events held and queued, a delivery, a
 * timeline, an incident and the rate windows. For whole-state tests (snapshots, nesting).
 */
export function busyMerchant() {
  const url = "https://hooks.example/in";
  const world = withAccount({ balance: 3_000_000, settings: { webhook_url: url } });
  const { ctx, state, account } = world;
  receiveTransfer(ctx, state, { account_number: account.account_number, amount: toMinor(20_000), narration: "INV-1" });
  payCheckout(ctx, state, createCheckout(ctx, state, { amount: toMinor(500), description: "Order" }).reference);
  createCheckout(ctx, state, { amount: toMinor(700) });
  for (const ip of ["10.0.0.1", "10.0.0.2"]) admitPayoutAttempt(ctx, state, ip, ctx.config.clock);
  createPayout(ctx, state, payoutRequest({ reference: "po-processing", narration: "Rent" }));
  createPayout(ctx, state, payoutRequest({ reference: "po-review", amount: toMinor(1_000_000) }));
  createPayout(ctx, state, payoutRequest({ reference: "po-failed" }));
  failPayout(ctx, state, "po-failed");
  purchase(ctx, state, priceExam(ctx, { exam_type_id: 301, quantity: 2 }));
  purchase(ctx, state, priceElectricity(ctx, { disco_id: 1, meter_number: "12345678901", meter_type: "Prepaid", amount: toMinor(1_000) }));
  purchase(ctx, state, priceElectricity(ctx, { disco_id: 1, meter_number: "22222222222", meter_type: "Prepaid", amount: toMinor(1_000) }));
  createCardholder(ctx, state, { first_name: "Ada", last_name: "Okafor", email: "ada@example.com" });
  createCardholder(ctx, state, { first_name: "Eze", last_name: "Obi", email: "pending+eze@example.com" });
  approveKyc(state, 1);
  issueCard(ctx, state, { cardholder_id: 1, brand: "MASTERCARD" });
  issueCard(ctx, state, { cardholder_id: 1, brand: "VISA" });
  fundCard(ctx, state, 1, toMinor(20));
  spendCard(ctx, state, 1, toMinor(5), "Jumia");
  addRule(ctx, state, { target: "vtu", match: { network: "mtn", amount: 100 }, outcome: "processing_fail", delay_seconds: 5, times: 3 });
  addRule(ctx, state, { target: "webhook", outcome: "out_of_order", times: 1 });
  const [first] = state.events.values();
  planAttempt(ctx, state, first!, "initial");
  state.outbox.splice(state.outbox.indexOf(first!.id), 1);
  // The dispatcher (I/O) logs deliveries; this is the one it logs for a held event.
  const unanswered = { nonce: null, request_body: null, status_code: null, error: null, latency_ms: null, response_excerpt: null, next_retry_at: null };
  state.deliveries.push({ id: ctx.ids.id("DLV"), event_id: first!.id, event_type: first!.type, trigger: "initial", url, sent_at: ctx.now, request_headers: {}, ...unanswered, outcome: "held", fault: "out_of_order" });
  addTimelineEntry(ctx, state, T0 + 60_000, { kind: "transfer", account_number: account.account_number, amount: toMinor(50) });
  recordIncident(state, ctx.now, "timer payout.settle po-x", new Error("boom"));
  // Last, so the timers' heap is in due order as it stands (snapshots save it sorted).
  receiveTransfer(ctx, state, { account_number: account.account_number, amount: toMinor(750), narration: " ", status: "processing", outcome: "failed", settle_after_seconds: 300 });
  return world;
}

/** A logged request: a GET of the balance answered 200 at `at` ms, unless `over` says otherwise. */
export const loggedRequest = (over: Partial<Omit<LoggedRequest, "seq">> = {}): Omit<LoggedRequest, "seq"> => ({
  request_id: "req",
  method: "GET",
  path: "/api/v1/wallet/balance",
  query: "",
  operation: "getWalletBalance",
  request_headers: {},
  request_body: null,
  request_body_truncated: false,
  status: 200,
  error_code: null,
  response_body: null,
  response_body_truncated: false,
  latency_ms: 1,
  client_ip: "127.0.0.1",
  at: 0,
  wall_at: 0,
  delivery: "answered",
  objects: [],
  events: [],
  sample: false,
  ...over,
});
