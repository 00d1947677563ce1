/**
 * One typed test client over a harness merchant (test/helpers.ts): each flow a test needs, written
 * once, so a flow test reads in a few lines:
 *
 *   const c = client(await harness().merchant({ wallet_balance: 50_000 }));
 *   const payout = await c.payout({ amount: 5_000 });
 *   await c.advance("30s");
 *   expect(await c.events("payout.completed")).toHaveLength(1);
 *
 * Helpers that create or read something assert that it worked (the 2xx, `success: true`) and return
 * the data; `payout` and the other calls whose refusals tests examine return the whole reply instead.
 * Beside the client: `at` (sim time as ISO) and the assertions several resource files share.
 */
import { expect } from "vitest";
import type { deliveryView, eventView } from "../src/domain/events.js";
import type { cardView, cardholderView, fundsMovedView } from "../src/domain/cards.js";
import type { checkoutCreatedView, checkoutLinks, checkoutView } from "../src/domain/checkout.js";
import type { ledgerEntryView } from "../src/domain/ledger.js";
import { accountHolderName } from "../src/domain/names.js";
import { makeNuban, nubanCheckDigit } from "../src/domain/nuban.js";
import type { payoutStatusView, payoutView } from "../src/domain/payouts.js";
import type { requestLogView, requestSummaryView, requestView } from "../src/domain/request-log-views.js";
import type { vaPaymentView } from "../src/domain/va-payments.js";
import type { virtualAccountView } from "../src/domain/virtual-accounts.js";
import type { Tenant } from "../src/engine/tenant.js";
import { loadCatalog } from "../src/store/fixtures.js";
import { expectError, START, type CallOptions, type Merchant, type Reply } from "./helpers.js";

export type VirtualAccountView = ReturnType<typeof virtualAccountView>;
export type PaymentView = ReturnType<typeof vaPaymentView>;
export type EventView = ReturnType<typeof eventView>;
export type DeliveryView = ReturnType<typeof deliveryView>;
export type CheckoutCreated = ReturnType<typeof checkoutCreatedView>;
export type CardView = ReturnType<typeof cardView>;
export type CardholderView = ReturnType<typeof cardholderView>;
export type CardFunding = ReturnType<typeof fundsMovedView>;
/** The status record: the link and both its URLs. */
export type CheckoutView = ReturnType<typeof checkoutView> & ReturnType<typeof checkoutLinks>;
export type PayoutView = ReturnType<typeof payoutView>;
export type PayoutStatusView = ReturnType<typeof payoutStatusView>;
export type LedgerEntryView = ReturnType<typeof ledgerEntryView>;
/** A request of the request log as a list shows it, and whole (GET /sandbox/v1/requests/{seq}). */
export type RequestSummaryView = ReturnType<typeof requestSummaryView>;
export type RequestView = ReturnType<typeof requestView>;
export interface RequestPage {
  data: RequestSummaryView[];
  pagination: { current_page: number; per_page: number; total_pages: number; total: number };
  log: ReturnType<typeof requestLogView>;
}
export interface ClockView {
  now: string;
  mode: "manual" | "realtime";
  speed: number;
  pending_timers: number;
  fired: number;
}
export interface RuleView {
  id: string;
  target: string;
  match: Record<string, string | number | boolean> | null;
  outcome: string;
  delay_seconds: number | null;
  times: number | null;
  window_seconds: number | null;
  queries: number | null;
  active_until: string | null;
  created_at: string;
}

/** A valid NUBAN at GTBank (058) that resolves and completes: the default payout destination. */
export const PAYOUT_ACCOUNT = makeNuban("058", "100200300");

/** The ISO time `seconds` after START, where every harness merchant's manual clock begins. */
export const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();

/** Asserts a 10-digit NUBAN whose CBN check digit is right for the partner bank (999). */
export function expectPartnerNuban(n: unknown): void {
  expect(n).toMatch(/^\d{10}$/);
  const s = n as string;
  expect(nubanCheckDigit("999", s.slice(0, 9))).toBe(Number(s[9]));
}

