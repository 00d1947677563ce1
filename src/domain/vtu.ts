/**
 * VTU purchases: the wallet is debited first; the provider then confirms (`success`), confirms later
 * (`processing`) or fails (`fail`, refunded at once by a reversal entry). Each product resolves its
 * price and description here; the outcome comes in (magic values or outcome rules).
 */
import { touch } from "./changes.js";
import { isoTime } from "./fields.js";
import { keptText } from "./kept-text.js";
import { z } from "./zod.js";
import type { ExamPin, VtuPurchase, VtuService } from "./records.js";
import type { TenantState } from "./state.js";
import { byId, type Network } from "./catalog.js";
import { iso, type DomainContext } from "./context.js";
import { DomainError, fieldError } from "./errors.js";
import { post } from "./ledger.js";
import { isUnknownMeterOrCard, planVtu } from "./outcomes.js";
import { cancelTimers, schedule } from "./timers.js";
import { toMajor, toMinor, type Minor } from "./money.js";

export interface PricedPurchase {
  service: VtuService;
  amount: Minor;
  description: string;
  details: Record<string, string | number | null>;
  /** Electricity prepaid tokens and exam pins are issued only on success. */
  issues: "token" | "pins" | null;
  quantity?: number;
}

const NETWORK_LABEL: Record<Network, string> = { mtn: "MTN", glo: "Glo", airtel: "Airtel", "9mobile": "9mobile" };

export function priceAirtime(req: { network: Network; phone: string; amount: Minor; airtime_type: "VTU" | "Sharesell" }): PricedPurchase {
  return {
    service: "airtime",
    amount: req.amount,
    description: keptText`${NETWORK_LABEL[req.network]} ${req.airtime_type} airtime of NGN ${toMajor(req.amount).toFixed(2)} to ${req.phone}`,
    details: { network: req.network, phone: req.phone, airtime_type: req.airtime_type },
    issues: null,
  };
}

export function priceData(ctx: DomainContext, req: { phone: string; data_plan_id: number }): PricedPurchase {
  const plan = byId(ctx.catalog.dataPlans, req.data_plan_id);
  if (!plan) throw fieldError("data_plan_id", "Unknown data plan: use an id from GET /api/v1/vtu/data-plans.");
  return {
    service: "data",
    amount: toMinor(plan.price),
    description: keptText`${plan.name} to ${req.phone}`,
    details: { network: plan.network, phone: req.phone, data_plan_id: plan.id, plan: plan.name },
    issues: null,
  };
}

export function priceCable(ctx: DomainContext, req: { cable_plan_id: number; smart_card_number: string; phone?: string }): PricedPurchase {
  const plan = byId(ctx.catalog.cablePlans, req.cable_plan_id);
  if (!plan) throw fieldError("cable_plan_id", "Unknown cable plan: use an id from GET /api/v1/vtu/cable-plans.");
  if (isUnknownMeterOrCard(req.smart_card_number)) throw fieldError("smart_card_number", `${plan.provider_name} could not find smart card ${req.smart_card_number}.`);
  return {
    service: "cable",
    amount: toMinor(plan.price),
    description: keptText`${plan.name} (${plan.validity}) for smart card ${req.smart_card_number}`,
    details: { provider_name: plan.provider_name, cable_plan_id: plan.id, plan: plan.name, smart_card_number: req.smart_card_number, phone: req.phone ?? null },
    issues: null,
  };
}

export function priceElectricity(
  ctx: DomainContext,
  req: { disco_id: number; meter_number: string; meter_type: "Prepaid" | "Postpaid"; amount: Minor; customer_name?: string; customer_address?: string; customer_phone?: string },
): PricedPurchase {
  const disco = byId(ctx.catalog.discos, req.disco_id);
  if (!disco) throw fieldError("disco_id", "Unknown disco: use an id from GET /api/v1/vtu/discos.");
  if (isUnknownMeterOrCard(req.meter_number)) throw fieldError("meter_number", `${disco.code} could not find meter ${req.meter_number}.`);
  return {
    service: "electricity",
    amount: req.amount,
    description: keptText`${disco.name} ${req.meter_type.toLowerCase()} NGN ${toMajor(req.amount).toFixed(2)} for meter ${req.meter_number}`,
    details: {
      disco_id: disco.id,
      disco: disco.code,
      meter_number: req.meter_number,
      meter_type: req.meter_type,
      customer_name: req.customer_name ?? null,
      customer_address: req.customer_address ?? null,
      customer_phone: req.customer_phone ?? null,
    },
    issues: req.meter_type === "Prepaid" ? "token" : null,
  };
}

