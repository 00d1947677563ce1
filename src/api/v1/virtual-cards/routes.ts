/**
 * The virtual cards' contract: each operation whole, as the OpenAPI document publishes it. Bounds,
 * the fee, the rate, the KYC delay and the magic values are read from the domain (cards.ts,
 * merchant.ts, outcomes.ts). Each named request example, sent to a fresh demo merchant, gets the
 * response of the same name: cardholders 1 (APPROVED) and 2 (PENDING), cards 1 (active, USD 100),
 * 2 (frozen) and 3 (active, empty).
 */
import { pageInfo } from "../../../domain/lists.js";
import { inWords } from "../../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { CARD_AMOUNT_USD, CARD_LABEL_MAX, CARD_VALIDITY_YEARS, CARDHOLDER_NAME_MAX, CardholderResponse, CardTransactionResponse } from "../../../domain/cards.js";
import { email, phone, text } from "../../../domain/fields.js";
import { DEFAULTS } from "../../../domain/merchant.js";
import { thousands, toMajor } from "../../../domain/money.js";
import { CARD_FUND_MAGIC, KYC_MAGIC } from "../../../domain/outcomes.js";
import { AT, DEMO_BALANCE, demoNextId, SAMPLE } from "../../../http/demo-examples.js";
import { afterCommitErrors, body, errorExample, errors, invalidExample, json, withDefault, type Examples } from "../../../http/openapi.js";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, Pagination } from "../../../http/paging.js";
import { requireCapability } from "../../../http/capability.js";
import { routes, Success } from "../../../http/route.js";
import { Card, CardResponse, idParam, Moved, paging, StatusChanged, UsdAmount } from "./schemas.js";

const route = routes({ tags: ["Virtual cards"], middleware: [requireCapability("virtual_cards")] });

/** What the card operations answer with. */
export const MESSAGES = {
  funded: "Card funded successfully",
  unloaded: "Card unloaded successfully",
  frozen: "Card frozen successfully",
  unfrozen: "Card unfrozen successfully",
  terminated: "Card terminated successfully",
} as const;

// ---- Prose and examples shared by the operations ----------------------------------------------------

const { card_funding_fee_usd: FEE, usd_ngn_rate: RATE } = DEFAULTS;

const USD_AMOUNT = `\`amount\` is in US dollars, ${thousands(CARD_AMOUNT_USD.min)} to ${thousands(CARD_AMOUNT_USD.max)}, at most two decimals.`;

const TERMINATED = "A terminated card gets 409 `INVALID_STATE` (termination is permanent).";

const PAGING = `Query \`page\` (from 1, default 1) and \`per_page\` (1 to ${MAX_PER_PAGE}, default ${DEFAULT_PER_PAGE}); a page past the end is empty but still reports the totals in \`pagination\`.`;

/** A funding or unload has no client reference: after an unclear answer, the card's own history says whether it happened. */
const UNCLEAR_ANSWER = (what: "funding" | "unload") => `**When the answer goes wrong.** The ${what} can be made and still reach you as no answer (a reset
connection, a client time-out) or as a 500 or 504. Do not send it again blindly: read the card's transactions
(\`GET /api/v1/virtual-cards/{id}/transactions\`, newest first) and its \`balance\`; send it again only if the ${what} is not there.`;

const SANDBOX_ANSWER_FAULTS = (operation: string) =>
  `An outcome rule with target \`response\` (\`match: { operation: ${operation} }\`) makes the next answer after the change is made a reset connection, a late answer, a 500 or a 504.`;

/** The magic emails and funding amounts (domain/outcomes.ts), and the first of each for the examples. */
const KYC_MAGIC_TEXT = Object.entries(KYC_MAGIC)
  .map(([prefix, m]) => `starting with \`${prefix}\` ${m.description}`)
  .join(", or ");
const FUND_MAGIC_TEXT = Object.entries(CARD_FUND_MAGIC)
  .map(([cents, m]) => `an \`amount\` of exactly \`${toMajor(Number(cents))}\` is ${m.description}`)
  .join(", ");
