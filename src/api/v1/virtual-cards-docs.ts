/**
 * The virtual card routes' documentation: descriptions (the rules a client must know, from the spec
 * and from src/domain/cards.ts and outcomes.ts) and examples. Every request example named N gets, on
 * a fresh demo merchant, the response example named N (test/platform/openapi-examples.test.ts): the
 * demo merchant has cardholders 1 (APPROVED) and 2 (PENDING), cards 1 (active, USD 100), 2 (frozen)
 * and 3 (active, empty). Response bodies are copied from real responses.
 */
import { invalidExample, errorExample, type Examples } from "../../http/openapi.js";

// ---- Descriptions ----------------------------------------------------------------------------------

const USD_AMOUNT = "`amount` is in US dollars, 1 to 10,000, at most two decimals.";

const TERMINATED = "A terminated card gets 409 `INVALID_STATE` (termination is permanent).";

const PAGING = "Query `page` (from 1, default 1) and `per_page` (1 to 100, default 20); a page past the end is empty but still reports the totals in `pagination`.";

/** A funding or unload has no client reference: after an unclear answer, the card's own history says whether it happened. */
const UNCLEAR_ANSWER = (what: "funding" | "unload") => `**When the answer goes wrong.** The ${what} can be made and still reach you as no answer (a reset
connection, a client time-out) or as a 500 or 504. Do not send it again blindly: read the card's transactions
(\`GET /api/v1/virtual-cards/{id}/transactions\`, newest first) and its \`balance\`; send it again only if the ${what} is not there.`;

const SANDBOX_ANSWER_FAULTS = (operation: string) =>
  `An outcome rule with target \`response\` (\`match: { operation: ${operation} }\`) makes the next answer after the change is made a reset connection, a late answer, a 500 or a 504.`;

