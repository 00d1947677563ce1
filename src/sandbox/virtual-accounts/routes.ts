/**
 * Transfers into virtual accounts in the control API, as the payer's bank sends them: the transfer (at
 * once, or pending or processing to end later on the merchant's clock), the levers that end one now, and
 * the paged list of payments. Bounds and defaults the text states are read from the domain.
 */
import { z } from "@hono/zod-openapi";
import { MAX_DELAY_SECONDS, MAX_NARRATION } from "../../domain/bounds.js";
import { amount, text } from "../../domain/fields.js";
import { IDENTIFIER_DIGITS } from "../../domain/limits.js";
import { thousands } from "../../domain/money.js";
import { VA_PAYMENT_STATUSES } from "../../domain/records.js";
import { DEFAULT_INBOUND_SETTLE_SECONDS, refineArrival, TransactionStatus, TransferArrivalFields } from "../../domain/va-payments.js";
import { DEMO, DEMO_PAYMENTS, demoNextId, demoPaymentRecord, SAMPLE } from "../../http/demo-examples.js";
import { body, errorExample, examples, invalidExample, json, type Examples } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, validationError } from "../errors.js";
import { badStatus, codes, fromAfterTo, listDescription, listFields, listQuery, listRoute, pageOf, timeRange } from "../lists.js";
import { BALANCE_CEILING, balanceLimit } from "../wallet/routes.js";

const route = routes({ tags: ["Sandbox"] });

const UNKNOWN_PAYMENT = "TXN_0000000000000000";
const DEMO_CLEARED_PAYMENT = DEMO_PAYMENTS.cleared.transaction_id;
const TRANSFER_AMOUNT = { min: 0.01, max: 10_000_000_000 };
const PAYER_MAX = 100;
const ACCOUNT_DIGITS = IDENTIFIER_DIGITS.account_number;

const SimulateTransfer = z
  .object({
    amount: amount(TRANSFER_AMOUNT),
    // Verbatim: no trim, and empty is allowed (blank narrations are common).
    narration: z
      .string({ message: "Must be a string." })
      .max(MAX_NARRATION, { message: `Must be at most ${MAX_NARRATION} characters.` })
      .optional()
      .openapi({ description: "The payer's narration, kept exactly as sent (empty and spaces included); becomes the payment's reference" }),
    payer_name: text(PAYER_MAX).optional(),
    payer_bank: text(PAYER_MAX).optional(),
    ...TransferArrivalFields,
  })
  .superRefine(refineArrival)
  .openapi("SimulateTransfer");

/** A new payment of NGN 7,500 into the demo account (the next transaction_id the demo hands out). */
const payment = (reference: string, payer_name: string, payer_bank: string, status = "success") => ({
  success: true,
  data: demoPaymentRecord(reference, 7500, status, payer_name, payer_bank, demoNextId("TXN")),
});
const demoAccount = (names: string[]): Examples => Object.fromEntries(names.map((n) => [n, { summary: "The demo's virtual account", value: DEMO.virtualAccount }]));

