/**
 * What the OpenAPI document says about the state-machine levers (payouts, VTU purchases, payment
 * links, card spend): descriptions and examples (real bodies; see control-docs.ts for the contract
 * they keep).
 */
import { errorExample, type Examples } from "../http/openapi.js";
import { AT, DEMO, demoCheckoutRecord } from "../http/demo-examples.js";
import { validationError } from "./errors.js";

const UNKNOWN_PAYOUT = "no-such-payout";
const UNKNOWN_VTU = "VTU_0000000000000000";
const UNKNOWN_LINK = "CHK_0000000000000000";

// ---- Payouts -------------------------------------------------------------------------------------

const PAYOUT_COMMON = `
- \`reference\`: the payout's reference (the one sent to POST /api/v1/payout/transfer, or generated), of the
  calling merchant; else 404 \`NOT_FOUND\`.
- A payout in any other state gets 409 \`INVALID_STATE\`, and the message names its state.
- Answers with the payout's full record, as GET /api/v1/payout/status shows it.`.trim();

export const APPROVE_DESCRIPTION = `
Approves a payout held for review, as an admin of the service would: \`pending_approval\` -> \`processing\`. A payout
is held when its amount is at or above \`limits.payout_review_threshold\` (NGN 1,000,000 by default). The wallet was
debited (\`total_deducted\`) when the payout was created, so approval moves no money.

From approval the payout settles like any other, after \`delays.payout_settlement_seconds\` of sim time (30 by
default): \`completed\` with a \`payout.completed\` webhook, or \`failed\` with its funds returned and a
\`payout.failed\` webhook, as decided when it was created (outcome rules first, then the sandbox's magic account
numbers: ending \`0001\` or \`0000\` fails, ending \`0002\` stays \`processing\` until forced). With a manual clock,
move time with POST /sandbox/v1/clock/advance; or settle it now with the complete or fail lever.

${PAYOUT_COMMON}
- The optional body's \`reason\` is not used here: only reject and fail record one.

Demo merchant: \`${DEMO.heldPayout}\` (NGN 1,500,000) is \`pending_approval\`.`.trim();

export const REJECT_DESCRIPTION = `
Rejects a payout held for review, as an admin of the service would: \`pending_approval\` -> \`failed\`, at once.
\`total_deducted\` (amount + fee) goes back to the wallet as one \`payout_reversal\` ledger entry, \`error\` is set
to \`reason\` (default \`Rejected by an administrator\`), \`processed_at\` is the merchant's current time, the amount
stops counting toward the hourly and daily payout limits (the attempt still counts), and a \`payout.failed\`
webhook is sent.

${PAYOUT_COMMON}
- \`reason\` (optional, 1 to 200 characters): recorded as the payout's \`error\`.

Demo merchant: \`${DEMO.heldPayout}\` is \`pending_approval\`.`.trim();

export const COMPLETE_DESCRIPTION = `
The bank confirms delivery now: \`processing\` -> \`completed\`, whatever outcome was planned for it. \`processed_at\`
is the merchant's current time, the settlement timer is cancelled and a \`payout.completed\` webhook is sent. No
money moves: the wallet was debited when the payout was created.

Use it to settle a payout without moving the clock, or to complete one that stays \`processing\` until forced (in
the sandbox: an account number ending \`0002\`, or a \`payout\` outcome rule \`processing\`).

${PAYOUT_COMMON}
- The optional body's \`reason\` is not used here.

Demo merchant: \`${DEMO.processingPayout}\` is \`processing\` until forced.`.trim();

export const FAIL_DESCRIPTION = `
The bank reports failure now: \`processing\` -> \`failed\`, whatever outcome was planned for it. \`total_deducted\`
(amount + fee) goes back to the wallet as one \`payout_reversal\` ledger entry, \`error\` is set to \`reason\` (default:
the planned failure's message, else \`Transfer failed at the beneficiary bank\`), \`processed_at\` is the merchant's
current time, the settlement timer is cancelled, the amount stops counting toward the hourly and daily payout
limits (the attempt still counts), and a \`payout.failed\` webhook is sent.

${PAYOUT_COMMON}
- \`reason\` (optional, 1 to 200 characters): recorded as the payout's \`error\`.

Demo merchant: \`${DEMO.processingPayout}\` is \`processing\` until forced.`.trim();