const [PENDING_PREFIX, PENDING] = Object.entries(KYC_MAGIC)[0]!;
const [DECLINED_CENTS, DECLINED] = Object.entries(CARD_FUND_MAGIC)[0]!;
const DECLINED_USD = toMajor(Number(DECLINED_CENTS));

const SERVICE_NOT_ENABLED: Examples = {
  serviceNotEnabled: errorExample("Virtual cards are not enabled on the merchant's account", "SERVICE_NOT_ENABLED", "The virtual cards service is not enabled on this account."),
  ipNotWhitelisted: errorExample("The merchant has an IP allowlist without this address", "IP_NOT_WHITELISTED", "Requests from 203.0.113.7 are not allowed for this account."),
};
const badId = invalidExample("The id is not a positive integer", { id: ["Must be a positive whole number."] });
const terminated = (action: string) => errorExample("The card is terminated", "INVALID_STATE", `Card 3 is terminated; it cannot be ${action}. Termination is permanent.`);
const noCardholder = { notFound: errorExample("No cardholder of this merchant has this id", "NOT_FOUND", "No cardholder 99.") };

/** The errors of an operation on one card: the service off, an unknown card, a bad id, then its own. */
const cardErrors = (own: Parameters<typeof errors>[0] = {}) =>
  errors({
    403: SERVICE_NOT_ENABLED,
    404: { notFound: errorExample("No card of this merchant has this id", "NOT_FOUND", "No virtual card 999.") },
    422: { validationError: badId },
    ...own,
  });

/** A card id a named request uses; 999 is no card's. */
const cardId = (value: number, summary = `Card ${value}`) => ({ summary, value });
const NO_CARD = cardId(999, "An id no card of this merchant has");

/** A card as issue, get and list show it: the demo merchant's card 1 unless told otherwise. */
const card = (over: Partial<Record<string, unknown>> = {}) => ({
  card_id: 1,
  cardholder_id: 1,
  brand: "VISA",
  label: SAMPLE.cardLabels[0],
  masked_pan: "4322 48** **** 2336",
  expiry_month: new Date(AT).getUTCMonth() + 1,
  expiry_year: new Date(AT).getUTCFullYear() + CARD_VALIDITY_YEARS,
  currency: "USD",
  balance: 100,
  status: "active",
  created_at: AT,
  ...over,
});

const pagination = (total: number) => pageInfo(total, 1, DEFAULT_PER_PAGE);

/** Fund and unload answer alike (the demo merchant's card 1, at the default rate). */
const moved = (message: string, over: Record<string, unknown>) => ({
  success: true,
  message,
  card_id: 1,
  transaction_id: demoNextId("TXN"),
  currency: "USD",
  exchange_rate: RATE,
  ...over,
});

/** A card transaction as its history shows it. */
const transaction = (over: Record<string, unknown>) => ({
  transaction_id: "TXN_IEFKR5ZGCF1RYSW5",
  card_id: 1,
  type: "funding",
  status: "success",
  amount: 100,
  currency: "USD",
  balance_after: 100,
  description: "Card funding",
  merchant_name: null,
  decline_reason: null,
  created_at: AT,
  ...over,
});
const netflix = (over: Record<string, unknown>) =>
  transaction({ type: "spend", amount: 12.99, balance_after: 87.01, description: "Netflix purchase", merchant_name: "Netflix", ...over });

// ---- Cardholders ------------------------------------------------------------------------------------