export function priceExam(ctx: DomainContext, req: { exam_type_id: number; quantity: number }): PricedPurchase {
  const exam = byId(ctx.catalog.examTypes, req.exam_type_id);
  if (!exam) throw fieldError("exam_type_id", "Unknown exam type: use an id from GET /api/v1/vtu/exam-types.");
  return {
    service: "exam",
    amount: toMinor(exam.selling_price) * req.quantity,
    description: keptText`${req.quantity} x ${exam.name}`,
    details: { exam_type_id: exam.id, exam: exam.code, quantity: req.quantity },
    issues: "pins",
    quantity: req.quantity,
  };
}

const MESSAGES: Record<VtuPurchase["status"], string> = {
  success: "Transaction successful",
  processing: "Transaction is processing; poll the status endpoint for the final outcome.",
  fail: "Transaction failed. Your wallet has been refunded.",
};

/**
 * Debits the wallet, then answers as the plan says: success (token or pins issued), fail (refunded
 * at once, same transaction_id) or processing (settled later by a timer, or held until forced).
 */
export function purchase(ctx: DomainContext, state: TenantState, priced: PricedPurchase): VtuPurchase {
  const reference = uniqueReference(ctx, state);
  const transaction_id = ctx.ids.id("TXN");
  post(state, ctx.now, [{ kind: "vtu_purchase", amount: -priced.amount, transaction_id, description: priced.description }]);
  // Copied key by key: a spread after literal keys is a slow path of V8 on every purchase.
  const facts: Record<string, unknown> = { service: priced.service, amount: toMajor(priced.amount) };
  for (const key in priced.details) facts[key] = (priced.details as Record<string, unknown>)[key];
  const plan = planVtu(ctx, state, facts);
  const record: VtuPurchase = {
    reference,
    transaction_id,
    service: priced.service,
    amount: priced.amount,
    status: "processing",
    message: MESSAGES.processing,
    description: priced.description,
    token: null,
    pins: null,
    details: priced.details,
    issues: priced.issues,
    plan: plan.now === "processing" ? { then: plan.then, delay_ms: plan.delay_ms, queries: plan.queries } : null,
    created_at: ctx.now,
    settled_at: null,
  };
  state.vtu.set(reference, record);
  touch(state, "vtu", reference);
  if (plan.now !== "processing") settle(ctx, state, record, plan.now);
  else if (plan.then !== "hold" && plan.queries === null) schedule(ctx, state, ctx.now + plan.delay_ms, "vtu.settle", reference);
  return record;
}

/** Provider settlement, forced by a control call: processing -> success | fail (refunded). */
export function settleVtuNow(ctx: DomainContext, state: TenantState, reference: string, outcome: "success" | "fail"): VtuPurchase {
  const record = findVtu(state, reference);
  if (record.status !== "processing") {
    throw new DomainError("INVALID_STATE", `VTU purchase ${reference} is ${record.status}; only a processing purchase can be settled.`);
  }
  cancelTimers(state, "vtu.settle", reference);
  return settle(ctx, state, record, outcome);
}

/** The settlement timer: applies the plan if the purchase is still processing. */
export function settleVtuWhenDue(ctx: DomainContext, state: TenantState, reference: string): VtuPurchase | undefined {
  const record = state.vtu.get(reference);
  if (!record || record.status !== "processing" || !record.plan || record.plan.then === "hold") return undefined;
  return settle(ctx, state, record, record.plan.then);
}

