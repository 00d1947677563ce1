/**
 * How each state machine ends, decided when its object is created: first the merchant's outcome
 * rules (newest matching rule wins, `times` consumes it, a window limits it), then the magic values of
 * the README's table, then the default (success after the merchant's configured delay). Also the
 * ambiguous outcomes: a bank that is down, a name enquiry that times out, and what happens to the
 * answer of an operation that has already committed (lost, late, or a 5xx).
 */
import { MAX_OUTCOME_RULES } from "./bounds.js";
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
export const MAGIC_STATUS_QUERIES = 3;

// ---- Payouts -------------------------------------------------------------------------------

export type { PayoutPlan } from "./records.js";

/** How long after it starts processing the magic late-failing payout (ending 0003) fails: 2 hours of sim time. */
export const LATE_FAILURE_MS = 2 * 3_600_000;

/** Documented test accounts, by their last four digits: how they settle (the merchant's delay unless given). */
export const PAYOUT_MAGIC: Record<string, Pick<PayoutPlan, "outcome" | "error"> & Partial<Pick<PayoutPlan, "delay_ms" | "queries">>> = {
  "0000": { outcome: "failed", error: "Beneficiary account not found" },
  "0001": { outcome: "failed", error: "Transfer failed at the beneficiary bank" },
  "0002": { outcome: "hold", error: null },
  "0003": { outcome: "failed", error: "Transfer reversed by the beneficiary bank", delay_ms: LATE_FAILURE_MS },
  "0004": { outcome: "completed", error: null, queries: MAGIC_STATUS_QUERIES },
  "0005": { outcome: "failed", error: "Transfer failed at the beneficiary bank", queries: MAGIC_STATUS_QUERIES },
};

export type ResponseFaultOutcome = (typeof OUTCOMES.response)[number];

/** Documented test accounts whose transfer commits and then loses or spoils its answer, by their last four digits. */
export const RESPONSE_MAGIC: Record<string, ResponseFaultOutcome> = {
  "0006": "connection_reset",
  "0007": "slow_response",
  "0008": "server_error",
  "0009": "gateway_timeout",
};

/** The test account whose name enquiry times out (504 GATEWAY_TIMEOUT). */
export const NAME_ENQUIRY_TIMEOUT_ENDING = "0010";

/** Magic endings are documented test accounts, so they skip the NUBAN check-digit test. */
export const isMagicAccount = (accountNumber: string) => {
  const ending = accountNumber.slice(-4);
  return ending in PAYOUT_MAGIC || ending in RESPONSE_MAGIC || ending === NAME_ENQUIRY_TIMEOUT_ENDING;
};

export function planPayout(ctx: DomainContext, state: TenantState, facts: Record<string, unknown> & { account_number: string }): PayoutPlan {
  const rule = takeRule(ctx, state, "payout", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.payout_settlement_seconds);
  if (rule) {
    const queries = rule.queries;
    if (rule.outcome === "failed") return { outcome: "failed", delay_ms, error: "Transfer failed at the beneficiary bank", queries };
    return { outcome: rule.outcome === "processing" ? "hold" : "completed", delay_ms, error: null, queries };
  }
  const magic = PAYOUT_MAGIC[facts.account_number.slice(-4)];
  if (!magic) return { outcome: "completed", delay_ms, error: null, queries: null };
  return { outcome: magic.outcome, error: magic.error, delay_ms: magic.delay_ms ?? delay_ms, queries: magic.queries ?? null };
}

// ---- Name enquiry and the banks --------------------------------------------------------------

/** The magic account numbers name enquiry never resolves (ending 0000). */
export const accountNeverResolves = (accountNumber: string) => accountNumber.endsWith("0000");

/** Whether name enquiry ever names the account's holder: not for the test accounts it never resolves or never answers for. */
export const enquiryGivesName = (accountNumber: string) => !accountNeverResolves(accountNumber) && !accountNumber.endsWith(NAME_ENQUIRY_TIMEOUT_ENDING);

export type NameEnquiryPlan = { outcome: "resolves" } | { outcome: "not_found" } | { outcome: "timeout"; delay_ms: number };

/**
 * Name enquiry: a `verify_account` rule, else the magic endings (0000 does not resolve, 0010 times
 * out), else the account resolves. A time-out answers after the rule's delay_seconds (wall clock; none by default).
 * A transfer makes the same enquiry before it moves money, except that 0000 resolves for it: that ending is
 * the payout that is accepted and then fails at the beneficiary bank.
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
  if (purpose === "enquiry" && accountNeverResolves(facts.account_number)) return { outcome: "not_found" };
  if (facts.account_number.endsWith(NAME_ENQUIRY_TIMEOUT_ENDING)) return { outcome: "timeout", delay_ms: 0 };
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

/** A slow response's wait unless the rule gives one: longer than the 30 s most HTTP clients wait. */
export const SLOW_RESPONSE_SECONDS = 45;

