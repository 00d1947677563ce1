/**
 * Virtual USD cards: cardholders (idempotent by email, KYC PENDING -> APPROVED), cards with
 * Luhn-valid PANs, funding from the NGN wallet at the merchant's rate plus its funding fee, unloads
 * back, freeze/unfreeze, and permanent termination (any balance goes back to the wallet).
 */
import { touch } from "./changes.js";
import { keptText } from "./kept-text.js";
import type { Card, CardStatus, CardTransaction, Cardholder } from "./records.js";
import type { TenantState } from "./state.js";
import { iso, type DomainContext } from "./context.js";
import { MAX_BALANCE_MINOR, RATE_DECIMALS } from "./bounds.js";
import { DomainError } from "./errors.js";
import { post, type Posting } from "./ledger.js";
import { thousands, toMajor, type Minor } from "./money.js";
import { cardFundFails, planKyc } from "./outcomes.js";
import { makePan, maskPan, type CardBrand } from "./pan.js";
import { cancelTimers, schedule } from "./timers.js";
import { z } from "./zod.js";
import { isoTime } from "./fields.js";

/** What a request may carry (the sandbox's choice; the spec gives no bounds): names, a card's label, and USD per funding or unload. */
export const CARDHOLDER_NAME_MAX = 100;
export const CARD_LABEL_MAX = 50;
export const CARD_AMOUNT_USD = { min: 1, max: 10_000 } as const;

/** A card is valid for this many years from its issue. */
export const CARD_VALIDITY_YEARS = 3;

export interface CardholderRequest {
  first_name: string;
  last_name: string;
  email: string;
  phone?: string;
}

/** Repeating an email returns the existing cardholder (emails compared case-insensitively). */
export function createCardholder(ctx: DomainContext, state: TenantState, req: CardholderRequest): { cardholder: Cardholder; created: boolean } {
  const key = req.email.toLowerCase();
  const existingId = state.cardholdersByEmail.get(key);
  if (existingId !== undefined) return { cardholder: state.cardholders.get(existingId)!, created: false };
  const cardholder: Cardholder = {
    cardholder_id: ++state.sequences.cardholder,
    first_name: req.first_name,
    last_name: req.last_name,
    full_name: `${req.first_name} ${req.last_name}`,
    email: req.email,
    phone: req.phone ?? null,
    kyc_status: "PENDING",
    created_at: ctx.now,
  };
  state.cardholders.set(cardholder.cardholder_id, cardholder);
  touch(state, "cardholders", cardholder.cardholder_id);
  state.cardholdersByEmail.set(key, cardholder.cardholder_id);
  const kyc = planKyc(ctx, state, { ...req });
  if (kyc.approve) schedule(ctx, state, ctx.now + kyc.delay_ms, "kyc.approve", String(cardholder.cardholder_id));
  return { cardholder, created: true };
}

export function findCardholder(state: TenantState, id: number): Cardholder {
  const cardholder = state.cardholders.get(id);
  if (!cardholder) throw new DomainError("NOT_FOUND", `No cardholder ${id}.`);
  return cardholder;
}

/** KYC approval, forced by a control call: PENDING -> APPROVED. */
export function approveKyc(state: TenantState, id: number): Cardholder {
  const cardholder = findCardholder(state, id);
  if (cardholder.kyc_status !== "PENDING") {
    throw new DomainError("INVALID_STATE", `Cardholder ${id} is ${cardholder.kyc_status}; only a PENDING cardholder can be approved.`);
  }
  cancelTimers(state, "kyc.approve", String(id));
  cardholder.kyc_status = "APPROVED";
  touch(state, "cardholders", id);
  return cardholder;
}

/** The KYC timer: approves if still pending. */
export function approveKycWhenDue(state: TenantState, id: number): Cardholder | undefined {
  const cardholder = state.cardholders.get(id);
  if (!cardholder || cardholder.kyc_status !== "PENDING") return undefined;
  cardholder.kyc_status = "APPROVED";
  touch(state, "cardholders", id);
  return cardholder;
}

export function issueCard(ctx: DomainContext, state: TenantState, req: { cardholder_id: number; brand: CardBrand; label?: string }): Card {
  const cardholder = findCardholder(state, req.cardholder_id);
  if (cardholder.kyc_status !== "APPROVED") {
    throw new DomainError("KYC_NOT_APPROVED", `Cardholder ${cardholder.cardholder_id} has kyc_status ${cardholder.kyc_status}; a card can be issued only once it is APPROVED.`);
  }
  const pan = makePan(req.brand, ctx.ids.digits(15), ctx.ids.int(5));
  const issued = new Date(ctx.now);
  const card: Card = {
    card_id: ++state.sequences.card,
    cardholder_id: cardholder.cardholder_id,
    brand: req.brand,
    pan,
    masked_pan: maskPan(pan),
    expiry_month: issued.getUTCMonth() + 1,
    expiry_year: issued.getUTCFullYear() + CARD_VALIDITY_YEARS,
    currency: "USD",
    balance: 0,
    status: "active",
    label: req.label ?? null,
    created_at: ctx.now,
  };
  state.cards.set(card.card_id, card);
  touch(state, "cards", card.card_id);
  state.cardTransactions.set(card.card_id, []);
  return card;
}

