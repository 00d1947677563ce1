/**
 * How each state machine ends, decided when its object is created: first the merchant's outcome
 * rules (newest matching rule wins, `times` consumes it, a window limits it), then the magic values of
 * the README's table, then the default (success after the merchant's configured delay). Also the
 * ambiguous outcomes: a bank that is down, a name enquiry that times out, and what happens to the
 * answer of an operation that has already committed (lost, late, or a 5xx).
 */
import { MAX_OUTCOME_RULES } from "./bounds.js";
import { HOUR } from "./limits.js";
import { OUTCOMES, RESPONSE_OPERATIONS, ruleProblems, type MatchValue, type OutcomeRule, type OutcomeTarget, type PayoutPlan } from "./records.js";
import type { TenantState } from "./state.js";
import type { DomainContext } from "./context.js";
import { DomainError } from "./errors.js";

export { OUTCOMES, type MatchValue, type OutcomeRule, type OutcomeTarget } from "./records.js";

export interface RuleInput {
  target: OutcomeTarget;
  match?: Record<string, MatchValue>;
  outcome: string;
  delay_seconds?: number;
  times?: number;
  window_seconds?: number;
  queries?: number;
}

export function addRule(ctx: DomainContext, state: TenantState, input: RuleInput): OutcomeRule {
  if (state.outcomeRules.length >= MAX_OUTCOME_RULES) {
    throw new DomainError("VALIDATION_ERROR", "The given data was invalid.", {
      errors: { target: [`A merchant holds at most ${MAX_OUTCOME_RULES} outcome rules: delete some first (DELETE /sandbox/v1/outcomes).`] },
    });
  }
  const rule: OutcomeRule = {
    id: `rule_${state.sequences.rule + 1}`,
    target: input.target,
    match: input.match && Object.keys(input.match).length > 0 ? input.match : null,
    outcome: input.outcome,
    delay_seconds: input.delay_seconds ?? null,
    times: input.times ?? null,
    window_seconds: input.window_seconds ?? null,
    queries: input.queries ?? null,
    created_at: ctx.now,
  };
  const problems = Object.entries(ruleProblems(rule));
  if (problems.length > 0) {
    throw new DomainError("VALIDATION_ERROR", "The given data was invalid.", { errors: Object.fromEntries(problems.map(([field, message]) => [field, [message]])) });
  }
  state.sequences.rule += 1;
  state.outcomeRules.push(rule);
  return rule;
}

/** Deletes every rule of the merchant; returns how many there were. */
export function clearRules(state: TenantState): number {
  const count = state.outcomeRules.length;
  state.outcomeRules.length = 0;
  return count;
}

export function deleteRule(state: TenantState, id: string): void {
  const index = state.outcomeRules.findIndex((r) => r.id === id);
  if (index < 0) throw new DomainError("NOT_FOUND", `No outcome rule ${id}.`);
  state.outcomeRules.splice(index, 1);
}

/** When a rule's window ends (ms, on the merchant's clock), or null for a rule without one. */
export const activeUntil = (rule: OutcomeRule): number | null => (rule.window_seconds === null ? null : rule.created_at + rule.window_seconds * 1000);

/** Values compare as text, case-insensitively, so `{ amount: 5000 }` matches "5000" and `{ network: "MTN" }` matches "mtn". */
function matches(rule: OutcomeRule, facts: Record<string, unknown>): boolean {
  if (!rule.match) return true;
  return Object.entries(rule.match).every(([key, want]) => {
    const have = facts[key];
    return have !== undefined && have !== null && String(have).toLowerCase() === String(want).toLowerCase();
  });
}

/**
 * Finds the newest rule for `target` matching `facts` whose window is open at `ctx.now`, and consumes
 * one use of it. A rule whose window has passed is kept (the list shows it) but never matches again.
 */
