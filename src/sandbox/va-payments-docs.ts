/**
 * What the OpenAPI document says about transfers into virtual accounts (the simulated transfer, and
 * the clear and fail levers): descriptions and examples (real bodies; see control-docs.ts for the
 * contract they keep).
 */
import { errorExample, type Examples } from "../http/openapi.js";
import { DEMO, DEMO_PAYMENTS, demoPaymentRecord } from "../http/demo-examples.js";
import { validationError } from "./errors.js";
import { balanceLimit } from "./levers-docs.js";

const DEMO_PENDING_PAYMENT = DEMO.pendingPayment;
const UNKNOWN_PAYMENT = "TXN_0000000000000000";
const DEMO_CLEARED_PAYMENT = DEMO_PAYMENTS.cleared.transaction_id;

// ---- POST /sandbox/v1/virtual-accounts/{account_number}/transfers --------------------------------

export const TRANSFER_DESCRIPTION = `
Simulates a customer's bank transfer into one of the merchant's virtual accounts, as the payer's bank would send
it. By default it clears at once: the wallet is credited (ledger kind \`va_payment\`), the payment gets a
transaction status record with status \`success\` and a new \`transaction_id\`, and a \`payment.received\` event is
stored and delivered to the merchant's webhook (signed, retried on failure; see GET /sandbox/v1/events). The clock
does not move. Answers 201 with the payment.

A transfer can also arrive \`pending\` or \`processing\` (\`status\`), as the spec's transaction statuses allow:
nothing is credited and no webhook is sent yet, and GET /api/v1/transaction/status shows that status. After
\`settle_after_seconds\` of the merchant's sim time (60 by default) it ends as \`outcome\` says: \`success\` (the
default: credited then, with \`payment.received\`, exactly as an immediate transfer) or \`failed\` (returned to the
payer: never credited, no webhook). With a manual clock, move time with POST /sandbox/v1/clock/advance; or end it
now with POST /sandbox/v1/virtual-accounts/payments/{transaction_id}/clear or /fail. A transfer that cannot be
credited when it clears (the wallet's ceiling) fails instead.

- \`account_number\`: a virtual account of the calling merchant (from POST /api/v1/virtual-account/create); any
  other gets 404 \`NOT_FOUND\`.
- \`amount\`: Naira, 0.01 to 10,000,000,000, at most two decimals. A virtual account takes any amount (unlike a
  payment link, which takes only its exact amount).
- \`narration\` (optional, at most 500 characters): the payer's narration, kept exactly as sent: an empty one, and
  leading, trailing or repeated spaces, stay as they are. It becomes the payment's \`reference\`, which
  GET /api/v1/transaction/status?reference= looks up (an empty one cannot be looked up: use the \`transaction_id\`).
  Narrations are not unique: the lookup returns the most recent payment carrying it, and \`transaction_id\` is the key
  to reconcile with. Default (not sent): \`Transfer to {account_name}\`.
- \`payer_name\`, \`payer_bank\` (optional, 1 to 100 characters). Default: \`OKAFOR CHINEDU EMMANUEL\` at \`Guaranty Trust Bank\`.
- \`status\` (optional): \`success\` (default), \`pending\` or \`processing\`. \`outcome\` (\`success\` or \`failed\`) and
  \`settle_after_seconds\` (0 to 31,536,000) are for a pending or processing transfer only: with \`success\` they get
  422 \`VALIDATION_ERROR\`.
- A credit that would take the wallet past NGN 10,000,000,000,000 gets 422 \`BALANCE_LIMIT_EXCEEDED\`; nothing changes.

The real service has no such endpoint: it is how a test makes a customer's money arrive. Demo merchant: account
${DEMO.virtualAccount} (reference \`customer-ada\`).`.trim();

export const TRANSFER_PARAM_EXAMPLES: Examples = {
  transfer: { summary: "The demo's virtual account", value: DEMO.virtualAccount },
  defaults: { summary: "The demo's virtual account", value: DEMO.virtualAccount },
  pendingThenFails: { summary: "The demo's virtual account", value: DEMO.virtualAccount },
  blankNarration: { summary: "The demo's virtual account", value: DEMO.virtualAccount },
  notFound: { summary: "An account number the merchant does not own", value: "0123456789" },
  tooManyDecimals: { summary: "The demo's virtual account", value: DEMO.virtualAccount },
  outcomeOfImmediate: { summary: "The demo's virtual account", value: DEMO.virtualAccount },
};

export const TRANSFER_BODY_EXAMPLES: Examples = {
  transfer: {
    summary: "NGN 7,500 from Ada for order 1002",
    value: { amount: 7500, narration: "Order 1002", payer_name: "OBI ADAEZE", payer_bank: "Access Bank" },
  },
  defaults: { summary: "Only the amount: default narration and payer", value: { amount: 7500 } },
  pendingThenFails: {
    summary: "Arrives processing, and fails 10 minutes later (never credited)",
    value: { amount: 7500, narration: "Order 1002", payer_name: "OBI ADAEZE", payer_bank: "Access Bank", status: "processing", outcome: "failed", settle_after_seconds: 600 },
  },
  blankNarration: { summary: "The payer's bank sent no narration: the reference is empty", value: { amount: 7500, narration: "" } },
  notFound: { summary: "A transfer to an account the merchant does not own", value: { amount: 7500 } },
  tooManyDecimals: { summary: "An amount with three decimals", value: { amount: 7500.555 } },
  outcomeOfImmediate: { summary: "An outcome for a transfer that clears at once", value: { amount: 7500, outcome: "failed" } },
};