export const DESCRIPTIONS = {
  createCardholder: `Registers the person a card is issued to. \`first_name\` and \`last_name\` (1 to 100 characters) and \`email\` are required; \`phone\` (a Nigerian mobile number such as \`08031234567\`) is optional.

The email identifies the cardholder: sending an email this merchant already registered (compared case-insensitively) returns the
existing cardholder as it is (200), whatever the other fields say. No duplicate is created.

A new cardholder starts with \`kyc_status\` \`PENDING\`. Poll \`GET /api/v1/virtual-cards/cardholders/{id}\` until it is \`APPROVED\`
before issuing a card: issuing for a \`PENDING\` cardholder gets 422 \`KYC_NOT_APPROVED\`.

**In the sandbox**, KYC is approved after the merchant's KYC delay (\`delays.kyc_approval_seconds\`, 120 s by default). An email
starting with \`pending+\` never approves by itself: approve it with \`POST /sandbox/v1/cardholders/{id}/approve\`. An outcome rule
(\`POST /sandbox/v1/outcomes\`, target \`kyc\`) takes precedence.`,

  getCardholder: `A cardholder of this merchant, by \`cardholder_id\` (integers counted per merchant from 1). Poll it until \`kyc_status\` is \`APPROVED\`:
only then can a card be issued. An unknown id gets 404 \`NOT_FOUND\`.`,

  createVirtualCard: `Issues a virtual USD card to a cardholder of this merchant.

- \`cardholder_id\`: the cardholder must have \`kyc_status\` \`APPROVED\`, or the request gets 422 \`KYC_NOT_APPROVED\`
  (poll \`GET /api/v1/virtual-cards/cardholders/{id}\` first). An unknown cardholder gets 404 \`NOT_FOUND\`.
- \`brand\`: \`VISA\` (default) or \`MASTERCARD\`.
- \`label\` (optional): a nickname, at most 50 characters.

The new card is \`active\` with a \`balance\` of 0 USD: fund it with \`POST /api/v1/virtual-cards/{id}/fund\`. Issuing costs nothing.
The card number is shown masked (\`masked_pan\`); the card expires three years after issue. \`card_id\`s are integers counted per merchant from 1.`,

  listVirtualCards: `The merchant's cards, in the order they were issued, terminated ones included, each with its \`balance\` (USD) and \`status\`
(\`active\`, \`frozen\` or \`terminated\`). ${PAGING}`,

  getVirtualCard: "One card with its `balance` (USD) and `status` (`active`, `frozen` or `terminated`). An unknown id gets 404 `NOT_FOUND`.",

  fundVirtualCard: `Moves money from the Naira wallet onto the card. ${USD_AMOUNT}

The wallet is charged \`(amount + funding fee) × exchange rate\` in Naira, each part rounded up to the kobo, as two ledger entries
(the funding, and the fee when it is not zero), all or nothing. The fee (USD) and the rate are set per merchant (\`card_funding_fee_usd\` and \`usd_ngn_rate\`; the sandbox's defaults are
1 USD and 1,600 Naira per USD). The response gives \`fee\`, \`exchange_rate\` and \`wallet_amount\` (the Naira charged).

- A wallet that cannot cover it gets 422 \`INSUFFICIENT_BALANCE\`; nothing is charged.
- A frozen card can be funded (freezing only blocks spend). ${TERMINATED}
- An unknown card gets 404 \`NOT_FOUND\`.

${UNCLEAR_ANSWER("funding")}

**In the sandbox**, an \`amount\` of exactly \`13.13\` is declined by the issuer: 422 \`CARD_FUNDING_FAILED\`, nothing charged. An outcome rule
(\`POST /sandbox/v1/outcomes\`, target \`card_fund\`) declines others. ${SANDBOX_ANSWER_FAULTS("fundVirtualCard")}`,

  unloadVirtualCard: `Moves money from the card back to the Naira wallet. ${USD_AMOUNT}

The amount must not exceed the card's \`balance\`, or the request gets 422 \`INSUFFICIENT_CARD_BALANCE\`. The wallet is credited
\`amount × exchange rate\` in Naira (the merchant's \`usd_ngn_rate\`), rounded down to the kobo, with no fee: \`wallet_amount\` in the response.

- A frozen card can be unloaded. ${TERMINATED}
- An unknown card gets 404 \`NOT_FOUND\`.

${UNCLEAR_ANSWER("unload")}

**In the sandbox**, ${SANDBOX_ANSWER_FAULTS("unloadVirtualCard")}`,

  freezeVirtualCard: `Freezes an \`active\` card: its spend is declined until it is unfrozen. A frozen card can still be funded and unloaded.

Only an \`active\` card can be frozen: freezing a frozen card gets 409 \`INVALID_STATE\`, and the message names the current state. ${TERMINATED}
An unknown card gets 404 \`NOT_FOUND\`.`,

  unfreezeVirtualCard: `Makes a \`frozen\` card \`active\` again.

Only a \`frozen\` card can be unfrozen: unfreezing an active card gets 409 \`INVALID_STATE\`, and the message names the current state. ${TERMINATED}
An unknown card gets 404 \`NOT_FOUND\`.`,

  terminateVirtualCard: `Terminates a card **permanently**: it cannot be reactivated. Any remaining balance is unloaded to the wallet first (at the
merchant's \`usd_ngn_rate\`, rounded down to the kobo, no fee), so no money is stranded: \`refunded_amount\` is that balance in USD.

Afterwards fund, unload, freeze, unfreeze and terminate all get 409 \`INVALID_STATE\`; the card stays in the list as \`terminated\`.
An active or a frozen card can be terminated. An unknown card gets 404 \`NOT_FOUND\`.`,

  listVirtualCardTransactions: `The card's own history, separate from the wallet's, newest first: \`funding\`, \`unload\` (the balance returned on termination
included) and \`spend\`. Spend on a frozen or terminated card, or above the balance, is recorded too, with \`status\` \`declined\` and a
\`decline_reason\`, and leaves the balance unchanged. Amounts are USD; \`balance_after\` is the card's balance after the entry.
**In the sandbox**, card spend is made with \`POST /sandbox/v1/virtual-cards/{id}/spend\`.

${PAGING} An unknown card gets 404 \`NOT_FOUND\`.`,
} as const;

// ---- Examples --------------------------------------------------------------------------------------

const SERVICE_NOT_ENABLED: Examples = {
  serviceNotEnabled: errorExample("Virtual cards are not enabled on the merchant's account", "SERVICE_NOT_ENABLED", "The virtual cards service is not enabled on this account."),
  ipNotWhitelisted: errorExample("The merchant has an IP allowlist without this address", "IP_NOT_WHITELISTED", "Requests from 203.0.113.7 are not allowed for this account."),
};