/**
 * GET /api/v1/vtu/transaction/status: the purchase, after counting the read when it settles on its
 * Nth status read (plan.queries). The read that brings the count to 0 settles it exactly as the timer
 * would (a refund for `fail`, the token or pins for `success`) and answers with the settled record.
 */
export function readVtuStatus(ctx: DomainContext, state: TenantState, reference: string): { record: VtuPurchase; counted: boolean } {
  const record = findVtu(state, reference);
  const plan = record.plan;
  if (record.status !== "processing" || !plan || plan.then === "hold" || plan.queries === null || plan.queries <= 0) return { record, counted: false };
  plan.queries -= 1;
  touch(state, "vtu", reference);
  if (plan.queries === 0) settle(ctx, state, record, plan.then);
  return { record, counted: true };
}

function settle(ctx: DomainContext, state: TenantState, record: VtuPurchase, outcome: "success" | "fail"): VtuPurchase {
  if (outcome === "fail") {
    post(state, ctx.now, [{ kind: "vtu_refund", amount: record.amount, transaction_id: record.transaction_id, description: keptText`Refund: ${record.description}` }]);
  } else if (record.issues === "token") {
    record.token = meterToken(ctx);
  } else if (record.issues === "pins") {
    record.pins = examPins(ctx, Number(record.details.quantity ?? 1));
  }
  record.status = outcome;
  record.message = MESSAGES[outcome];
  record.settled_at = ctx.now;
  touch(state, "vtu", record.reference);
  return record;
}

function findVtu(state: TenantState, reference: string): VtuPurchase {
  const record = state.vtu.get(reference);
  if (!record) throw new DomainError("NOT_FOUND", `No VTU transaction with reference ${reference}.`);
  return record;
}

function uniqueReference(ctx: DomainContext, state: TenantState): string {
  let reference: string;
  do reference = ctx.ids.id("VTU");
  while (state.vtu.has(reference));
  return reference;
}

/** Prepaid meter tokens are 20 digits, shown in groups of four. */
function meterToken(ctx: DomainContext): string {
  return ctx.ids.digits(20).match(/.{4}/g)!.join("-");
}

function examPins(ctx: DomainContext, quantity: number): ExamPin[] {
  return Array.from({ length: quantity }, () => ({ pin: ctx.ids.digits(12), serial: `SN${ctx.ids.digits(10)}` }));
}

/** The VTU purchase result (top level, no `data` wrapper). `success` is false only for `fail`. */
export function purchaseResultView(p: VtuPurchase) {
  return {
    success: p.status !== "fail",
    status: p.status,
    message: p.message,
    reference: p.reference,
    token: p.token,
    ...(p.pins ? { pins: p.pins } : {}),
    amount: toMajor(p.amount),
    transaction_id: p.transaction_id,
  };
}

const CAPITALISED = { success: "Success", processing: "Processing", fail: "Failed" } as const;

/** The VTU transaction record (top level). */
export function vtuRecordView(p: VtuPurchase) {
  return {
    success: true as const,
    reference: p.reference,
    type: "debit" as const,
    service: p.service,
    status: CAPITALISED[p.status],
    amount: toMajor(p.amount),
    description: p.description,
    date: iso(p.created_at),
    token: p.token,
    ...(p.pins ? { pins: p.pins } : {}),
    transaction_id: p.transaction_id,
  };
}

/** A VTU purchase as the status endpoint shows it (vtuRecordView): the API and the levers answer with it. */
export const VtuTransactionSchema = z
  .object({
    success: z.literal(true),
    reference: z.string(),
    type: z.literal("debit"),
    service: z.enum(["airtime", "data", "cable", "electricity", "exam"]),
    status: z.enum(["Success", "Processing", "Failed"]),
    amount: z.number(),
    description: z.string(),
    date: isoTime,
    token: z.string().nullable(),
    pins: z.array(z.object({ pin: z.string(), serial: z.string() })).optional(),
    transaction_id: z.string(),
  })
  .openapi("VtuTransaction");