export function findCard(state: TenantState, id: number): Card {
  const card = state.cards.get(id);
  if (!card) throw new DomainError("NOT_FOUND", `No virtual card ${id}.`);
  return card;
}

function assertNotTerminated(card: Card, action: string): void {
  if (card.status === "terminated") {
    throw new DomainError("INVALID_STATE", `Card ${card.card_id} is terminated; it cannot be ${action}. Termination is permanent.`);
  }
}

/**
 * Naira (kobo) for a USD amount (cents) at the merchant's rate (1 cent x rate = rate kobo), exactly:
 * the rate has at most RATE_DECIMALS decimals, so the product is computed in integers. What the
 * wallet pays rounds up and what it gets back rounds down, so no round trip of fundings and unloads
 * ever creates a kobo (rounding each to the nearest did: 100000 came back as 100000.17).
 */
export function usdToKobo(ctx: DomainContext, cents: Minor, direction: "charge" | "credit"): Minor {
  const scale = 10n ** BigInt(RATE_DECIMALS);
  const rate = BigInt(Math.round(ctx.config.usd_ngn_rate * 10 ** RATE_DECIMALS));
  const product = BigInt(cents) * rate;
  const whole = product / scale;
  return Number(direction === "charge" && product % scale !== 0n ? whole + 1n : whole);
}

export function fundCard(ctx: DomainContext, state: TenantState, id: number, amount: Minor) {
  const card = findCard(state, id);
  assertNotTerminated(card, "funded");
  if (cardFundFails(ctx, state, { card_id: id, amount })) {
    throw new DomainError("CARD_FUNDING_FAILED", `The card issuer declined funding card ${id}; nothing was charged.`);
  }
  const fee = ctx.config.card_funding_fee;
  const transaction_id = ctx.ids.id("TXN");
  const postings: Posting[] = [
    { kind: "card_funding", amount: -usdToKobo(ctx, amount, "charge"), transaction_id, description: keptText`Card ${card.card_id} funding USD ${toMajor(amount).toFixed(2)} at ${ctx.config.usd_ngn_rate}` },
  ];
  if (fee > 0) postings.push({ kind: "card_funding_fee", amount: -usdToKobo(ctx, fee, "charge"), transaction_id, description: keptText`Card ${card.card_id} funding fee USD ${toMajor(fee).toFixed(2)}` });
  if (card.balance + amount > MAX_BALANCE_MINOR) {
    throw new DomainError("BALANCE_LIMIT_EXCEEDED", `Card ${card.card_id} would hold more than the sandbox's ceiling of USD ${thousands(toMajor(MAX_BALANCE_MINOR))}; nothing was charged.`);
  }
  post(state, ctx.now, postings);
  card.balance += amount;
  const txn = recordCardTransaction(ctx, state, card, { transaction_id, type: "funding", amount, description: "Card funding" });
  return { card, txn, fee, walletAmount: -postings.reduce((s, p) => s + p.amount, 0) };
}

export type FundsMoved = ReturnType<typeof fundCard>;

export function unloadCard(ctx: DomainContext, state: TenantState, id: number, amount: Minor) {
  const card = findCard(state, id);
  assertNotTerminated(card, "unloaded");
  if (amount > card.balance) {
    throw new DomainError("INSUFFICIENT_CARD_BALANCE", `Card ${card.card_id} holds USD ${toMajor(card.balance).toFixed(2)}; cannot unload USD ${toMajor(amount).toFixed(2)}.`);
  }
  return moveToWallet(ctx, state, card, amount, "Card unload");
}

/** Freeze and unfreeze; anything else from the current state is an INVALID_STATE refusal. */
export function setCardStatus(state: TenantState, id: number, action: "freeze" | "unfreeze"): Card {
  const card = findCard(state, id);
  assertNotTerminated(card, action === "freeze" ? "frozen" : "unfrozen");
  const [from, to]: [CardStatus, CardStatus] = action === "freeze" ? ["active", "frozen"] : ["frozen", "active"];
  if (card.status !== from) {
    throw new DomainError("INVALID_STATE", `Card ${card.card_id} is ${card.status}; only ${from === "active" ? "an" : "a"} ${from} card can be ${action === "freeze" ? "frozen" : "unfrozen"}.`);
  }
  card.status = to;
  touch(state, "cards", card.card_id);
  return card;
}