const badId = invalidExample("The id is not a positive integer", { id: ["Must be a positive whole number."] });
const cardNotFound = (id: number) => errorExample("No card of this merchant has this id", "NOT_FOUND", `No virtual card ${id}.`);
const terminated = (action: string) =>
  errorExample("The card is terminated", "INVALID_STATE", `Card 3 is terminated; it cannot be ${action}. Termination is permanent.`);

/** A card as issue, get and list show it. */
const card = (over: Partial<Record<string, unknown>> = {}) => ({
  card_id: 1,
  cardholder_id: 1,
  brand: "VISA",
  label: "Ads spend",
  masked_pan: "4322 48** **** 2336",
  expiry_month: 3,
  expiry_year: 2029,
  currency: "USD",
  balance: 100,
  status: "active",
  created_at: "2026-03-02T09:00:00.000Z",
  ...over,
});

const pagination = (total: number) => ({ current_page: 1, per_page: 20, total_pages: total === 0 ? 0 : Math.ceil(total / 20), total });

const id = (named: Record<string, number>, summaries: Record<string, string>): Examples =>
  Object.fromEntries(Object.entries(named).map(([name, value]) => [name, { summary: summaries[name] ?? `Card ${value}`, value }]));

export const CREATE_CARDHOLDER = {
  body: {
    newCardholder: {
      summary: "A new cardholder (KYC starts PENDING)",
      value: { first_name: "Tunde", last_name: "Bakare", email: "tunde.bakare@example.com", phone: "08031234567" },
    },
    sameEmail: {
      summary: "An email already registered (any letter case): the existing cardholder comes back",
      value: { first_name: "Ada", last_name: "Obi", email: "Ada.Cards@example.com" },
    },
    kycStaysPending: {
      summary: "In the sandbox: an email starting pending+ never approves by itself",
      value: { first_name: "Bola", last_name: "Ahmed", email: "pending+bola@example.com" },
    },
  } satisfies Examples,
  200: {
    newCardholder: {
      summary: "Created, KYC pending",
      value: { success: true, cardholder_id: 3, full_name: "Tunde Bakare", email: "tunde.bakare@example.com", phone: "08031234567", kyc_status: "PENDING" },
    },
    sameEmail: {
      summary: "The existing cardholder, as it is",
      value: { success: true, cardholder_id: 1, full_name: "Ada Obi", email: "ada.cards@example.com", phone: "08031234567", kyc_status: "APPROVED" },
    },
    kycStaysPending: {
      summary: "Created, KYC pending until approved with the lever",
      value: { success: true, cardholder_id: 3, full_name: "Bola Ahmed", email: "pending+bola@example.com", phone: null, kyc_status: "PENDING" },
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  422: { validationError: invalidExample("A field breaks its rule (every field is reported)", { email: ["Must be a valid email address."] }) } satisfies Examples,
};

export const GET_CARDHOLDER = {
  id: {
    approved: { summary: "The demo merchant's approved cardholder", value: 1 },
    pending: { summary: "The demo merchant's cardholder whose KYC stays pending", value: 2 },
    notFound: { summary: "An id no cardholder of this merchant has", value: 99 },
  } satisfies Examples,
  200: {
    approved: {
      summary: "KYC approved: cards can be issued",
      value: { success: true, cardholder_id: 1, full_name: "Ada Obi", email: "ada.cards@example.com", phone: "08031234567", kyc_status: "APPROVED" },
    },
    pending: {
      summary: "KYC pending: keep polling",
      value: { success: true, cardholder_id: 2, full_name: "Kemi Bello", email: "pending+kemi@example.com", phone: null, kyc_status: "PENDING" },
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: errorExample("No cardholder of this merchant has this id", "NOT_FOUND", "No cardholder 99.") } satisfies Examples,
  422: { validationError: badId } satisfies Examples,
};

export const CREATE_CARD = {
  body: {
    issue: { summary: "A VISA card for the approved cardholder 1", value: { cardholder_id: 1, brand: "VISA", label: "Marketing" } },
    kycNotApproved: { summary: "Cardholder 2's KYC is still PENDING", value: { cardholder_id: 2, brand: "MASTERCARD" } },
    notFound: { summary: "A cardholder_id no cardholder of this merchant has", value: { cardholder_id: 99 } },
  } satisfies Examples,
  200: {
    issue: { summary: "Issued: active, empty", value: { success: true, ...card({ card_id: 4, label: "Marketing", masked_pan: "4475 29** **** 7710", balance: 0 }) } },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: errorExample("No cardholder of this merchant has this id", "NOT_FOUND", "No cardholder 99.") } satisfies Examples,
  422: {
    kycNotApproved: errorExample(
      "The cardholder's KYC is not APPROVED",
      "KYC_NOT_APPROVED",
      "Cardholder 2 has kyc_status PENDING; a card can be issued only once it is APPROVED.",
    ),
    validationError: invalidExample("A field breaks its rule (every field is reported)", { brand: ["Must be VISA or MASTERCARD."] }),
  } satisfies Examples,
};

export const LIST_CARDS = {
  200: {
    cards: {
      summary: "The first page",
      value: {
        success: true,
        data: [
          card(),
          card({ card_id: 2, brand: "MASTERCARD", label: "Subscriptions", masked_pan: "5552 65** **** 9507", balance: 0, status: "frozen" }),
          card({ card_id: 3, label: "Old travel card", masked_pan: "4059 42** **** 9252", balance: 0 }),
        ],
        pagination: pagination(3),
      },
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  422: { validationError: invalidExample("A paging parameter out of range", { page: ["Must be a whole number from 1 to 1000000."] }) } satisfies Examples,
};

export const GET_CARD = {
  id: id({ card: 1, notFound: 999 }, { card: "The demo merchant's funded card", notFound: "An id no card of this merchant has" }),
  200: { card: { summary: "The card and its balance", value: { success: true, ...card() } } } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  422: { validationError: badId } satisfies Examples,
};

const moved = (message: string, over: Record<string, unknown>) => ({
  success: true,
  message,
  card_id: 1,
  transaction_id: "TXN_66WQ301SA53A0KGZ",
  currency: "USD",
  exchange_rate: 1600,
  ...over,
});

export const FUND = {
  id: id(
    { fund: 1, cardFundingFailed: 1, insufficientBalance: 1, notFound: 999 },
    { fund: "The demo merchant's card 1", notFound: "An id no card of this merchant has" },
  ),
  body: {
    fund: { summary: "Add USD 25", value: { amount: 25 } },
    cardFundingFailed: { summary: "In the sandbox: USD 13.13 is declined by the issuer", value: { amount: 13.13 } },
    insufficientBalance: { summary: "More than the wallet can pay for", value: { amount: 10000 } },
    notFound: { summary: "Any amount, to a card that does not exist", value: { amount: 25 } },
  } satisfies Examples,
  200: {
    fund: {
      summary: "Funded: the wallet paid (25 + 1 fee) × 1,600 = NGN 41,600",
      value: moved("Card funded successfully", { amount: 25, fee: 1, balance: 125, wallet_amount: 41600 }),
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  409: { invalidState: terminated("funded") } satisfies Examples,
  422: {
    cardFundingFailed: errorExample("The issuer declined: nothing is charged", "CARD_FUNDING_FAILED", "The card issuer declined funding card 1; nothing was charged."),
    insufficientBalance: errorExample(
      "The wallet cannot pay amount + fee at the rate: nothing is charged",
      "INSUFFICIENT_BALANCE",
      "Insufficient wallet balance: NGN 16001600.00 needed, NGN 836850.00 available.",
    ),
    validationError: invalidExample("The amount breaks its rule", { amount: ["Must be at least 1 USD."] }),
  } satisfies Examples,
};

export const UNLOAD = {
  id: id({ unload: 1, insufficientCardBalance: 1, notFound: 999 }, { unload: "The demo merchant's card 1 (USD 100)", notFound: "An id no card of this merchant has" }),
  body: {
    unload: { summary: "Take USD 10 back to the wallet", value: { amount: 10 } },
    insufficientCardBalance: { summary: "More than the card holds", value: { amount: 5000 } },
    notFound: { summary: "Any amount, from a card that does not exist", value: { amount: 10 } },
  } satisfies Examples,
  200: {
    unload: {
      summary: "Unloaded: the wallet got 10 × 1,600 = NGN 16,000 (no fee)",
      value: moved("Card unloaded successfully", { amount: 10, fee: 0, balance: 90, wallet_amount: 16000 }),
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  409: { invalidState: terminated("unloaded") } satisfies Examples,
  422: {
    insufficientCardBalance: errorExample("The card holds less than the amount", "INSUFFICIENT_CARD_BALANCE", "Card 1 holds USD 100.00; cannot unload USD 5000.00."),
    validationError: invalidExample("The amount breaks its rule", { amount: ["Must have at most two decimal places."] }),
  } satisfies Examples,
};

export const FREEZE = {
  id: id({ freeze: 1, invalidState: 2, notFound: 999 }, { freeze: "The demo merchant's active card 1", invalidState: "The demo merchant's card 2, already frozen", notFound: "An id no card of this merchant has" }),
  200: { freeze: { summary: "Frozen", value: { success: true, message: "Card frozen successfully", card_id: 1, status: "frozen" } } } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  409: {
    invalidState: errorExample("The card is not active", "INVALID_STATE", "Card 2 is frozen; only an active card can be frozen."),
    terminated: terminated("frozen"),
  } satisfies Examples,
  422: { validationError: badId } satisfies Examples,
};

export const UNFREEZE = {
  id: id({ unfreeze: 2, invalidState: 3, notFound: 999 }, { unfreeze: "The demo merchant's frozen card 2", invalidState: "The demo merchant's card 3, active", notFound: "An id no card of this merchant has" }),
  200: { unfreeze: { summary: "Active again", value: { success: true, message: "Card unfrozen successfully", card_id: 2, status: "active" } } } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  409: {
    invalidState: errorExample("The card is not frozen", "INVALID_STATE", "Card 3 is active; only a frozen card can be unfrozen."),
    terminated: terminated("unfrozen"),
  } satisfies Examples,
  422: { validationError: badId } satisfies Examples,
};

export const TERMINATE = {
  id: id(
    { terminate: 3, withBalance: 1, notFound: 999 },
    { terminate: "The demo merchant's empty card 3", withBalance: "The demo merchant's card 1, holding USD 100", notFound: "An id no card of this merchant has" },
  ),
  200: {
    terminate: {
      summary: "Terminated, nothing to return",
      value: { success: true, message: "Card terminated successfully", card_id: 3, status: "terminated", refunded_amount: 0 },
    },
    withBalance: {
      summary: "Terminated: its USD 100 went back to the wallet (NGN 160,000 at 1,600)",
      value: { success: true, message: "Card terminated successfully", card_id: 1, status: "terminated", refunded_amount: 100 },
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  409: { invalidState: terminated("terminated again") } satisfies Examples,
  422: { validationError: badId } satisfies Examples,
};

export const TRANSACTIONS = {
  id: id({ transactions: 1, notFound: 999 }, { transactions: "The demo merchant's funded card 1", notFound: "An id no card of this merchant has" }),
  200: {
    transactions: {
      summary: "The card's funding",
      value: {
        success: true,
        data: [
          {
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
            created_at: "2026-03-02T09:00:00.000Z",
          },
        ],
        pagination: pagination(1),
      },
    },
    withDeclinedSpend: {
      summary: "After spend: a purchase, then one declined because the card was frozen (newest first)",
      value: {
        success: true,
        data: [
          {
            transaction_id: "TXN_Q7M2C9D4K1B8X5ZR",
            card_id: 1,
            type: "spend",
            status: "declined",
            amount: 12.99,
            currency: "USD",
            balance_after: 87.01,
            description: "Netflix purchase",
            merchant_name: "Netflix",
            decline_reason: "Card is frozen",
            created_at: "2026-03-02T10:15:00.000Z",
          },
          {
            transaction_id: "TXN_H3P8W1N6V4T2Y9LS",
            card_id: 1,
            type: "spend",
            status: "success",
            amount: 12.99,
            currency: "USD",
            balance_after: 87.01,
            description: "Netflix purchase",
            merchant_name: "Netflix",
            decline_reason: null,
            created_at: "2026-03-02T09:30:00.000Z",
          },
          {
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
            created_at: "2026-03-02T09:00:00.000Z",
          },
        ],
        pagination: pagination(3),
      },
    },
  } satisfies Examples,
  403: SERVICE_NOT_ENABLED,
  404: { notFound: cardNotFound(999) } satisfies Examples,
  422: { validationError: invalidExample("A paging parameter out of range", { per_page: ["Too big: expected number to be <=100"] }) } satisfies Examples,
};