export const payoutRecord = (held: boolean, status: string, processed: boolean, errorText: string | null) => ({
  success: true,
  data: {
    reference: held ? DEMO.heldPayout : DEMO.processingPayout,
    amount: held ? 1500000 : 5000,
    fee: held ? 1000 : 50,
    total_deducted: held ? 1501000 : 5050,
    net_amount: held ? 1500000 : 5000,
    order_no: held ? "PO_V4MUVUIU0KL3C47G" : "PO_W9B8N1Q40ZEZ82JA",
    transaction_id: held ? "PO_V4MUVUIU0KL3C47G" : "PO_W9B8N1Q40ZEZ82JA",
    status,
    account: held ? "****3003" : "****0002",
    account_name: held ? "ADEYEMI IBRAHIM IFEOMA" : "ALIYU BABAJIDE",
    bank_name: "Guaranty Trust Bank",
    narration: held ? "Supplier settlement" : "Refund for order 1001",
    created_at: AT,
    processed_at: processed ? AT : null,
    source: "api",
    error: errorText,
  },
});

const payoutNotFound = { notFound: errorExample("No payout with this reference", "NOT_FOUND", `No payout with reference ${UNKNOWN_PAYOUT}.`) };
const payoutValidation = { validationError: validationError("A reason that is not a string", "reason", "Invalid input: expected string, received number") };
const invalidPayoutState = (reference: string, state: string, wanted: string, action: string) => ({
  invalidState: errorExample(`Only a ${wanted} payout can be ${action}`, "INVALID_STATE", `Payout ${reference} is ${state}; only a ${wanted} payout can be ${action}.`),
});

/** Named requests of a payout lever: its success on `ok`, an unknown reference, and the demo payout in the wrong state. */
const payoutParams = (name: string, ok: string, okSummary: string, wrong: string, wrongSummary: string): Examples => ({
  [name]: { summary: okSummary, value: ok },
  notFound: { summary: "No payout with this reference", value: UNKNOWN_PAYOUT },
  invalidState: { summary: wrongSummary, value: wrong },
});
const noReason = (names: string[]): Examples => Object.fromEntries(names.map((n) => [n, { summary: "No body needed", value: {} }]));

export const APPROVE = {
  params: payoutParams("approveHeld", DEMO.heldPayout, "The demo's payout held for review", DEMO.processingPayout, "A payout already processing"),
  body: noReason(["approveHeld", "notFound", "invalidState"]),
  responses: { approveHeld: { summary: "Approved: processing, settles after the settlement delay", value: payoutRecord(true, "processing", false, null) } },
  errors: {
    404: payoutNotFound,
    409: invalidPayoutState(DEMO.processingPayout, "processing", "pending_approval", "approved"),
    422: payoutValidation,
  },
};

export const REJECT = {
  params: payoutParams("rejectHeld", DEMO.heldPayout, "The demo's payout held for review", DEMO.processingPayout, "A payout already processing"),
  body: {
    rejectHeld: { summary: "Reject with a reason", value: { reason: "Beneficiary details do not match the invoice" } },
    notFound: { summary: "No body needed", value: {} },
    invalidState: { summary: "No body needed", value: {} },
  } satisfies Examples,
  responses: {
    rejectHeld: { summary: "Failed, with the reason as error; funds returned", value: payoutRecord(true, "failed", true, "Beneficiary details do not match the invoice") },
  },
  errors: {
    404: payoutNotFound,
    409: invalidPayoutState(DEMO.processingPayout, "processing", "pending_approval", "rejected"),
    422: payoutValidation,
  },
};

export const COMPLETE = {
  params: payoutParams("completeProcessing", DEMO.processingPayout, "The demo's payout held processing", DEMO.heldPayout, "A payout still pending_approval"),
  body: noReason(["completeProcessing", "notFound", "invalidState"]),
  responses: { completeProcessing: { summary: "Completed now", value: payoutRecord(false, "completed", true, null) } },
  errors: {
    404: payoutNotFound,
    409: invalidPayoutState(DEMO.heldPayout, "pending_approval", "processing", "completed"),
    422: payoutValidation,
  },
};

export const FAIL = {
  params: payoutParams("failProcessing", DEMO.processingPayout, "The demo's payout held processing", DEMO.heldPayout, "A payout still pending_approval"),
  body: {
    failProcessing: { summary: "Fail with the bank's reason", value: { reason: "Beneficiary account is dormant" } },
    notFound: { summary: "No body needed", value: {} },
    invalidState: { summary: "No body needed", value: {} },
  } satisfies Examples,
  responses: {
    failProcessing: { summary: "Failed now, with the reason as error; funds returned", value: payoutRecord(false, "failed", true, "Beneficiary account is dormant") },
  },
  errors: {
    404: payoutNotFound,
    409: invalidPayoutState(DEMO.heldPayout, "pending_approval", "processing", "failed"),
    422: payoutValidation,
  },
};

// ---- VTU -----------------------------------------------------------------------------------------