/** Asserts a 422 VALIDATION_ERROR whose `errors` names exactly `fields`, each with a message; returns the body. */
export function expectInvalid(res: Reply, fields: string[]) {
  const body = expectError(res, 422, "VALIDATION_ERROR");
  expect(Object.keys(body.errors ?? {}).sort()).toEqual([...fields].sort());
  for (const field of fields) expect(body.errors![field]!.length, field).toBeGreaterThan(0);
  return body;
}

export interface PayoutBody {
  amount: number;
  bank_code: string;
  account_number: string;
  account_name: string;
  bank_name: string;
  reference?: string;
  narration?: string;
}

const BANKS = loadCatalog().bankByCode;

/**
 * A valid POST /api/v1/payout/transfer body: 5,000 Naira to PAYOUT_ACCOUNT at GTBank, the name its
 * name enquiry resolves to. `over` overrides any field (the bank's name and the holder's follow a
 * changed bank or account unless given).
 */
export function payoutBody(over: Partial<PayoutBody> = {}): PayoutBody {
  const bank_code = over.bank_code ?? "058";
  const account_number = over.account_number ?? PAYOUT_ACCOUNT;
  return {
    amount: 5_000,
    ...over,
    bank_code,
    account_number,
    bank_name: over.bank_name ?? BANKS.get(bank_code)?.bank_name ?? "Guaranty Trust Bank",
    account_name: over.account_name ?? accountHolderName(bank_code, account_number),
  };
}

/** The optional fields of a simulated transfer in (control API). */
export interface TransferExtra {
  narration?: string;
  payer_name?: string;
  payer_bank?: string;
  status?: "success" | "pending" | "processing";
  outcome?: "success" | "failed";
  settle_after_seconds?: number;
}

export interface TestClient {
  readonly merchant: Merchant;
  /** The merchant's tenant, for checks on its state (ledger, records). */
  readonly tenant: Tenant;
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  /** Moves the clock by seconds, by "30s"/"5m"/"2h"/"1d", or `{ to: ISO }`; asserts 200. */
  advance(by: number | string | { to: string }): Promise<ClockView>;
  /** GET /sandbox/v1/clock's `data`; asserts 200. */
  clock(): Promise<ClockView>;
  /** Waits for the webhook attempts in flight (an advance by 0 seconds). */
  flush(): Promise<void>;
  /** The wallet balance through GET /api/v1/wallet/balance, in Naira. */
  balance(): Promise<number>;
  fund(amount: number): Promise<void>;
  /** The wallet ledger (GET /sandbox/v1/wallet/ledger), oldest first; asserts 200. */
  ledger(): Promise<LedgerEntryView[]>;
  /**
   * A virtual account (asserts 200): an individual's (BVN given), or a business's (name and CAC
   * number given) when `body.customer_type` is "business"; `body` overrides the defaults.
   */
  virtualAccount(body?: Record<string, unknown>): Promise<VirtualAccountView>;
  /** The merchant's virtual accounts (GET /api/v1/virtual-accounts), oldest first; asserts 200. */
  virtualAccounts(): Promise<VirtualAccountView[]>;
  /** A bank transfer into a virtual account (control API), at once or pending/processing (`extra.status`); asserts 201. */
  transferIn(accountNumber: string, amount?: number, extra?: TransferExtra): Promise<PaymentView>;
  /** POST /api/v1/payout/transfer with `payoutBody(body)`. Returns the reply: refusals are for the test to examine. */
  payout(body?: Partial<PayoutBody>, opts?: { ip?: string }): Promise<Reply>;
  /** `payout` that must be accepted (201) and processing; returns the record. */
  processingPayout(body?: Partial<PayoutBody>): Promise<PayoutView>;
  /** GET /api/v1/payout/status's record; asserts 200. */
  payoutStatus(reference: string): Promise<PayoutStatusView>;
  /** A payment link (POST /api/v1/checkout/create); asserts 200. */
  checkout(body?: Record<string, unknown>): Promise<CheckoutCreated>;
  /** GET /api/v1/checkout/status's record; asserts 200. */
  checkoutStatus(reference: string): Promise<CheckoutView>;
  /** The customer's transfer to a payment link (control API; without `amount` no body: the exact amount). */
  payLink(reference: string, amount?: number): Promise<Reply>;
  /** POST /api/v1/vtu/airtime with a valid body (MTN, 500 Naira); `body` overrides. */
  airtime(body?: Record<string, unknown>): Promise<Reply>;
  /** A cardholder, approved at once unless `approved: false`, which leaves it PENDING (asserted). */
  cardholder(body?: Record<string, unknown>, opts?: { approved?: boolean }): Promise<CardholderView>;
  /** An approved cardholder's card (a new cardholder unless `body.cardholder_id`), funded with `usd` (none when 0). */
  fundedCard(usd?: number, body?: Record<string, unknown>): Promise<CardView>;
  /** GET /api/v1/virtual-cards/{id}; asserts 200. */
  card(cardId: number): Promise<CardView>;
  /** POST /api/v1/virtual-cards/{id}/fund with `usd`; asserts 200. */
  fundCard(cardId: number, usd: number): Promise<CardFunding>;
  /** An outcome rule (POST /sandbox/v1/outcomes); asserts 201. */
  rule(input: { target: string; outcome: string; match?: Record<string, string | number | boolean>; delay_seconds?: number; times?: number; window_seconds?: number; queries?: number }): Promise<RuleView>;
  rules(): Promise<RuleView[]>;
  /** The merchant's events, oldest first (of one type, if given). */
  events(type?: string): Promise<EventView[]>;
  /** Every delivery attempt, oldest first (of one event, if given). */
  deliveries(eventId?: string): Promise<DeliveryView[]>;
  /** GET /sandbox/v1/snapshot's `data`. */
  snapshot(): Promise<any>;
  /** A page of the request log (GET /sandbox/v1/requests?`query`, e.g. "status=4xx"); asserts 200. */
  requests(query?: string): Promise<RequestPage>;
  /** One request of the log whole (GET /sandbox/v1/requests/{seq}); asserts 200. */
  loggedRequest(seq: number): Promise<RequestView>;
}

