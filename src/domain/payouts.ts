/**
 * Payouts: limits, fee, the debit of amount + fee at once, and the lifecycle
 *   processing -> completed | failed (funds returned)            after the settlement delay
 *   pending_approval -> (approve) processing -> ... | (reject) failed (funds returned)
 * How a payout settles is planned at creation (outcome rules, magic account numbers, default).
 */
import { listEdited, touch } from "./changes.js";
import { keptText } from "./kept-text.js";
import { isoTime } from "./fields.js";
import { z } from "./zod.js";
import type { Payout } from "./records.js";
import type { TenantState } from "./state.js";
import { iso, isoOrNull, type DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { payoutSettled } from "./events.js";
import { post } from "./ledger.js";
import { payoutFee } from "./limits.js";
import { toMajor, type Minor } from "./money.js";
import { assertBankAvailable, assertKnownAccount, assertNameResolves } from "./name-enquiry.js";
import { assertDestinationNames } from "./name-check.js";
import { planPayout } from "./outcomes.js";
import { assertVolume, recordVolume, releaseVolume } from "./volume.js";
import { cancelTimers, schedule } from "./timers.js";

export interface PayoutRequest {
  amount: Minor;
  bank_code: string;
  account_number: string;
  account_name: string;
  bank_name: string;
  reference?: string;
  narration?: string;
  client_ip: string;
}

export function createPayout(ctx: DomainContext, state: TenantState, req: PayoutRequest): Payout {
  const { limits } = ctx.config;
  assertKnownAccount(ctx, req.bank_code, req.account_number);
  assertDestinationNames(ctx, req);
  const existing = req.reference === undefined ? undefined : state.payouts.get(req.reference);
  if (existing) {
    // A client retrying after a lost answer reconciles from this refusal: it carries the payout the reference made.
    throw new DomainError(
      "DUPLICATE_REFERENCE",
      `A payout with reference ${existing.reference} already exists: data is that payout, as GET /api/v1/payout/status shows it.`,
      { data: payoutStatusView(existing) },
    );
  }
  if (req.amount < limits.payout_min) {
    throw new DomainError("AMOUNT_BELOW_MINIMUM", `The minimum payout is NGN ${toMajor(limits.payout_min).toFixed(2)}.`);
  }
  if (req.amount > limits.payout_max) {
    throw new DomainError("AMOUNT_ABOVE_MAXIMUM", `The maximum payout per transaction is NGN ${toMajor(limits.payout_max).toFixed(2)}.`);
  }
  assertVolume(state.windows.payoutVolume, ctx.now, req.amount, limits);
  assertBankAvailable(ctx, state, req.bank_code);
  assertNameResolves(ctx, state, req.bank_code, req.account_number, "transfer");

  const fee = payoutFee(req.amount);
  const reference = req.reference ?? uniqueReference(ctx, state);
  const order_no = ctx.ids.id("PO");
  // Checks the whole batch against the balance before appending: the last refusal that can happen.
  post(state, ctx.now, [
    // No descriptions: the payout gives them when the ledger is read (ledger.ts: describer).
    { kind: "payout", amount: -req.amount, transaction_id: order_no },
    { kind: "payout_fee", amount: -fee, transaction_id: order_no },
  ]);
  // A literal, not a spread of req: a spread followed by a key its source lacks is a slow path of V8.
  const facts = {
    amount: toMajor(req.amount),
    bank_code: req.bank_code,
    account_number: req.account_number,
    account_name: req.account_name,
    bank_name: req.bank_name,
    reference,
    narration: req.narration,
    client_ip: req.client_ip,
  };
  const plan = planPayout(ctx, state, facts);
  // The bank list's own text when the request's is the same: one string for every payout to the bank.
  const listed = ctx.catalog.bankByCode.get(req.bank_code)?.bank_name;
  const payout: Payout = {
    reference,
    order_no,
    amount: req.amount,
    fee,
    total_deducted: req.amount + fee,
    status: req.amount >= limits.payout_review_threshold ? "pending_approval" : "processing",
    bank_code: req.bank_code,
    bank_name: listed === req.bank_name ? listed : req.bank_name,
    account_number: req.account_number,
    account_name: req.account_name,
    narration: req.narration ?? null,
    source: "api",
    client_ip: req.client_ip,
    created_at: ctx.now,
    processed_at: null,
    error: null,
    plan,
  };
  state.payouts.set(reference, payout);
  touch(state, "payouts", reference);
  recordVolume(state.windows.payoutVolume, ctx.now, reference, req.amount);
  if (payout.status === "processing") scheduleSettlement(ctx, state, payout);
  return payout;
}

/** A payout that settles on a status read (plan.queries) has no timer: the read does it. */
function scheduleSettlement(ctx: DomainContext, state: TenantState, payout: Payout): void {
  if (payout.plan.outcome !== "hold" && payout.plan.queries === null) schedule(ctx, state, ctx.now + payout.plan.delay_ms, "payout.settle", payout.reference);
}

function findPayout(state: TenantState, reference: string): Payout {
  const payout = state.payouts.get(reference);
  if (!payout) throw new DomainError("NOT_FOUND", `No payout with reference ${reference}.`);
  return payout;
}

function expectStatus(payout: Payout, wanted: Payout["status"], action: string): void {
  if (payout.status !== wanted) {
    throw new DomainError("INVALID_STATE", `Payout ${payout.reference} is ${payout.status}; only a ${wanted} payout can be ${action}.`);
  }
}

/** Admin approval of a held payout: it is sent, and settles like any other. */
export function approvePayout(ctx: DomainContext, state: TenantState, reference: string): Payout {
  const payout = findPayout(state, reference);
  expectStatus(payout, "pending_approval", "approved");
  payout.status = "processing";
  touch(state, "payouts", reference);
  scheduleSettlement(ctx, state, payout);
  return payout;
}

export function rejectPayout(ctx: DomainContext, state: TenantState, reference: string, reason?: string): Payout {
  const payout = findPayout(state, reference);
  expectStatus(payout, "pending_approval", "rejected");
  return fail(ctx, state, payout, reason ?? "Rejected by an administrator");
}

/** Bank confirmation, forced: processing -> completed. */
export function completePayout(ctx: DomainContext, state: TenantState, reference: string): Payout {
  const payout = findPayout(state, reference);
  expectStatus(payout, "processing", "completed");
  cancelTimers(state, "payout.settle", reference);
  payout.status = "completed";
  payout.processed_at = ctx.now;
  touch(state, "payouts", reference);
  payoutSettled(ctx, state, payout);
  return payout;
}

/** Bank failure, forced: processing -> failed, amount + fee returned. */
export function failPayout(ctx: DomainContext, state: TenantState, reference: string, reason?: string): Payout {
  const payout = findPayout(state, reference);
  expectStatus(payout, "processing", "failed");
  cancelTimers(state, "payout.settle", reference);
  return fail(ctx, state, payout, reason ?? payout.plan.error ?? "Transfer failed at the beneficiary bank");
}

/** The settlement timer: applies the plan if the payout is still processing (a forced call may have won). */
export function settlePayoutWhenDue(ctx: DomainContext, state: TenantState, reference: string): Payout | undefined {
  const payout = state.payouts.get(reference);
  if (!payout || payout.status !== "processing") return undefined;
  if (payout.plan.outcome === "completed") return completePayout(ctx, state, reference);
  if (payout.plan.outcome === "failed") return failPayout(ctx, state, reference);
  return undefined;
}

/**
 * GET /api/v1/payout/status: the payout, after counting the read when the payout settles on its Nth
 * status read (plan.queries). The read that brings the count to 0 settles it exactly as the timer would
 * (ledger reversal, webhook), and answers with the settled record. `counted`: the state changed.
 */
export function readPayoutStatus(ctx: DomainContext, state: TenantState, reference: string): { payout: Payout; counted: boolean } {
  const payout = findPayout(state, reference);
  const { plan } = payout;
  if (payout.status !== "processing" || plan.queries === null || plan.queries <= 0 || plan.outcome === "hold") return { payout, counted: false };
  plan.queries -= 1;
  touch(state, "payouts", reference);
  if (plan.queries === 0) settlePayoutWhenDue(ctx, state, reference);
  return { payout, counted: true };
}

function fail(ctx: DomainContext, state: TenantState, payout: Payout, reason: string): Payout {
  post(state, ctx.now, [
    { kind: "payout_reversal", amount: payout.total_deducted, transaction_id: payout.order_no, description: keptText`Reversal of payout ${payout.reference}: ${reason}` },
  ]);
  payout.status = "failed";
  payout.processed_at = ctx.now;
  payout.error = reason;
  touch(state, "payouts", payout.reference);
  if (releaseVolume(state.windows.payoutVolume, payout.reference)) listEdited(state, "payout_volume_entries");
  payoutSettled(ctx, state, payout);
  return payout;
}

function uniqueReference(ctx: DomainContext, state: TenantState): string {
  let reference: string;
  do reference = ctx.ids.id("PAYOUT");
  while (state.payouts.has(reference));
  return reference;
}

/** The record as the transfer endpoint returns it. */
export function payoutView(p: Payout) {
  return {
    reference: p.reference,
    amount: toMajor(p.amount),
    fee: toMajor(p.fee),
    total_deducted: toMajor(p.total_deducted),
    net_amount: toMajor(p.amount),
    order_no: p.order_no,
    transaction_id: p.order_no,
    status: p.status,
    account: `****${p.account_number.slice(-4)}`,
    account_name: p.account_name,
    bank_name: p.bank_name,
    narration: p.narration,
    created_at: iso(p.created_at),
  };
}

/** The full record of the status endpoint. */
export function payoutStatusView(p: Payout) {
  return { ...payoutView(p), processed_at: isoOrNull(p.processed_at), source: p.source, error: p.error };
}

/** The payout as the API shows it (payoutView), and its full status record (payoutStatusView): the API and the levers answer with these. */
const PayoutFields = z.object({
  reference: z.string(),
  amount: z.number(),
  fee: z.number(),
  total_deducted: z.number(),
  net_amount: z.number(),
  order_no: z.string().openapi({ description: "The service's own unique identifier of the payout" }),
  transaction_id: z.string().openapi({
    description: "Equal to order_no: the identifier every transaction record carries (the spec's transaction_id, \"also returned as order_no\"); the payout webhooks carry it too",
  }),
  status: z.enum(["pending", "pending_approval", "processing", "completed", "failed"]).openapi({
    description: "The spec's payout states. `pending` (created, not yet sent) is the real service's; the sandbox never returns it.",
  }),
  account: z.string().openapi({ description: "**** followed by the last 4 digits" }),
  account_name: z.string(),
  bank_name: z.string(),
  narration: z.string().nullable(),
  created_at: isoTime,
});
export const PayoutSchema = PayoutFields.openapi("Payout");
export const PayoutStatusSchema = PayoutFields.extend({
  processed_at: isoTime.nullable(),
  source: z.string(),
  error: z.string().nullable(),
}).openapi("PayoutStatus");