export function takeRule(ctx: Pick<DomainContext, "now">, state: TenantState, target: OutcomeTarget, facts: Record<string, unknown>): OutcomeRule | undefined {
  const rules = state.outcomeRules;
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.target !== target || !matches(rule, facts)) continue;
    const until = activeUntil(rule);
    if (until !== null && ctx.now >= until) continue;
    const taken = { ...rule };
    if (rule.times !== null) {
      rule.times -= 1;
      if (rule.times <= 0) rules.splice(i, 1);
    }
    return taken;
  }
  return undefined;
}

const delayOf = (rule: OutcomeRule | undefined, fallbackSeconds: number) => (rule?.delay_seconds ?? fallbackSeconds) * 1000;

/** How many status reads the magic "settles when queried" values wait for. */
const MAGIC_STATUS_QUERIES = 3;

// ---- Payouts -------------------------------------------------------------------------------

export type { PayoutPlan } from "./records.js";

export type ResponseFaultOutcome = (typeof OUTCOMES.response)[number];

/** How long after it starts processing the magic late-failing payout fails (sim time). */
export const LATE_FAILURE_MS = 2 * HOUR;

/** A slow response's wait unless the rule gives one: longer than the 30 s most HTTP clients wait. */
export const SLOW_RESPONSE_SECONDS = 45;

/**
 * A documented test account, by the last four digits of its number. It sets how the payout settles
 * (`outcome`, after the merchant's delay unless `delay_ms` or `queries` says otherwise), what happens
 * to the transfer's answer once the payout is made (`response`), or how name enquiry answers (`enquiry`).
 */
export interface PayoutMagic {
  outcome?: PayoutPlan["outcome"];
  error?: string | null;
  delay_ms?: number;
  queries?: number;
  response?: ResponseFaultOutcome;
  /** `not_found`: an enquiry never resolves it (a transfer's own enquiry does); `timeout`: every enquiry times out at once. */
  enquiry?: "not_found" | "timeout";
  /** What it does, in the docs' words after its ending ("`0002` stay `processing` until forced"); `error` is quoted after it. */
  description: string;
}

const BANK_FAILURE = "Transfer failed at the beneficiary bank";

/**
 * The documented test accounts, which skip the NUBAN check-digit test at any bank. The behaviour and
 * the OpenAPI text are both read from this table: an entry added here is documented.
 */
export const PAYOUT_MAGIC: Record<string, PayoutMagic> = {
  "0000": { outcome: "failed", error: "Beneficiary account not found", enquiry: "not_found", description: "fail" },
  "0001": { outcome: "failed", error: BANK_FAILURE, description: "fail at settlement" },
  "0002": { outcome: "hold", error: null, description: "stay `processing` until forced" },
  "0003": {
    outcome: "failed",
    error: "Transfer reversed by the beneficiary bank",
    delay_ms: LATE_FAILURE_MS,
    description: `fail ${LATE_FAILURE_MS / HOUR} hours of sim time after they start processing`,
  },
  "0004": { outcome: "completed", error: null, queries: MAGIC_STATUS_QUERIES, description: `stay \`processing\` until their status is read ${MAGIC_STATUS_QUERIES} times, then complete` },
  "0005": { outcome: "failed", error: BANK_FAILURE, queries: MAGIC_STATUS_QUERIES, description: `stay \`processing\` until their status is read ${MAGIC_STATUS_QUERIES} times, then fail` },
  "0006": { response: "connection_reset", description: "is made and then its connection is reset with no answer" },
  "0007": { response: "slow_response", description: `answers after ${SLOW_RESPONSE_SECONDS} s of wall-clock time` },
  "0008": { response: "server_error", description: "answers 500 `INTERNAL_ERROR`" },
  "0009": { response: "gateway_timeout", description: "answers 504 `GATEWAY_TIMEOUT`" },
  "0010": { enquiry: "timeout", description: "times out (504 `GATEWAY_TIMEOUT`, at once)" },
};

/** The table's entry for an account number, by its last four digits. */
const magicOf = (accountNumber: string): PayoutMagic | undefined => {
  const ending = accountNumber.slice(-4);
  return Object.hasOwn(PAYOUT_MAGIC, ending) ? PAYOUT_MAGIC[ending] : undefined;
};