export const transfer = route({
  method: "post",
  path: "/virtual-accounts/{account_number}/transfers",
  operationId: "simulateTransferIn",
  summary: "Simulate a customer's bank transfer into a virtual account (credited at once, or pending or processing)",
  description: `
Simulates a customer's bank transfer into one of the merchant's virtual accounts, as the payer's bank would send
it. By default it clears at once: the wallet is credited (ledger kind \`va_payment\`), the payment gets a
transaction status record with status \`success\` and a new \`transaction_id\`, and a \`payment.received\` event is
stored and delivered to the merchant's webhook (signed, retried on failure; see GET /sandbox/v1/events). The clock
does not move. Answers 201 with the payment.

A transfer can also arrive \`pending\` or \`processing\` (\`status\`), as the spec's transaction statuses allow:
nothing is credited and no webhook is sent yet, and GET /api/v1/transaction/status shows that status. After
\`settle_after_seconds\` of the merchant's sim time (${DEFAULT_INBOUND_SETTLE_SECONDS} by default) it ends as \`outcome\` says: \`success\` (the
default: credited then, with \`payment.received\`, exactly as an immediate transfer) or \`failed\` (returned to the
payer: never credited, no webhook). With a manual clock, move time with POST /sandbox/v1/clock/advance; or end it
now with POST /sandbox/v1/virtual-accounts/payments/{transaction_id}/clear or /fail. A transfer that cannot be
credited when it clears (the wallet's ceiling) fails instead.

- \`account_number\`: a virtual account of the calling merchant (from POST /api/v1/virtual-account/create); any
  other gets 404 \`NOT_FOUND\`.
- \`amount\`: Naira, ${TRANSFER_AMOUNT.min} to ${thousands(TRANSFER_AMOUNT.max)}, at most two decimals. A virtual account takes any amount (unlike a
  payment link, which takes only its exact amount).
- \`narration\` (optional, at most ${MAX_NARRATION} characters): the payer's narration, kept exactly as sent: an empty one, and
  leading, trailing or repeated spaces, stay as they are. It becomes the payment's \`reference\`, which
  GET /api/v1/transaction/status?reference= looks up (an empty one cannot be looked up: use the \`transaction_id\`).
  Narrations are not unique: the lookup returns the most recent payment carrying it, and \`transaction_id\` is the key
  to reconcile with. Default (not sent): \`Transfer to {account_name}\`.
- \`payer_name\`, \`payer_bank\` (optional, 1 to ${PAYER_MAX} characters). Default: \`OKAFOR CHINEDU EMMANUEL\` at \`Guaranty Trust Bank\`.
- \`status\` (optional): \`success\` (default), \`pending\` or \`processing\`. \`outcome\` (\`success\` or \`failed\`) and
  \`settle_after_seconds\` (0 to ${thousands(MAX_DELAY_SECONDS)}) are for a pending or processing transfer only: with \`success\` they get
  422 \`VALIDATION_ERROR\`.
- A credit that would take the wallet past ${BALANCE_CEILING} gets 422 \`BALANCE_LIMIT_EXCEEDED\`; nothing changes.

The real service has no such endpoint: it is how a test makes a customer's money arrive. Demo merchant: account
${DEMO.virtualAccount} (reference \`${SAMPLE.virtualAccountReference}\`).`.trim(),
  request: {
    params: z.object({
      account_number: examples(z.string().max(20), {
        ...demoAccount(["transfer", "defaults", "pendingThenFails", "blankNarration"]),
        notFound: { summary: "An account number the merchant does not own", value: "0123456789" },
        ...demoAccount(["tooManyDecimals", "outcomeOfImmediate"]),
      }),
    }),
    ...body(SimulateTransfer, {
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
    }),
  },
  responses: {
    201: json(Success({ data: TransactionStatus }), "The payment", {
      transfer: { summary: "The payment, credited", value: payment("Order 1002", "OBI ADAEZE", "Access Bank") },
      defaults: {
        summary: "The payment with the default narration and payer",
        value: payment("Transfer to Mama Put Foods Ltd-Ada Obi", "OKAFOR CHINEDU EMMANUEL", "Guaranty Trust Bank"),
      },
      pendingThenFails: { summary: "The payment, processing: nothing credited yet", value: payment("Order 1002", "OBI ADAEZE", "Access Bank", "processing") },
      blankNarration: { summary: "The payment, credited, with an empty reference", value: payment("", "OKAFOR CHINEDU EMMANUEL", "Guaranty Trust Bank") },
    }),
    ...controlErrors({
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
    }),
  },
});

// ---- The pieces both payment levers share ----------------------------------------------------------

const LEVER_COMMON = `
- \`transaction_id\`: the payment's \`transaction_id\` (from the transfer's answer, or GET
  /sandbox/v1/virtual-accounts/payments), of the calling merchant; else 404 \`NOT_FOUND\`.
- A payment that is not \`pending\` or \`processing\` (already \`success\` or \`failed\`) gets 409 \`INVALID_STATE\`
  naming its state.
- Answers with the payment's transaction status record, as GET /api/v1/transaction/status shows it.

Demo merchant: \`${DEMO.pendingPayment}\` (NGN 2,500, narration \`${SAMPLE.pendingNarration}\`) is \`pending\` for a day of sim time;
\`${DEMO_CLEARED_PAYMENT}\` (\`${SAMPLE.clearedNarration}\`) is \`success\`.`.trim();

/** The path's transaction_id: the demo's pending transfer under `name`, an unknown one, and one that has ended. */
const leverRequest = (name: string) => ({
  params: z.object({
    transaction_id: examples(z.string().min(1).max(100), {
      [name]: { summary: "The demo's pending transfer", value: DEMO.pendingPayment },
      notFound: { summary: "No payment with this transaction_id", value: UNKNOWN_PAYMENT },
      invalidState: { summary: "The demo's transfer that cleared at once", value: DEMO_CLEARED_PAYMENT },
    }),
  }),
});

/** The payment after the lever (`status`) under `name`, or its refusals. */
const leverResponses = (name: string, summary: string, status: string, action: string, own: Record<number, Examples> = {}) => ({
  200: json(Success({ data: TransactionStatus }), "The payment's transaction status record (as GET /api/v1/transaction/status)", {
    [name]: { summary, value: { success: true, data: DEMO_PAYMENTS.pending(status) } },
  }),
  ...controlErrors({
    404: { notFound: errorExample("No payment with this transaction_id", "NOT_FOUND", `No virtual account payment with transaction_id ${UNKNOWN_PAYMENT}.`) },
    409: {
      invalidState: errorExample(
        "The payment has ended already",
        "INVALID_STATE",
        `Payment ${DEMO_CLEARED_PAYMENT} is success; only a pending or processing payment can be ${action}.`,
      ),
    },
    ...own,
  }),
});