export const createHolder = route({
  method: "post",
  path: "/cardholders",
  operationId: "createCardholder",
  summary: "Register a cardholder (repeating an email returns the same cardholder)",
  description: `Registers the person a card is issued to. \`first_name\` and \`last_name\` (1 to ${CARDHOLDER_NAME_MAX} characters) and \`email\` are required; \`phone\` (a Nigerian mobile number such as \`08031234567\`) is optional.

The email identifies the cardholder: sending an email this merchant already registered (compared case-insensitively) returns the
existing cardholder as it is (200), whatever the other fields say. No duplicate is created.

A new cardholder starts with \`kyc_status\` \`PENDING\`. Poll \`GET /api/v1/virtual-cards/cardholders/{id}\` until it is \`APPROVED\`
before issuing a card: issuing for a \`PENDING\` cardholder gets 422 \`KYC_NOT_APPROVED\`.

**In the sandbox**, KYC is approved after the merchant's KYC delay (\`delays.kyc_approval_seconds\`, ${DEFAULTS.delays.kyc_approval_seconds} s by default). An email
${KYC_MAGIC_TEXT}: approve it with \`POST /sandbox/v1/cardholders/{id}/approve\`. An outcome rule
(\`POST /sandbox/v1/outcomes\`, target \`kyc\`) takes precedence.`,
  request: body(
    z.object({ first_name: text(CARDHOLDER_NAME_MAX), last_name: text(CARDHOLDER_NAME_MAX), email, phone: phone.optional() }).openapi("CreateCardholder"),
    {
      newCardholder: {
        summary: "A new cardholder (KYC starts PENDING)",
        value: { first_name: "Tunde", last_name: "Bakare", email: "tunde.bakare@example.com", phone: "08031234567" },
      },
      sameEmail: {
        summary: "An email already registered (any letter case): the existing cardholder comes back",
        value: { first_name: "Ada", last_name: "Obi", email: SAMPLE.email.toUpperCase() },
      },
      kycStaysPending: {
        summary: `In the sandbox: an email starting ${PENDING_PREFIX} ${PENDING.description}`,
        value: { first_name: "Bola", last_name: "Ahmed", email: `${PENDING_PREFIX}bola@example.com` },
      },
    },
  ),
  responses: {
    200: json(CardholderResponse, "The cardholder", {
      newCardholder: {
        summary: "Created, KYC pending",
        value: { success: true, cardholder_id: 3, full_name: "Tunde Bakare", email: "tunde.bakare@example.com", phone: "08031234567", kyc_status: "PENDING" },
      },
      sameEmail: {
        summary: "The existing cardholder, as it is",
        value: { success: true, cardholder_id: 1, full_name: "Ada Obi", email: SAMPLE.email, phone: "08031234567", kyc_status: "APPROVED" },
      },
      kycStaysPending: {
        summary: "Created, KYC pending until approved with the lever",
        value: { success: true, cardholder_id: 3, full_name: "Bola Ahmed", email: `${PENDING_PREFIX}bola@example.com`, phone: null, kyc_status: "PENDING" },
      },
    }),
    ...errors({
      403: SERVICE_NOT_ENABLED,
      422: { validationError: invalidExample("A field breaks its rule (every field is reported)", { email: ["Must be a valid email address."] }) },
    }),
  },
});

export const getHolder = route({
  method: "get",
  path: "/cardholders/{id}",
  operationId: "getCardholder",
  summary: "Get a cardholder (poll until kyc_status is APPROVED)",
  description: `A cardholder of this merchant, by \`cardholder_id\` (integers counted per merchant from 1). Poll it until \`kyc_status\` is \`APPROVED\`:
only then can a card be issued. An unknown id gets 404 \`NOT_FOUND\`.`,
  request: {
    params: idParam({
      approved: { summary: "The demo merchant's approved cardholder", value: 1 },
      pending: { summary: "The demo merchant's cardholder whose KYC stays pending", value: 2 },
      notFound: { summary: "An id no cardholder of this merchant has", value: 99 },
    }),
  },
  responses: {
    200: json(CardholderResponse, "The cardholder", {
      approved: {
        summary: "KYC approved: cards can be issued",
        value: { success: true, cardholder_id: 1, full_name: "Ada Obi", email: SAMPLE.email, phone: "08031234567", kyc_status: "APPROVED" },
      },
      pending: {
        summary: "KYC pending: keep polling",
        value: { success: true, cardholder_id: 2, full_name: "Kemi Bello", email: SAMPLE.pendingEmail, phone: null, kyc_status: "PENDING" },
      },
    }),
    ...errors({ 403: SERVICE_NOT_ENABLED, 404: noCardholder, 422: { validationError: badId } }),
  },
});