const ok = (res: Reply, what: string, status?: number) => {
  if (status === undefined) expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  else expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.body.success, what).toBe(true);
  return res.body;
};

let references = 0;

export function client(merchant: Merchant): TestClient {
  const call = merchant.call;
  const self: TestClient = {
    merchant,
    tenant: merchant.tenant,
    call,
    async advance(by) {
      const body = typeof by === "number" ? { seconds: by } : typeof by === "string" ? { by } : by;
      return ok(await call("POST", "/sandbox/v1/clock/advance", { body }), "advance", 200).data as ClockView;
    },
    async clock() {
      return ok(await call("GET", "/sandbox/v1/clock"), "clock", 200).data as ClockView;
    },
    async flush() {
      await self.advance(0);
    },
    async balance() {
      return ok(await call("GET", "/api/v1/wallet/balance"), "balance", 200).data.balance as number;
    },
    async fund(amount) {
      ok(await call("POST", "/sandbox/v1/wallet/fund", { body: { amount } }), "fund", 200);
    },
    async ledger() {
      return ok(await call("GET", "/sandbox/v1/wallet/ledger"), "ledger", 200).data as LedgerEntryView[];
    },
    async virtualAccount(body = {}) {
      const customer =
        body.customer_type === "business"
          ? { business_name: "Zenith Foods Ltd", cac_number: "RC1234567" }
          : { first_name: "Ada", last_name: "Obi", bvn: "22212345678" };
      const res = await call("POST", "/api/v1/virtual-account/create", {
        body: { email: "ada@example.com", reference: `cust-${++references}`, bank: "partnerbank", ...customer, ...body },
      });
      return ok(res, "virtual account", 200).data as VirtualAccountView;
    },
    async virtualAccounts() {
      return ok(await call("GET", "/api/v1/virtual-accounts"), "virtual accounts", 200).data as VirtualAccountView[];
    },
    async transferIn(accountNumber, amount = 7_500, extra = {}) {
      const res = await call("POST", `/sandbox/v1/virtual-accounts/${accountNumber}/transfers`, {
        body: { amount, narration: "Order 1001", payer_name: "BELLO HALIMA", payer_bank: "Zenith Bank", ...extra },
      });
      return ok(res, "transfer in", 201).data as PaymentView;
    },
    payout(body = {}, { ip } = {}) {
      return call("POST", "/api/v1/payout/transfer", { body: payoutBody(body), ip });
    },
    async processingPayout(body) {
      const created = ok(await self.payout(body), "payout", 201).data as PayoutView;
      expect(created.status, "payout").toBe("processing");
      return created;
    },
    async payoutStatus(reference) {
      return ok(await call("GET", `/api/v1/payout/status?reference=${encodeURIComponent(reference)}`), "payout status", 200).data as PayoutStatusView;
    },
    async checkout(body = {}) {
      return ok(await call("POST", "/api/v1/checkout/create", { body: { amount: 12_500, ...body } }), "checkout", 200) as CheckoutCreated;
    },
    async checkoutStatus(reference) {
      return ok(await call("GET", `/api/v1/checkout/status?reference=${encodeURIComponent(reference)}`), "checkout status", 200).data as CheckoutView;
    },
    payLink(reference, amount) {
      return call("POST", `/sandbox/v1/checkout/${encodeURIComponent(reference)}/pay`, amount === undefined ? {} : { body: { amount } });
    },
    airtime(body = {}) {
      return call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 500, ...body } });
    },
    async cardholder(body = {}, { approved = true } = {}) {
      const created = ok(
        await call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: `holder-${++references}@example.com`, ...body } }),
        "cardholder",
        200,
      ) as CardholderView;
      if (!approved) expect(created.kyc_status, "cardholder").toBe("PENDING");
      if (!approved || created.kyc_status === "APPROVED") return created;
      return ok(await call("POST", `/sandbox/v1/cardholders/${created.cardholder_id}/approve`), "approve KYC", 200) as CardholderView;
    },
    async fundedCard(usd = 100, body = {}) {
      const cardholder_id = body.cardholder_id ?? (await self.cardholder()).cardholder_id;
      const card = ok(await call("POST", "/api/v1/virtual-cards", { body: { ...body, cardholder_id } }), "card", 200) as CardView;
      if (usd > 0) await self.fundCard(card.card_id, usd);
      return self.card(card.card_id);
    },
    async card(cardId) {
      return ok(await call("GET", `/api/v1/virtual-cards/${cardId}`), "card", 200) as CardView;
    },
    async fundCard(cardId, usd) {
      return ok(await call("POST", `/api/v1/virtual-cards/${cardId}/fund`, { body: { amount: usd } }), "fund card", 200) as CardFunding;
    },
    async rule(input) {
      return ok(await call("POST", "/sandbox/v1/outcomes", { body: input }), "outcome rule", 201).data as RuleView;
    },
    async rules() {
      return ok(await call("GET", "/sandbox/v1/outcomes"), "outcome rules", 200).data as RuleView[];
    },
    async events(type) {
      return ok(await call("GET", `/sandbox/v1/events${type ? `?type=${encodeURIComponent(type)}` : ""}`), "events", 200).data as EventView[];
    },
    async deliveries(eventId) {
      return ok(await call("GET", `/sandbox/v1/webhook-deliveries${eventId ? `?event_id=${encodeURIComponent(eventId)}` : ""}`), "deliveries", 200).data as DeliveryView[];
    },
    async snapshot() {
      return ok(await call("GET", "/sandbox/v1/snapshot"), "snapshot", 200).data;
    },
    async requests(query = "") {
      return ok(await call("GET", `/sandbox/v1/requests${query ? `?${query}` : ""}`), "request log", 200) as RequestPage;
    },
    async loggedRequest(seq) {
      return ok(await call("GET", `/sandbox/v1/requests/${seq}`), "logged request", 200).data as RequestView;
    },
  };
  return self;
}