const VTU_COMMON = `
- \`reference\`: the purchase's \`reference\` (from the purchase response), of the calling merchant; else 404.
- A purchase that is not \`processing\` (already \`success\` or \`fail\`) gets 409 \`INVALID_STATE\` naming its state.
- Answers with the VTU transaction record at the top level, as GET /api/v1/vtu/transaction/status shows it
  (\`status\` capitalised).
- No webhook is sent: VTU purchases have none. Poll the status endpoint.

A purchase stays \`processing\` in the sandbox when an outcome rule (\`vtu\`: \`processing\`, \`processing_success\`,
\`processing_fail\`) or a magic phone, smart card or meter number says so: \`08022222222\` / \`08033333333\` settle to
success / fail after \`delays.vtu_settlement_seconds\` (60 by default), \`08055555555\` stays \`processing\` until a
lever settles it. Demo merchant: \`${DEMO.vtu}\` (airtime to 08055555555) is \`processing\` until forced.`.trim();

export const SUCCEED_DESCRIPTION = `
The provider confirms a \`processing\` purchase now: -> \`success\` (record status \`Success\`). An electricity
(Prepaid) purchase gets its token, an exam purchase its pins, at this moment. The settlement timer is cancelled.
No money moves: the wallet was debited at purchase.

${VTU_COMMON}`.trim();

export const FAIL_VTU_DESCRIPTION = `
The provider fails a \`processing\` purchase now: -> \`fail\` (record status \`Failed\`). The amount goes back to the
wallet at once, as one \`vtu_refund\` ledger entry with the purchase's \`transaction_id\`. The settlement timer is
cancelled.

${VTU_COMMON}`.trim();

export const vtuRecord = (status: string) => ({
  success: true,
  reference: DEMO.vtu,
  type: "debit",
  service: "airtime",
  status,
  amount: 500,
  description: "MTN VTU airtime of NGN 500.00 to 08055555555",
  date: AT,
  token: null,
  transaction_id: "TXN_N408IIWLSHCFE7TA",
});

const vtuParams = (name: string): Examples => ({
  [name]: { summary: "The demo's airtime purchase held processing", value: DEMO.vtu },
  notFound: { summary: "No purchase with this reference", value: UNKNOWN_VTU },
});
const vtuErrors = (settled: string) => ({
  404: { notFound: errorExample("No purchase with this reference", "NOT_FOUND", `No VTU transaction with reference ${UNKNOWN_VTU}.`) },
  409: {
    invalidState: errorExample(
      "The purchase is already settled",
      "INVALID_STATE",
      `VTU purchase ${DEMO.vtu} is ${settled}; only a processing purchase can be settled.`,
    ),
  },
});

export const SUCCEED = {
  params: vtuParams("succeedProcessing"),
  responses: { succeedProcessing: { summary: "The purchase, now Success", value: vtuRecord("Success") } },
  errors: vtuErrors("success"),
};

export const FAIL_VTU = {
  params: vtuParams("failProcessing"),
  responses: { failProcessing: { summary: "The purchase, now Failed and refunded", value: vtuRecord("Failed") } },
  errors: vtuErrors("fail"),
};

// ---- POST /sandbox/v1/checkout/{reference}/pay ---------------------------------------------------

export const PAY_DESCRIPTION = `
The customer's bank transfer to a payment link's one-time account, as "I have paid" on its payment page does. A
\`pending\` link becomes \`paid\`: \`paid_at\` is the merchant's current time, the wallet is credited (ledger kind
\`checkout_payment\`) and a \`checkout.completed\` webhook is sent. Answers with the link as GET
/api/v1/checkout/status shows it.

- \`reference\`: the link's \`reference\` (from POST /api/v1/checkout/create), of the calling merchant; else 404.
- \`amount\` (optional, Naira, at most two decimals): what the customer sends. Default (no body, or no \`amount\`):
  the link's exact amount. Any other amount gets 422 \`AMOUNT_MISMATCH\`: the transfer is returned to the payer,
  nothing is credited and the link stays \`pending\`.
- A link already \`paid\`, or \`expired\` (30 minutes after creation, on the merchant's clock), gets 409
  \`INVALID_STATE\` naming that state.

Use it to test the \`checkout.completed\` webhook and the status lookup; with a manual clock, advance 30 minutes
first to test an expired link. Demo merchant: \`${DEMO.checkout}\` (NGN 12,500) is \`pending\`; the demo's clock is
realtime, so in a running sandbox it expires 30 minutes after the sandbox started (then create a new link).`.trim();

export const PAY_PARAMS: Examples = {
  payExact: { summary: "The demo's pending link", value: DEMO.checkout },
  amountMismatch: { summary: "The demo's pending link", value: DEMO.checkout },
  notFound: { summary: "No link with this reference", value: UNKNOWN_LINK },
};