// ---- Cards ------------------------------------------------------------------------------------------

export const issue = route({
  method: "post",
  path: "/",
  operationId: "createVirtualCard",
  summary: "Issue a virtual card to an APPROVED cardholder",
  description: `Issues a virtual USD card to a cardholder of this merchant.

- \`cardholder_id\`: the cardholder must have \`kyc_status\` \`APPROVED\`, or the request gets 422 \`KYC_NOT_APPROVED\`
  (poll \`GET /api/v1/virtual-cards/cardholders/{id}\` first). An unknown cardholder gets 404 \`NOT_FOUND\`.
- \`brand\`: \`VISA\` (default) or \`MASTERCARD\`.
- \`label\` (optional): a nickname, at most ${CARD_LABEL_MAX} characters.

The new card is \`active\` with a \`balance\` of 0 USD: fund it with \`POST /api/v1/virtual-cards/{id}/fund\`. Issuing costs nothing.
The card number is shown masked (\`masked_pan\`); the card expires ${inWords(CARD_VALIDITY_YEARS)} years after issue. \`card_id\`s are integers counted per merchant from 1.`,
  request: body(
    z
      .object({
        cardholder_id: z.number().int().positive(),
        brand: withDefault(z.enum(["VISA", "MASTERCARD"], { message: "Must be VISA or MASTERCARD." }), "VISA"),
        label: text(CARD_LABEL_MAX).optional(),
      })
      .openapi("IssueCard"),
    {
      issue: { summary: "A VISA card for the approved cardholder 1", value: { cardholder_id: 1, brand: "VISA", label: "Marketing" } },
      kycNotApproved: { summary: "Cardholder 2's KYC is still PENDING", value: { cardholder_id: 2, brand: "MASTERCARD" } },
      notFound: { summary: "A cardholder_id no cardholder of this merchant has", value: { cardholder_id: 99 } },
    },
  ),
  responses: {
    200: json(CardResponse, "The new card", {
      issue: { summary: "Issued: active, empty", value: { success: true, ...card({ card_id: 4, label: "Marketing", masked_pan: "4065 07** **** 4654", balance: 0 }) } },
    }),
    ...errors({
      403: SERVICE_NOT_ENABLED,
      404: noCardholder,
      422: {
        kycNotApproved: errorExample(
          "The cardholder's KYC is not APPROVED",
          "KYC_NOT_APPROVED",
          "Cardholder 2 has kyc_status PENDING; a card can be issued only once it is APPROVED.",
        ),
        validationError: invalidExample("A field breaks its rule (every field is reported)", { brand: ["Must be VISA or MASTERCARD."] }),
      },
    }),
  },
});

export const list = route({
  method: "get",
  path: "/",
  operationId: "listVirtualCards",
  summary: "List cards",
  description: `The merchant's cards, in the order they were issued, terminated ones included, each with its \`balance\` (USD) and \`status\`
(\`active\`, \`frozen\` or \`terminated\`). ${PAGING}`,
  request: { query: paging },
  responses: {
    200: json(Success({ data: z.array(Card), pagination: Pagination }), "A page of cards", {
      cards: {
        summary: "The first page",
        value: {
          success: true,
          data: [
            card(),
            card({ card_id: 2, brand: "MASTERCARD", label: SAMPLE.cardLabels[1], masked_pan: "5552 65** **** 9507", balance: 0, status: "frozen" }),
            card({ card_id: 3, label: SAMPLE.cardLabels[2], masked_pan: "4059 42** **** 9252", balance: 0 }),
          ],
          pagination: pagination(3),
        },
      },
    }),
    ...errors({
      403: SERVICE_NOT_ENABLED,
      422: { validationError: invalidExample("A paging parameter out of range", { page: ["Must be a whole number from 1 to 1000000."] }) },
    }),
  },
});