/** Magic endings are documented test accounts, so they skip the NUBAN check-digit test. */
export const isMagicAccount = (accountNumber: string) => magicOf(accountNumber) !== undefined;

export function planPayout(ctx: DomainContext, state: TenantState, facts: Record<string, unknown> & { account_number: string }): PayoutPlan {
  const rule = takeRule(ctx, state, "payout", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.payout_settlement_seconds);
  if (rule) {
    const queries = rule.queries;
    if (rule.outcome === "failed") return { outcome: "failed", delay_ms, error: BANK_FAILURE, queries };
    return { outcome: rule.outcome === "processing" ? "hold" : "completed", delay_ms, error: null, queries };
  }
  const magic = magicOf(facts.account_number);
  if (!magic?.outcome) return { outcome: "completed", delay_ms, error: null, queries: null };
  return { outcome: magic.outcome, error: magic.error ?? null, delay_ms: magic.delay_ms ?? delay_ms, queries: magic.queries ?? null };
}

// ---- Name enquiry and the banks --------------------------------------------------------------

/** Whether name enquiry ever names the account's holder: not for the test accounts it never resolves or never answers for. */
export const enquiryGivesName = (accountNumber: string) => magicOf(accountNumber)?.enquiry === undefined;

export type NameEnquiryPlan = { outcome: "resolves" } | { outcome: "not_found" } | { outcome: "timeout"; delay_ms: number };

/**
 * Name enquiry: a `verify_account` rule, else the test account's `enquiry`, else the account resolves.
 * A time-out answers after the rule's delay_seconds (wall clock; none by default). A transfer makes the
 * same enquiry before it moves money, except that `not_found` accounts resolve for it: they are the
 * payouts that are accepted and then fail at the beneficiary bank.
 */
export function planNameEnquiry(
  ctx: DomainContext,
  state: TenantState,
  facts: { bank_code: string; account_number: string },
  purpose: "enquiry" | "transfer" = "enquiry",
): NameEnquiryPlan {
  const rule = takeRule(ctx, state, "verify_account", facts);
  if (rule?.outcome === "not_found") return { outcome: "not_found" };
  if (rule?.outcome === "timeout") return { outcome: "timeout", delay_ms: (rule.delay_seconds ?? 0) * 1000 };
  const enquiry = magicOf(facts.account_number)?.enquiry;
  if (purpose === "enquiry" && enquiry === "not_found") return { outcome: "not_found" };
  if (enquiry === "timeout") return { outcome: "timeout", delay_ms: 0 };
  return { outcome: "resolves" };
}

export interface BankOutage {
  /** When the outage ends on the merchant's clock (ms), or null: until its rule is deleted. */
  until: number | null;
}

/** A `bank` rule `down` matching the bank code: the bank refuses name enquiries and transfers while it lasts. */
export function bankOutage(ctx: DomainContext, state: TenantState, bankCode: string): BankOutage | undefined {
  const rule = takeRule(ctx, state, "bank", { bank_code: bankCode });
  if (!rule) return undefined;
  const until = activeUntil(rule);
  return { until };
}

// ---- Responses -----------------------------------------------------------------------------

export type ResponseOperation = (typeof RESPONSE_OPERATIONS)[number];

/** What happens to the answer of an operation that has already committed, and after how many wall-clock ms. */
export interface ResponseFault {
  operation: ResponseOperation;
  outcome: ResponseFaultOutcome;
  delay_ms: number;
}

const VTU_ADVICE =
  "a VTU request carries no reference of yours to query, so check the wallet balance (GET /api/v1/wallet/balance) for its debit before you buy again; a purchase that was made also reaches your webhook.";
const CARD_ADVICE = "read the card's balance (GET /api/v1/virtual-cards/{id}) and transactions (GET /api/v1/virtual-cards/{id}/transactions) before you retry.";