export const PAY_BODY: Examples = {
  payExact: { summary: "The exact amount (the default)", value: {} },
  amountMismatch: { summary: "NGN 12,000 to a link of NGN 12,500", value: { amount: 12000 } },
  notFound: { summary: "The exact amount", value: {} },
};

export const PAY_RESPONSES: Examples = {
  payExact: {
    summary: "The link, paid",
    value: {
      success: true,
      data: demoCheckoutRecord("paid"),
    },
  },
};

export const PAY_ERRORS = {
  404: { notFound: errorExample("No link with this reference", "NOT_FOUND", `No payment link with reference ${UNKNOWN_LINK}.`) },
  409: {
    invalidState: errorExample("The link is already paid, or expired", "INVALID_STATE", `Payment link ${DEMO.checkout} is expired; only a pending link can be paid.`),
  },
  422: {
    amountMismatch: errorExample(
      "Not the link's exact amount: refused and returned, nothing credited",
      "AMOUNT_MISMATCH",
      "This link accepts exactly NGN 12500.00; a transfer of NGN 12000.00 is refused and returned to the payer.",
    ),
    tooManyDecimals: validationError("Amounts have at most two decimals", "amount", "Must have at most two decimal places."),
  },
};

// ---- POST /sandbox/v1/virtual-cards/{id}/spend ---------------------------------------------------

export const SPEND_DESCRIPTION = `
A purchase with a virtual card, as the card network's authorisation would make it (the spec has no spend endpoint:
this lever is how a test makes one). Answers 201 with the card transaction, approved or declined:

- \`success\`: the card is \`active\` and holds the amount, so its balance goes down by \`amount\`. The wallet is not
  touched (the card was funded in advance).
- \`declined\`, with \`decline_reason\` \`Card is frozen\`, \`Card is terminated\` or \`Insufficient card balance\`:
  nothing moves, and the decline is recorded in the card's transactions (GET /api/v1/virtual-cards/{id}/transactions).

- \`id\`: the \`card_id\`, of the calling merchant; else 404 \`NOT_FOUND\`.
- \`amount\`: USD, 0.01 to 100,000, at most two decimals.
- \`merchant_name\` (optional, 1 to 100 characters): who was paid. Default \`AMAZON MKTPLACE\`; the transaction's
  description is \`{merchant_name} purchase\`.

No webhook is sent. Demo merchant: card 1 is \`active\` with USD 100, card 2 is \`frozen\`, card 3 is \`active\` and
empty.`.trim();

export const SPEND_PARAMS: Examples = {
  spend: { summary: "The demo's funded card", value: 1 },
  declinedFrozen: { summary: "The demo's frozen card", value: 2 },
  declinedNoBalance: { summary: "The demo's empty card", value: 3 },
  notFound: { summary: "No such card", value: 99 },
  tooManyDecimals: { summary: "The demo's funded card", value: 1 },
};

export const SPEND_BODY: Examples = {
  spend: { summary: "USD 25.50 at Netflix", value: { amount: 25.5, merchant_name: "NETFLIX.COM" } },
  declinedFrozen: { summary: "USD 25.50 at Netflix", value: { amount: 25.5, merchant_name: "NETFLIX.COM" } },
  declinedNoBalance: { summary: "USD 25.50 at the default merchant", value: { amount: 25.5 } },
  notFound: { summary: "USD 25.50", value: { amount: 25.5 } },
  tooManyDecimals: { summary: "An amount with three decimals", value: { amount: 25.555 } },
};

const cardTxn = (card_id: number, status: string, balance_after: number, merchant_name: string, decline_reason: string | null) => ({
  success: true,
  data: {
    transaction_id: "TXN_66WQ301SA53A0KGZ",
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

export const SPEND_RESPONSES: Examples = {
  spend: { summary: "Approved: the card's balance is now USD 74.50", value: cardTxn(1, "success", 74.5, "NETFLIX.COM", null) },
  declinedFrozen: { summary: "Declined: the card is frozen", value: cardTxn(2, "declined", 0, "NETFLIX.COM", "Card is frozen") },
  declinedNoBalance: { summary: "Declined: the card holds less than the amount", value: cardTxn(3, "declined", 0, "AMAZON MKTPLACE", "Insufficient card balance") },
};

export const SPEND_ERRORS = {
  404: { notFound: errorExample("No card with this id", "NOT_FOUND", "No virtual card 99.") },
  422: { tooManyDecimals: validationError("Amounts have at most two decimals", "amount", "Must have at most two decimal places.") },
};