export const getOne = route({
  method: "get",
  path: "/{id}",
  operationId: "getVirtualCard",
  summary: "Get a card with its balance",
  description: "One card with its `balance` (USD) and `status` (`active`, `frozen` or `terminated`). An unknown id gets 404 `NOT_FOUND`.",
  request: { params: idParam({ card: cardId(1, "The demo merchant's funded card"), notFound: NO_CARD }) },
  responses: {
    200: json(CardResponse, "The card", { card: { summary: "The card and its balance", value: { success: true, ...card() } } }),
    ...cardErrors(),
  },
});

export const fund = route({
  method: "post",
  path: "/{id}/fund",
  operationId: "fundVirtualCard",
  summary: "Fund a card from the wallet (amount plus funding fee, at the merchant's USD rate)",
  description: `Moves money from the Naira wallet onto the card. ${USD_AMOUNT}

The wallet is charged \`(amount + funding fee) × exchange rate\` in Naira, each part rounded up to the kobo, as two ledger entries
(the funding, and the fee when it is not zero), all or nothing. The fee (USD) and the rate are set per merchant (\`card_funding_fee_usd\` and \`usd_ngn_rate\`; the sandbox's defaults are
${thousands(FEE)} USD and ${thousands(RATE)} Naira per USD). The response gives \`fee\`, \`exchange_rate\` and \`wallet_amount\` (the Naira charged).

- A wallet that cannot cover it gets 422 \`INSUFFICIENT_BALANCE\`; nothing is charged.
- A frozen card can be funded (freezing only blocks spend). ${TERMINATED}
- An unknown card gets 404 \`NOT_FOUND\`.

${UNCLEAR_ANSWER("funding")}

**In the sandbox**, ${FUND_MAGIC_TEXT}: 422 \`CARD_FUNDING_FAILED\`, nothing charged. An outcome rule
(\`POST /sandbox/v1/outcomes\`, target \`card_fund\`) declines others. ${SANDBOX_ANSWER_FAULTS("fundVirtualCard")}`,
  request: {
    params: idParam({ fund: cardId(1, "The demo merchant's card 1"), cardFundingFailed: cardId(1), insufficientBalance: cardId(1), notFound: NO_CARD }),
    ...body(UsdAmount, {
      fund: { summary: "Add USD 25", value: { amount: 25 } },
      cardFundingFailed: { summary: `In the sandbox: USD ${DECLINED_USD} is ${DECLINED.description}`, value: { amount: DECLINED_USD } },
      insufficientBalance: { summary: "More than the wallet can pay for", value: { amount: CARD_AMOUNT_USD.max } },
      notFound: { summary: "Any amount, to a card that does not exist", value: { amount: 25 } },
    }),
  },
  responses: {
    200: json(Moved, "Funds moved", {
      fund: {
        summary: `Funded: the wallet paid (25 + ${thousands(FEE)} fee) × ${thousands(RATE)} = NGN ${thousands((25 + FEE) * RATE)}`,
        value: moved(MESSAGES.funded, { amount: 25, fee: FEE, balance: 125, wallet_amount: (25 + FEE) * RATE }),
      },
    }),
    ...cardErrors({
      409: { invalidState: terminated("funded") },
      422: {
        cardFundingFailed: errorExample("The issuer declined: nothing is charged", "CARD_FUNDING_FAILED", "The card issuer declined funding card 1; nothing was charged."),
        insufficientBalance: errorExample(
          "The wallet cannot pay amount + fee at the rate: nothing is charged",
          "INSUFFICIENT_BALANCE",
          `Insufficient wallet balance: NGN ${((CARD_AMOUNT_USD.max + FEE) * RATE).toFixed(2)} needed, NGN ${DEMO_BALANCE.toFixed(2)} available.`,
        ),
        validationError: invalidExample("The amount breaks its rule", { amount: [`Must be at least ${thousands(CARD_AMOUNT_USD.min)} USD.`] }),
      },
      ...afterCommitErrors("funding", "fundVirtualCard"),
    }),
  },
});