/** After an answer lost past its commit: how the merchant finds out what happened, for each operation (what it can query by). */
export const AFTER_COMMIT_ADVICE: Record<ResponseOperation, string> = {
  createPayout: "query its status by reference (GET /api/v1/payout/status) before you retry, and retry only with the same reference.",
  buyAirtime: VTU_ADVICE,
  buyData: VTU_ADVICE,
  payCable: VTU_ADVICE,
  buyElectricity: VTU_ADVICE,
  buyExamPins: VTU_ADVICE,
  fundVirtualCard: CARD_ADVICE,
  unloadVirtualCard: CARD_ADVICE,
};

/**
 * Whether planResponseFault can find a fault for a request at all: an operation of RESPONSE_OPERATIONS,
 * and a `response` rule to match or a transfer to a test account with a `response`. Asked first on every
 * answered POST, so that the request's facts (and the merchant's context) are gathered only when one
 * could: gathering them was most of the decision's cost (bench/FAST-PATH.md).
 */
export function mayFaultResponse(state: TenantState, operation: string, accountNumber: unknown): boolean {
  if (!(RESPONSE_OPERATIONS as readonly string[]).includes(operation)) return false;
  return state.outcomeRules.some((rule) => rule.target === "response") || magicResponse(operation, accountNumber) !== undefined;
}

/** The fault a transfer to a test account with a `response` gets. */
const magicResponse = (operation: string, accountNumber: unknown): ResponseFaultOutcome | undefined =>
  operation === "createPayout" && typeof accountNumber === "string" ? magicOf(accountNumber)?.response : undefined;

/**
 * Decided once an operation of RESPONSE_OPERATIONS has succeeded (its change made): a `response` rule
 * matching `operation` and the request's fields, else, for a transfer, the test account's `response`.
 */
export function planResponseFault(ctx: DomainContext, state: TenantState, facts: Record<string, unknown> & { operation: string }): ResponseFault | undefined {
  const operation = facts.operation as ResponseOperation;
  if (!RESPONSE_OPERATIONS.includes(operation)) return undefined;
  const rule = takeRule(ctx, state, "response", facts);
  const magic = magicResponse(operation, facts.account_number);
  const outcome = (rule?.outcome as ResponseFaultOutcome | undefined) ?? magic;
  if (!outcome) return undefined;
  return { operation, outcome, delay_ms: delayOf(rule, outcome === "slow_response" ? SLOW_RESPONSE_SECONDS : 0) };
}

// ---- VTU -----------------------------------------------------------------------------------

export interface VtuPlan {
  /** What the purchase answers with. */
  now: "success" | "processing" | "fail";
  /** For `processing`: how it settles (`hold` = until forced). */
  then: "success" | "fail" | "hold";
  delay_ms: number;
  /** For `processing`: status reads before it settles (instead of the delay), or null. */
  queries: number | null;
}

const VTU_RULE_PLANS: Record<string, Pick<VtuPlan, "now" | "then">> = {
  success: { now: "success", then: "success" },
  fail: { now: "fail", then: "fail" },
  processing_success: { now: "processing", then: "success" },
  processing_fail: { now: "processing", then: "fail" },
  processing: { now: "processing", then: "hold" },
};

export interface VtuMagic {
  /** How the purchase ends; null: the provider cannot find the meter or smart card (refused before any debit; a phone ignores it). */
  plan: keyof typeof VTU_RULE_PLANS | null;
  /** Status reads before it settles (instead of the delay). */
  queries?: number;
  description: string;
}

/**
 * The documented VTU test values, by digit: a magic phone (`magicPhone`) or a meter or smart card made
 * of that one digit. The behaviour and the OpenAPI text are both read from this table.
 */