/**
 * Whether planResponseFault can find a fault for a request at all: an operation of RESPONSE_OPERATIONS,
 * and a `response` rule to match or a transfer to a RESPONSE_MAGIC account. Asked first on every
 * answered POST, so that the request's facts (and the merchant's context) are gathered only when one
 * could: gathering them was most of the decision's cost (bench/FAST-PATH.md).
 */
export function mayFaultResponse(state: TenantState, operation: string, accountNumber: unknown): boolean {
  if (!(RESPONSE_OPERATIONS as readonly string[]).includes(operation)) return false;
  return state.outcomeRules.some((rule) => rule.target === "response") || magicResponse(operation, accountNumber) !== undefined;
}

/** The fault a transfer to a RESPONSE_MAGIC account gets, by its last four digits. */
const magicResponse = (operation: string, accountNumber: unknown): ResponseFaultOutcome | undefined =>
  operation === "createPayout" && typeof accountNumber === "string" && Object.hasOwn(RESPONSE_MAGIC, accountNumber.slice(-4))
    ? RESPONSE_MAGIC[accountNumber.slice(-4)]
    : undefined;

/**
 * Decided once an operation of RESPONSE_OPERATIONS has succeeded (its change made): a `response` rule
 * matching `operation` and the request's fields, else, for a transfer, the magic account endings.
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

/** The digit that forces a VTU outcome, in a magic phone (0801111111 1 style) or an all-same-digit meter or smart card. */
const VTU_MAGIC_DIGIT: Record<string, { plan: keyof typeof VTU_RULE_PLANS; queries?: number }> = {
  "1": { plan: "success" },
  "2": { plan: "processing_success" },
  "3": { plan: "processing_fail" },
  "4": { plan: "fail" },
  "5": { plan: "processing" },
  "6": { plan: "processing_success", queries: MAGIC_STATUS_QUERIES },
  "7": { plan: "processing_fail", queries: MAGIC_STATUS_QUERIES },
};

/** 2348011111111 and +2348011111111 are 08011111111. */
export function localPhone(phone: string): string {
  const digits = phone.replace(/^\+/, "");
  return digits.startsWith("234") ? `0${digits.slice(3)}` : digits;
}

function magicDigit(details: Record<string, unknown>): string | undefined {
  if (typeof details.phone === "string") {
    const m = /^080(\d)\1{7}$/.exec(localPhone(details.phone));
    if (m) return m[1];
  }
  for (const key of ["meter_number", "smart_card_number"]) {
    const value = details[key];
    if (typeof value === "string" && /^(\d)\1+$/.test(value)) return value[0];
  }
  return undefined;
}

export function planVtu(ctx: DomainContext, state: TenantState, facts: Record<string, unknown>): VtuPlan {
  const rule = takeRule(ctx, state, "vtu", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.vtu_settlement_seconds);
  if (rule) return { ...VTU_RULE_PLANS[rule.outcome]!, delay_ms, queries: rule.queries };
  const magic = VTU_MAGIC_DIGIT[magicDigit(facts) ?? ""];
  return { ...VTU_RULE_PLANS[magic?.plan ?? "success"]!, delay_ms, queries: magic?.queries ?? null };
}

/** A meter or smart card of all zeros is one the provider cannot find: refused before any debit. */
export function isUnknownMeterOrCard(number: string): boolean {
  return /^0+$/.test(number);
}

// ---- KYC and cards -------------------------------------------------------------------------

export interface KycPlan {
  approve: boolean;
  delay_ms: number;
}

export function planKyc(ctx: DomainContext, state: TenantState, facts: Record<string, unknown> & { email: string }): KycPlan {
  const rule = takeRule(ctx, state, "kyc", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.kyc_approval_seconds);
  if (rule) return { approve: rule.outcome === "approved", delay_ms };
  return { approve: !facts.email.toLowerCase().startsWith("pending+"), delay_ms };
}

/** USD cents of the funding amount that always fails (13.13 USD), as a magic value. */
export const FAILING_CARD_FUND_AMOUNT = 1313;

export function cardFundFails(ctx: DomainContext, state: TenantState, facts: { card_id: number; amount: number }): boolean {
  if (takeRule(ctx, state, "card_fund", { card_id: facts.card_id, amount: facts.amount / 100 })) return true;
  return facts.amount === FAILING_CARD_FUND_AMOUNT;
}
