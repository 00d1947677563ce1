/**
 * Cards in the control API: approve a held cardholder's KYC (the issuer's review), and spend with a card
 * (the card network's authorisation; the spec has no spend endpoint). Defaults and magic emails the text
 * states are read from the domain; examples are real bodies.
 */
import { z } from "@hono/zod-openapi";
import { CardholderResponse, CardTransactionResponse } from "../../domain/cards.js";
import { amount, text } from "../../domain/fields.js";
import { DEFAULTS } from "../../domain/merchant.js";
import { thousands } from "../../domain/money.js";
import { KYC_MAGIC } from "../../domain/outcomes.js";
import { AT, demoNextId, SAMPLE } from "../../http/demo-examples.js";
import { body, errorExample, examples, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { pathId } from "../../http/schemas.js";
import { controlErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

export const approve = route({
  method: "post",
  path: "/cardholders/{id}/approve",
  operationId: "approveCardholder",
  summary: "Approve a PENDING cardholder's KYC now",
  description: `
Approves a \`PENDING\` cardholder's KYC now (\`PENDING\` -> \`APPROVED\`), as the card issuer's review would, and
cancels its pending automatic approval. Cards can then be issued for it with POST /api/v1/virtual-cards (before,
that gets 422 \`KYC_NOT_APPROVED\`). No webhook is sent. Answers with the cardholder's fields at the top level, as
GET /api/v1/virtual-cards/cardholders/{id} does.

In the sandbox a new cardholder is approved by itself \`delays.kyc_approval_seconds\` (${DEFAULTS.delays.kyc_approval_seconds} by default) of sim time
after creation, except when its email starts with ${Object.keys(KYC_MAGIC).map((p) => `\`${p}\``).join(" or ")} or a \`kyc\` outcome rule says \`pending\`: those stay
\`PENDING\` until this lever approves them. Use it to test the "KYC still pending" path, then the issue that follows.

- \`id\`: the \`cardholder_id\`, a positive integer (else 422 on \`id\`). Unknown: 404 \`NOT_FOUND\`.
- A cardholder that is already \`APPROVED\` gets 409 \`INVALID_STATE\`.

Demo merchant: cardholder 2 (\`${SAMPLE.pendingEmail}\`) is \`PENDING\`, cardholder 1 is \`APPROVED\`.`.trim(),
  request: {
    params: z.object({
      id: examples(pathId, {
        approvePending: { summary: "The demo's PENDING cardholder", value: 2 },
        notFound: { summary: "No such cardholder", value: 99 },
        invalidState: { summary: "A cardholder already APPROVED", value: 1 },
      }),
    }),
  },
  responses: {
    200: json(CardholderResponse, "The cardholder (fields at the top level)", {
      approvePending: {
        summary: "The cardholder, now APPROVED",
        value: { success: true, cardholder_id: 2, full_name: "Kemi Bello", email: SAMPLE.pendingEmail, phone: null, kyc_status: "APPROVED" },
      },
    }),
    ...controlErrors({
      404: { notFound: errorExample("No cardholder with this id", "NOT_FOUND", "No cardholder 99.") },
      409: { invalidState: errorExample("Only a PENDING cardholder can be approved", "INVALID_STATE", "Cardholder 1 is APPROVED; only a PENDING cardholder can be approved.") },
      422: { invalidId: validationError("An id that is not a positive integer", "id", "Must be a positive whole number.") },
    }),
  },
});

const SPEND_AMOUNT = { min: 0.01, max: 100_000, currency: "USD" };
const MERCHANT_NAME_MAX = 100;
/** Who a spend pays when the request names no one. */
export const DEFAULT_SPEND_MERCHANT = "AMAZON MKTPLACE";

const cardTxn = (card_id: number, status: string, balance_after: number, merchant_name: string, decline_reason: string | null) => ({
  success: true,
  data: {
    transaction_id: demoNextId("TXN"),
    card_id,
    type: "spend",
    status,
    amount: 25.5,
    currency: "USD",
    balance_after,
    description: `${merchant_name} purchase`,
    merchant_name,
    decline_reason,
    created_at: AT,
  },
});
const NETFLIX = { amount: 25.5, merchant_name: "NETFLIX.COM" };

export const spend = route({
  method: "post",
  path: "/virtual-cards/{id}/spend",
  operationId: "spendWithCard",
  summary: "A purchase with the card (declined and recorded as such on a frozen, terminated or empty card)",
  description: `
A purchase with a virtual card, as the card network's authorisation would make it (the spec has no spend endpoint:
this lever is how a test makes one). Answers 201 with the card transaction, approved or declined:

- \`success\`: the card is \`active\` and holds the amount, so its balance goes down by \`amount\`. The wallet is not
  touched (the card was funded in advance).
- \`declined\`, with \`decline_reason\` \`Card is frozen\`, \`Card is terminated\` or \`Insufficient card balance\`:
  nothing moves, and the decline is recorded in the card's transactions (GET /api/v1/virtual-cards/{id}/transactions).

- \`id\`: the \`card_id\`, of the calling merchant; else 404 \`NOT_FOUND\`.
- \`amount\`: USD, ${SPEND_AMOUNT.min} to ${thousands(SPEND_AMOUNT.max)}, at most two decimals.
- \`merchant_name\` (optional, 1 to ${MERCHANT_NAME_MAX} characters): who was paid. Default \`${DEFAULT_SPEND_MERCHANT}\`; the transaction's
  description is \`{merchant_name} purchase\`.

No webhook is sent. Demo merchant: card 1 is \`active\` with USD 100, card 2 is \`frozen\`, card 3 is \`active\` and
empty.`.trim(),
  request: {
    params: z.object({
      id: examples(pathId, {
        spend: { summary: "The demo's funded card", value: 1 },
        declinedFrozen: { summary: "The demo's frozen card", value: 2 },
        declinedNoBalance: { summary: "The demo's empty card", value: 3 },
        notFound: { summary: "No such card", value: 99 },
        tooManyDecimals: { summary: "The demo's funded card", value: 1 },
      }),
    }),
    ...body(z.object({ amount: amount(SPEND_AMOUNT), merchant_name: text(MERCHANT_NAME_MAX).optional() }).openapi("CardSpend"), {
      spend: { summary: "USD 25.50 at Netflix", value: NETFLIX },
      declinedFrozen: { summary: "USD 25.50 at Netflix", value: NETFLIX },
      declinedNoBalance: { summary: "USD 25.50 at the default merchant", value: { amount: 25.5 } },
      notFound: { summary: "USD 25.50", value: { amount: 25.5 } },
      tooManyDecimals: { summary: "An amount with three decimals", value: { amount: 25.555 } },
    }),
  },
  responses: {
    201: json(Success({ data: CardTransactionResponse }), "The card transaction (status success or declined)", {
      spend: { summary: "Approved: the card's balance is now USD 74.50", value: cardTxn(1, "success", 74.5, NETFLIX.merchant_name, null) },
      declinedFrozen: { summary: "Declined: the card is frozen", value: cardTxn(2, "declined", 0, NETFLIX.merchant_name, "Card is frozen") },
      declinedNoBalance: { summary: "Declined: the card holds less than the amount", value: cardTxn(3, "declined", 0, DEFAULT_SPEND_MERCHANT, "Insufficient card balance") },
    }),
    ...controlErrors({
      404: { notFound: errorExample("No card with this id", "NOT_FOUND", "No virtual card 99.") },
      422: { tooManyDecimals: validationError("Amounts have at most two decimals", "amount", "Must have at most two decimal places.") },
    }),
  },
});