export const VTU_MAGIC_DIGIT: Record<string, VtuMagic> = {
  "0": { plan: null, description: "the provider cannot find it (422 `VALIDATION_ERROR`, checked before any debit)" },
  "1": { plan: "success", description: "success at once" },
  "2": { plan: "processing_success", description: "processing, then success after the VTU delay" },
  "3": { plan: "processing_fail", description: "processing, then fail (refunded)" },
  "4": { plan: "fail", description: "fail at once (refunded)" },
  "5": { plan: "processing", description: "processing until forced with `POST /sandbox/v1/vtu/{reference}/succeed` or `/fail`" },
  "6": { plan: "processing_success", queries: MAGIC_STATUS_QUERIES, description: `processing until its status is read ${MAGIC_STATUS_QUERIES} times, then success` },
  "7": { plan: "processing_fail", queries: MAGIC_STATUS_QUERIES, description: `processing until its status is read ${MAGIC_STATUS_QUERIES} times, then fail (refunded)` },
};

/** The magic phone of a digit: 080 then the digit eight times (08011111111), as `magicDigit` reads it. */
export const magicPhone = (digit: string) => `080${digit.repeat(8)}`;

/** 2348011111111 and +2348011111111 are 08011111111. */
export function localPhone(phone: string): string {
  const digits = phone.replace(/^\+/, "");
  return digits.startsWith("234") ? `0${digits.slice(3)}` : digits;
}

/** The digit a meter or smart card number is made of, if it is one digit repeated. */
const repeatedDigit = (value: string) => (/^(\d)\1*$/.test(value) ? value[0] : undefined);

function magicDigit(details: Record<string, unknown>): string | undefined {
  if (typeof details.phone === "string") {
    const local = localPhone(details.phone);
    if (/^080\d{8}$/.test(local) && local === magicPhone(local[3]!)) return local[3];
  }
  for (const key of ["meter_number", "smart_card_number"]) {
    const value = details[key];
    const digit = typeof value === "string" ? repeatedDigit(value) : undefined;
    if (digit) return digit;
  }
  return undefined;
}

export function planVtu(ctx: DomainContext, state: TenantState, facts: Record<string, unknown>): VtuPlan {
  const rule = takeRule(ctx, state, "vtu", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.vtu_settlement_seconds);
  // Literals, not spreads: a spread followed by keys its source lacks is a slow path of V8 on every purchase.
  if (rule) {
    const { now, then } = VTU_RULE_PLANS[rule.outcome]!;
    return { now, then, delay_ms, queries: rule.queries };
  }
  const magic = VTU_MAGIC_DIGIT[magicDigit(facts) ?? ""];
  const { now, then } = VTU_RULE_PLANS[magic?.plan ?? "success"]!;
  return { now, then, delay_ms, queries: magic?.queries ?? null };
}

/** A meter or smart card the provider cannot find (its digit's `plan` is null): refused before any debit. */
export function isUnknownMeterOrCard(number: string): boolean {
  const digit = repeatedDigit(number);
  return digit !== undefined && VTU_MAGIC_DIGIT[digit]?.plan === null;
}

// ---- KYC and cards -------------------------------------------------------------------------

export interface KycPlan {
  approve: boolean;
  delay_ms: number;
}

/** Documented cardholder emails, by how they start (lower case; emails compare in any case): KYC never approves by itself. */
export const KYC_MAGIC: Record<string, { description: string }> = {
  "pending+": { description: "never approves by itself" },
};

export function planKyc(ctx: DomainContext, state: TenantState, facts: Record<string, unknown> & { email: string }): KycPlan {
  const rule = takeRule(ctx, state, "kyc", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.kyc_approval_seconds);
  if (rule) return { approve: rule.outcome === "approved", delay_ms };
  const email = facts.email.toLowerCase();
  return { approve: !Object.keys(KYC_MAGIC).some((prefix) => email.startsWith(prefix)), delay_ms };
}

/** Documented card funding amounts, in USD cents: the issuer declines them (nothing is charged). */
export const CARD_FUND_MAGIC: Record<number, { description: string }> = {
  1313: { description: "declined by the issuer" },
};

export function cardFundFails(ctx: DomainContext, state: TenantState, facts: { card_id: number; amount: number }): boolean {
  if (takeRule(ctx, state, "card_fund", { card_id: facts.card_id, amount: facts.amount / 100 })) return true;
  return Object.hasOwn(CARD_FUND_MAGIC, facts.amount);
}