export const unload = route({
  method: "post",
  path: "/{id}/unload",
  operationId: "unloadVirtualCard",
  summary: "Move funds from a card back to the wallet",
  description: `Moves money from the card back to the Naira wallet. ${USD_AMOUNT}

The amount must not exceed the card's \`balance\`, or the request gets 422 \`INSUFFICIENT_CARD_BALANCE\`. The wallet is credited
\`amount × exchange rate\` in Naira (the merchant's \`usd_ngn_rate\`), rounded down to the kobo, with no fee: \`wallet_amount\` in the response.

- A frozen card can be unloaded. ${TERMINATED}
- An unknown card gets 404 \`NOT_FOUND\`.

${UNCLEAR_ANSWER("unload")}

**In the sandbox**, ${SANDBOX_ANSWER_FAULTS("unloadVirtualCard")}`,
  request: {
    params: idParam({ unload: cardId(1, "The demo merchant's card 1 (USD 100)"), insufficientCardBalance: cardId(1), notFound: NO_CARD }),
    ...body(UsdAmount, {
      unload: { summary: "Take USD 10 back to the wallet", value: { amount: 10 } },
      insufficientCardBalance: { summary: "More than the card holds", value: { amount: 5000 } },
      notFound: { summary: "Any amount, from a card that does not exist", value: { amount: 10 } },
    }),
  },
  responses: {
    200: json(Moved, "Funds moved", {
      unload: {
        summary: `Unloaded: the wallet got 10 × ${thousands(RATE)} = NGN ${thousands(10 * RATE)} (no fee)`,
        value: moved(MESSAGES.unloaded, { amount: 10, fee: 0, balance: 90, wallet_amount: 10 * RATE }),
      },
    }),
    ...cardErrors({
      409: { invalidState: terminated("unloaded") },
      422: {
        insufficientCardBalance: errorExample("The card holds less than the amount", "INSUFFICIENT_CARD_BALANCE", "Card 1 holds USD 100.00; cannot unload USD 5000.00."),
        validationError: invalidExample("The amount breaks its rule", { amount: ["Must have at most two decimal places."] }),
      },
      ...afterCommitErrors("unload", "unloadVirtualCard"),
    }),
  },
});

// ---- Freeze, unfreeze, terminate: no body, the card's new status back ------------------------------

export const freeze = route({
  method: "post",
  path: "/{id}/freeze",
  operationId: "freezeVirtualCard",
  summary: "Freeze a card (spend is declined until unfrozen)",
  description: `Freezes an \`active\` card: its spend is declined until it is unfrozen. A frozen card can still be funded and unloaded.

Only an \`active\` card can be frozen: freezing a frozen card gets 409 \`INVALID_STATE\`, and the message names the current state. ${TERMINATED}
An unknown card gets 404 \`NOT_FOUND\`.`,
  request: { params: idParam({ freeze: cardId(1, "The demo merchant's active card 1"), invalidState: cardId(2, "The demo merchant's card 2, already frozen"), notFound: NO_CARD }) },
  responses: {
    200: json(StatusChanged, "The card's new status", { freeze: { summary: "Frozen", value: { success: true, message: MESSAGES.frozen, card_id: 1, status: "frozen" } } }),
    ...cardErrors({
      409: { invalidState: errorExample("The card is not active", "INVALID_STATE", "Card 2 is frozen; only an active card can be frozen."), terminated: terminated("frozen") },
    }),
  },
});

export const unfreeze = route({
  method: "post",
  path: "/{id}/unfreeze",
  operationId: "unfreezeVirtualCard",
  summary: "Unfreeze a frozen card",
  description: `Makes a \`frozen\` card \`active\` again.

Only a \`frozen\` card can be unfrozen: unfreezing an active card gets 409 \`INVALID_STATE\`, and the message names the current state. ${TERMINATED}
An unknown card gets 404 \`NOT_FOUND\`.`,
  request: { params: idParam({ unfreeze: cardId(2, "The demo merchant's frozen card 2"), invalidState: cardId(3, "The demo merchant's card 3, active"), notFound: NO_CARD }) },
  responses: {
    200: json(StatusChanged, "The card's new status", { unfreeze: { summary: "Active again", value: { success: true, message: MESSAGES.unfrozen, card_id: 2, status: "active" } } }),
    ...cardErrors({
      409: { invalidState: errorExample("The card is not frozen", "INVALID_STATE", "Card 3 is active; only a frozen card can be unfrozen."), terminated: terminated("unfrozen") },
    }),
  },
});