/** A new payment of NGN 7,500 into the demo account (the next transaction_id the demo hands out). */
const payment = (reference: string, payer_name: string, payer_bank: string, status = "success") => ({
  success: true,
  data: demoPaymentRecord(reference, 7500, status, payer_name, payer_bank, "TXN_66WQ301SA53A0KGZ"),
});

export const TRANSFER_RESPONSE_EXAMPLES: Examples = {
  transfer: { summary: "The payment, credited", value: payment("Order 1002", "OBI ADAEZE", "Access Bank") },
  defaults: {
    summary: "The payment with the default narration and payer",
    value: payment("Transfer to Mama Put Foods Ltd-Ada Obi", "OKAFOR CHINEDU EMMANUEL", "Guaranty Trust Bank"),
  },
  pendingThenFails: { summary: "The payment, processing: nothing credited yet", value: payment("Order 1002", "OBI ADAEZE", "Access Bank", "processing") },
  blankNarration: { summary: "The payment, credited, with an empty reference", value: payment("", "OKAFOR CHINEDU EMMANUEL", "Guaranty Trust Bank") },
};

export const TRANSFER_ERRORS = {
  404: { notFound: errorExample("Not one of the merchant's virtual accounts", "NOT_FOUND", "No virtual account 0123456789.") },
  422: {
    tooManyDecimals: validationError("Amounts have at most two decimals", "amount", "Must have at most two decimal places."),
    outcomeOfImmediate: validationError(
      "A transfer that clears at once takes no outcome",
      "outcome",
      "Only a transfer that arrives pending or processing ends later: send status pending or processing, or leave this out.",
    ),
    balanceLimitExceeded: balanceLimit,
  },
};

// ---- POST /sandbox/v1/virtual-accounts/payments/{transaction_id}/clear | fail ---------------------------

const LEVER_COMMON = `
- \`transaction_id\`: the payment's \`transaction_id\` (from the transfer's answer, or GET
  /sandbox/v1/virtual-accounts/payments), of the calling merchant; else 404 \`NOT_FOUND\`.
- A payment that is not \`pending\` or \`processing\` (already \`success\` or \`failed\`) gets 409 \`INVALID_STATE\`
  naming its state.
- Answers with the payment's transaction status record, as GET /api/v1/transaction/status shows it.

Demo merchant: \`${DEMO_PENDING_PAYMENT}\` (NGN 2,500, narration \`Order 1003\`) is \`pending\` for a day of sim time;
\`${DEMO_CLEARED_PAYMENT}\` (\`Order 1001\`) is \`success\`.`.trim();

export const CLEAR_DESCRIPTION = `
The payer's bank confirms a \`pending\` or \`processing\` transfer now: -> \`success\`, whatever outcome was planned
for it. The wallet is credited now (ledger kind \`va_payment\`, with the payment's \`transaction_id\`), the
settlement timer is cancelled and a \`payment.received\` webhook is sent, exactly as for a transfer that clears at
once. A credit that would take the wallet past NGN 10,000,000,000,000 gets 422 \`BALANCE_LIMIT_EXCEEDED\` and
nothing changes.

${LEVER_COMMON}`.trim();

export const FAIL_DESCRIPTION = `
A \`pending\` or \`processing\` transfer fails now: -> \`failed\`, whatever outcome was planned for it. The money is
returned to the payer: nothing is credited, no ledger entry is written and no webhook is sent (the service has
none for a failed incoming transfer: poll GET /api/v1/transaction/status). The settlement timer is cancelled.

${LEVER_COMMON}`.trim();

const leverParams = (name: string): Examples => ({
  [name]: { summary: "The demo's pending transfer", value: DEMO_PENDING_PAYMENT },
  notFound: { summary: "No payment with this transaction_id", value: UNKNOWN_PAYMENT },
  invalidState: { summary: "The demo's transfer that cleared at once", value: DEMO_CLEARED_PAYMENT },
});
const leverErrors = (action: string) => ({
  404: { notFound: errorExample("No payment with this transaction_id", "NOT_FOUND", `No virtual account payment with transaction_id ${UNKNOWN_PAYMENT}.`) },
  409: {
    invalidState: errorExample(
      "The payment has ended already",
      "INVALID_STATE",
      `Payment ${DEMO_CLEARED_PAYMENT} is success; only a pending or processing payment can be ${action}.`,
    ),
  },
});
const pending = (status: string) => ({ success: true, data: DEMO_PAYMENTS.pending(status) });

export const CLEAR = {
  params: leverParams("clearPending"),
  responses: { clearPending: { summary: "Cleared now: success, credited, payment.received sent", value: pending("success") } },
  errors: { ...leverErrors("cleared"), 422: { balanceLimitExceeded: balanceLimit } },
};

export const FAIL = {
  params: leverParams("failPending"),
  responses: { failPending: { summary: "Failed now: never credited", value: pending("failed") } },
  errors: leverErrors("failed"),
};
