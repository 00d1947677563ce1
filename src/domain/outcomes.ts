/**
 * How each state machine ends, decided when its object is created: first the merchant's outcome
 * rules (newest matching rule wins, `times` consumes it), then the magic values of the README's
 * table, then the default (success after the merchant's configured delay).
 */
import { MAX_OUTCOME_RULES } from "./bounds.js";
import { OUTCOMES, type MatchValue, type OutcomeRule, type OutcomeTarget, type PayoutPlan } from "./records.js";
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
}

export function addRule(ctx: DomainContext, state: TenantState, input: RuleInput): OutcomeRule {
  if (state.outcomeRules.length >= MAX_OUTCOME_RULES) {
    throw new DomainError("VALIDATION_ERROR", "The given data was invalid.", {
      errors: { target: [`A merchant holds at most ${MAX_OUTCOME_RULES} outcome rules: delete some first (DELETE /sandbox/v1/outcomes).`] },
    });
  }
  const allowed: readonly string[] = OUTCOMES[input.target];
  if (!allowed.includes(input.outcome)) {
    throw new DomainError("VALIDATION_ERROR", "The given data was invalid.", {
      errors: { outcome: [`For target ${input.target} the outcome must be one of: ${allowed.join(", ")}.`] },
    });
  }
  const rule: OutcomeRule = {
    id: `rule_${++state.sequences.rule}`,
    target: input.target,
    match: input.match && Object.keys(input.match).length > 0 ? input.match : null,
    outcome: input.outcome,
    delay_seconds: input.delay_seconds ?? null,
    times: input.times ?? null,
    created_at: ctx.now,
  };
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

/** Values compare as text, case-insensitively, so `{ amount: 5000 }` matches "5000" and `{ network: "MTN" }` matches "mtn". */
function matches(rule: OutcomeRule, facts: Record<string, unknown>): boolean {
  if (!rule.match) return true;
  return Object.entries(rule.match).every(([key, want]) => {
    const have = facts[key];
    return have !== undefined && have !== null && String(have).toLowerCase() === String(want).toLowerCase();
  });
}

/** Finds the newest rule for `target` matching `facts` and consumes one use of it. */
export function takeRule(state: TenantState, target: OutcomeTarget, facts: Record<string, unknown>): OutcomeRule | undefined {
  const rules = state.outcomeRules;
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.target !== target || !matches(rule, facts)) continue;
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

// ---- Payouts -------------------------------------------------------------------------------

export type { PayoutPlan } from "./records.js";

export const PAYOUT_MAGIC: Record<string, Omit<PayoutPlan, "delay_ms">> = {
  "0000": { outcome: "failed", error: "Beneficiary account not found" },
  "0001": { outcome: "failed", error: "Transfer failed at the beneficiary bank" },
  "0002": { outcome: "hold", error: null },
};

/** Magic suffixes are documented test accounts, so they skip the NUBAN check-digit test. */
export const isMagicAccount = (accountNumber: string) => accountNumber.slice(-4) in PAYOUT_MAGIC;

export function planPayout(ctx: DomainContext, state: TenantState, facts: Record<string, unknown> & { account_number: string }): PayoutPlan {
  const rule = takeRule(state, "payout", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.payout_settlement_seconds);
  if (rule) {
    if (rule.outcome === "failed") return { outcome: "failed", delay_ms, error: "Transfer failed at the beneficiary bank" };
    return { outcome: rule.outcome === "processing" ? "hold" : "completed", delay_ms, error: null };
  }
  const magic = PAYOUT_MAGIC[facts.account_number.slice(-4)];
  return magic ? { ...magic, delay_ms } : { outcome: "completed", delay_ms, error: null };
}

/** The magic account numbers name enquiry never resolves (ending 0000). */
export const accountNeverResolves = (accountNumber: string) => accountNumber.endsWith("0000");

/** Name enquiry: a rule `not_found`, or an account number ending 0000, does not resolve. */
export function accountResolves(state: TenantState, facts: { bank_code: string; account_number: string }): boolean {
  if (takeRule(state, "verify_account", facts)) return false;
  return !accountNeverResolves(facts.account_number);
}

// ---- VTU -----------------------------------------------------------------------------------

export interface VtuPlan {
  /** What the purchase answers with. */
  now: "success" | "processing" | "fail";
  /** For `processing`: how it settles (`hold` = until forced). */
  then: "success" | "fail" | "hold";
  delay_ms: number;
}

const VTU_RULE_PLANS: Record<string, Pick<VtuPlan, "now" | "then">> = {
  success: { now: "success", then: "success" },
  fail: { now: "fail", then: "fail" },
  processing_success: { now: "processing", then: "success" },
  processing_fail: { now: "processing", then: "fail" },
  processing: { now: "processing", then: "hold" },
};

/** The digit that forces a VTU outcome, in a magic phone (0801111111 1 style) or an all-same-digit meter or smart card. */
const VTU_MAGIC_DIGIT: Record<string, keyof typeof VTU_RULE_PLANS> = {
  "1": "success",
  "2": "processing_success",
  "3": "processing_fail",
  "4": "fail",
  "5": "processing",
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
  const rule = takeRule(state, "vtu", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.vtu_settlement_seconds);
  const key = rule?.outcome ?? VTU_MAGIC_DIGIT[magicDigit(facts) ?? ""] ?? "success";
  return { ...VTU_RULE_PLANS[key]!, delay_ms };
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
  const rule = takeRule(state, "kyc", facts);
  const delay_ms = delayOf(rule, ctx.config.delays.kyc_approval_seconds);
  if (rule) return { approve: rule.outcome === "approved", delay_ms };
  return { approve: !facts.email.toLowerCase().startsWith("pending+"), delay_ms };
}

/** USD cents of the funding amount that always fails (13.13 USD), as a magic value. */
export const FAILING_CARD_FUND_AMOUNT = 1313;

export function cardFundFails(state: TenantState, facts: { card_id: number; amount: number }): boolean {
  if (takeRule(state, "card_fund", { card_id: facts.card_id, amount: facts.amount / 100 })) return true;
  return facts.amount === FAILING_CARD_FUND_AMOUNT;
}