/** Permanent. A remaining balance is unloaded to the wallet first, so no money is stranded. */
export function terminateCard(ctx: DomainContext, state: TenantState, id: number) {
  const card = findCard(state, id);
  assertNotTerminated(card, "terminated again");
  const refunded = card.balance;
  if (refunded > 0) moveToWallet(ctx, state, card, refunded, "Balance returned on termination");
  card.status = "terminated";
  touch(state, "cards", card.card_id);
  return { card, refunded };
}

function moveToWallet(ctx: DomainContext, state: TenantState, card: Card, amount: Minor, description: string) {
  const transaction_id = ctx.ids.id("TXN");
  const credited = usdToKobo(ctx, amount, "credit");
  post(state, ctx.now, [{ kind: "card_unload", amount: credited, transaction_id, description: keptText`${description}: card ${card.card_id} USD ${toMajor(amount).toFixed(2)}` }]);
  card.balance -= amount;
  const txn = recordCardTransaction(ctx, state, card, { transaction_id, type: "unload", amount, description });
  return { card, txn, fee: 0, walletAmount: credited };
}

/**
 * A purchase with the card at some online merchant. An active card with enough balance pays; a frozen
 * or terminated card, or one without the balance, declines, and the decline is recorded too.
 */
export function spendCard(ctx: DomainContext, state: TenantState, id: number, amount: Minor, merchantName: string): CardTransaction {
  const card = findCard(state, id);
  const decline_reason =
    card.status !== "active" ? `Card is ${card.status}` : amount > card.balance ? "Insufficient card balance" : null;
  if (!decline_reason) card.balance -= amount;
  return recordCardTransaction(ctx, state, card, {
    transaction_id: ctx.ids.id("TXN"),
    type: "spend",
    amount,
    description: keptText`${merchantName} purchase`,
    merchant_name: merchantName,
    status: decline_reason ? "declined" : "success",
    decline_reason,
  });
}

/** Fund and unload answer alike: what moved on the card, and what it cost or returned in Naira. */
export function fundsMovedView(ctx: DomainContext, moved: FundsMoved, message: string) {
  return {
    success: true as const,
    message,
    card_id: moved.card.card_id,
    transaction_id: moved.txn.transaction_id,
    amount: toMajor(moved.txn.amount),
    fee: toMajor(moved.fee),
    currency: "USD" as const,
    balance: toMajor(moved.card.balance),
    exchange_rate: ctx.config.usd_ngn_rate,
    wallet_amount: toMajor(moved.walletAmount),
  };
}

function recordCardTransaction(
  ctx: DomainContext,
  state: TenantState,
  card: Card,
  t: Pick<CardTransaction, "transaction_id" | "type" | "amount" | "description"> & Partial<Pick<CardTransaction, "status" | "merchant_name" | "decline_reason">>,
): CardTransaction {
  const txn: CardTransaction = {
    status: "success",
    merchant_name: null,
    decline_reason: null,
    ...t,
    card_id: card.card_id,
    balance_after: card.balance,
    created_at: ctx.now,
  };
  state.cardTransactions.get(card.card_id)!.push(txn);
  // Every balance change records a transaction: marking the card here covers both.
  touch(state, "cards", card.card_id);
  return txn;
}

export function cardholderView(h: Cardholder) {
  return { cardholder_id: h.cardholder_id, full_name: h.full_name, email: h.email, phone: h.phone, kyc_status: h.kyc_status };
}

export function cardView(c: Card) {
  return {
    card_id: c.card_id,
    cardholder_id: c.cardholder_id,
    brand: c.brand,
    label: c.label,
    masked_pan: c.masked_pan,
    expiry_month: c.expiry_month,
    expiry_year: c.expiry_year,
    currency: c.currency,
    balance: toMajor(c.balance),
    status: c.status,
    created_at: iso(c.created_at),
  };
}

export function cardTransactionView(t: CardTransaction) {
  return {
    transaction_id: t.transaction_id,
    card_id: t.card_id,
    type: t.type,
    status: t.status,
    amount: toMajor(t.amount),
    currency: "USD" as const,
    balance_after: toMajor(t.balance_after),
    description: t.description,
    merchant_name: t.merchant_name,
    decline_reason: t.decline_reason,
    created_at: iso(t.created_at),
  };
}

/** The cardholder as the API and the control API answer with it (top level, cardholderView). */
export const CardholderResponse = z
  .object({
    success: z.literal(true),
    cardholder_id: z.number().int(),
    full_name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    kyc_status: z.enum(["PENDING", "APPROVED"]),
  })
  .openapi("Cardholder");

/** A card transaction as the API and the control API answer with it (cardTransactionView). */
export const CardTransactionResponse = z
  .object({
    transaction_id: z.string(),
    card_id: z.number().int(),
    type: z.enum(["funding", "unload", "spend"]),
    status: z.enum(["success", "declined"]),
    amount: z.number(),
    currency: z.literal("USD"),
    balance_after: z.number(),
    description: z.string(),
    merchant_name: z.string().nullable(),
    decline_reason: z.string().nullable(),
    created_at: isoTime,
  })
  .openapi("CardTransaction");