export const terminate = route({
  method: "post",
  path: "/{id}/terminate",
  operationId: "terminateVirtualCard",
  summary: "Terminate a card permanently (its balance returns to the wallet)",
  description: `Terminates a card **permanently**: it cannot be reactivated. Any remaining balance is unloaded to the wallet first (at the
merchant's \`usd_ngn_rate\`, rounded down to the kobo, no fee), so no money is stranded: \`refunded_amount\` is that balance in USD.

Afterwards fund, unload, freeze, unfreeze and terminate all get 409 \`INVALID_STATE\`; the card stays in the list as \`terminated\`.
An active or a frozen card can be terminated. An unknown card gets 404 \`NOT_FOUND\`.`,
  request: {
    params: idParam({ terminate: cardId(3, "The demo merchant's empty card 3"), withBalance: cardId(1, "The demo merchant's card 1, holding USD 100"), notFound: NO_CARD }),
  },
  responses: {
    200: json(StatusChanged, "The card's new status", {
      terminate: {
        summary: "Terminated, nothing to return",
        value: { success: true, message: MESSAGES.terminated, card_id: 3, status: "terminated", refunded_amount: 0 },
      },
      withBalance: {
        summary: `Terminated: its USD 100 went back to the wallet (NGN ${thousands(100 * RATE)} at ${thousands(RATE)})`,
        value: { success: true, message: MESSAGES.terminated, card_id: 1, status: "terminated", refunded_amount: 100 },
      },
    }),
    ...cardErrors({ 409: { invalidState: terminated("terminated again") } }),
  },
});

export const transactions = route({
  method: "get",
  path: "/{id}/transactions",
  operationId: "listVirtualCardTransactions",
  summary: "The card's own transaction history (funding, unloads, spend)",
  description: `The card's own history, separate from the wallet's, newest first: \`funding\`, \`unload\` (the balance returned on termination
included) and \`spend\`. Spend on a frozen or terminated card, or above the balance, is recorded too, with \`status\` \`declined\` and a
\`decline_reason\`, and leaves the balance unchanged. Amounts are USD; \`balance_after\` is the card's balance after the entry.
**In the sandbox**, card spend is made with \`POST /sandbox/v1/virtual-cards/{id}/spend\`.

${PAGING} An unknown card gets 404 \`NOT_FOUND\`.`,
  request: { params: idParam({ transactions: cardId(1, "The demo merchant's funded card 1"), notFound: NO_CARD }), query: paging },
  responses: {
    200: json(Success({ data: z.array(CardTransactionResponse), pagination: Pagination }), "A page of transactions, newest first", {
      transactions: { summary: "The card's funding", value: { success: true, data: [transaction({})], pagination: pagination(1) } },
      withDeclinedSpend: {
        summary: "After spend: a purchase, then one declined because the card was frozen (newest first)",
        value: {
          success: true,
          data: [
            netflix({ transaction_id: "TXN_Q7M2C9D4K1B8X5ZR", status: "declined", decline_reason: "Card is frozen", created_at: "2026-03-02T10:15:00.000Z" }),
            netflix({ transaction_id: "TXN_H3P8W1N6V4T2Y9LS", created_at: "2026-03-02T09:30:00.000Z" }),
            transaction({}),
          ],
          pagination: pagination(3),
        },
      },
    }),
    ...cardErrors({
      422: { validationError: invalidExample("A paging parameter out of range", { per_page: [`Must be a whole number from 1 to ${MAX_PER_PAGE}.`] }) },
    }),
  },
});