export const clear = route({
  method: "post",
  path: "/virtual-accounts/payments/{transaction_id}/clear",
  operationId: "clearVirtualAccountPayment",
  summary: "The payer's bank confirms a pending or processing transfer now (-> success, credited)",
  description: `
The payer's bank confirms a \`pending\` or \`processing\` transfer now: -> \`success\`, whatever outcome was planned
for it. The wallet is credited now (ledger kind \`va_payment\`, with the payment's \`transaction_id\`), the
settlement timer is cancelled and a \`payment.received\` webhook is sent, exactly as for a transfer that clears at
once. A credit that would take the wallet past ${BALANCE_CEILING} gets 422 \`BALANCE_LIMIT_EXCEEDED\` and
nothing changes.

${LEVER_COMMON}`.trim(),
  request: leverRequest("clearPending"),
  responses: leverResponses("clearPending", "Cleared now: success, credited, payment.received sent", "success", "cleared", {
    422: { balanceLimitExceeded: balanceLimit },
  }),
});

export const fail = route({
  method: "post",
  path: "/virtual-accounts/payments/{transaction_id}/fail",
  operationId: "failVirtualAccountPayment",
  summary: "A pending or processing transfer fails now (-> failed, never credited)",
  description: `
A \`pending\` or \`processing\` transfer fails now: -> \`failed\`, whatever outcome was planned for it. The money is
returned to the payer: nothing is credited, no ledger entry is written and no webhook is sent (the service has
none for a failed incoming transfer: poll GET /api/v1/transaction/status). The settlement timer is cancelled.

${LEVER_COMMON}`.trim(),
  request: leverRequest("failPending"),
  responses: leverResponses("failPending", "Failed now: never credited", "failed", "failed"),
});

// ---- The list --------------------------------------------------------------------------------------

const bothPayments = pageOf([DEMO_PAYMENTS.pending(), DEMO_PAYMENTS.cleared]);

export const list = listRoute({
  path: "/virtual-accounts/payments",
  operationId: "listVirtualAccountPayments",
  summary: "List the payments into the merchant's virtual accounts, newest first (paged; filter by status, time, narration, account, transaction_id)",
  description:
    listDescription(
      "payments into its virtual accounts (transfers in, at once or pending or processing)",
      "GET /api/v1/transaction/status",
      `${codes(VA_PAYMENT_STATUSES)}, the spec's transaction statuses.`,
      `
- \`virtual_account\`: only payments into this account number (${ACCOUNT_DIGITS} digits).
- \`transaction_id\`: only the payment with this \`transaction_id\`. It is the key of a payment: the only way to
  find one whose narration (\`reference\`) was empty, which GET /api/v1/transaction/status cannot look up.
  \`reference\` is the payer's narration, compared exactly as sent.`,
    ) + `\n\nDemo merchant: \`${SAMPLE.pendingNarration}\` (\`${DEMO.pendingPayment}\`, \`pending\`) and, before it, \`${SAMPLE.clearedNarration}\` (\`success\`), both into ${DEMO.virtualAccount}.`,
  query: listQuery({
    ...listFields(VA_PAYMENT_STATUSES, "Payments", {
      page: { newest: { summary: "The first page", value: 1 } },
      status: { pending: { summary: "Payments not credited yet", value: "pending" } },
      ...timeRange("today", "Payments on 2 March 2026 (the demo's day)"),
      reference: { byNarration: { summary: "Payments whose narration is exactly this", value: SAMPLE.clearedNarration } },
    }),
    virtual_account: examples(
      z.string().regex(new RegExp(`^\\d{${ACCOUNT_DIGITS}}$`), { message: `Must be a ${ACCOUNT_DIGITS}-digit account number.` }).optional().openapi({ description: "Only payments into this virtual account." }),
      { byAccount: { summary: "Payments into the demo's account", value: DEMO.virtualAccount } },
    ),
    transaction_id: examples(
      z.string().min(1, { message: "Must not be empty." }).max(100, { message: "Must be at most 100 characters." }).optional().openapi({
        description: "Only the payment with this transaction_id (the key of a payment whose narration was empty).",
      }),
      { byTransactionId: { summary: "The payment with this transaction_id", value: DEMO.pendingPayment } },
    ),
  }),
  item: TransactionStatus,
  responses: {
    newest: { summary: "Every payment, newest first", value: bothPayments },
    pending: { summary: "The pending payment", value: pageOf([DEMO_PAYMENTS.pending()]) },
    today: { summary: "The payments of that day", value: bothPayments },
    byNarration: { summary: `The payment with narration ${SAMPLE.clearedNarration}`, value: pageOf([DEMO_PAYMENTS.cleared]) },
    byAccount: { summary: "Both payments into the account", value: bothPayments },
    byTransactionId: { summary: "The one payment", value: pageOf([DEMO_PAYMENTS.pending()]) },
  },
  errors: {
    422: {
      badStatus: badStatus(VA_PAYMENT_STATUSES),
      fromAfterTo,
      badAccount: invalidExample(`An account number that is not ${ACCOUNT_DIGITS} digits`, { virtual_account: [`Must be a ${ACCOUNT_DIGITS}-digit account number.`] }),
    },
  },
});
