/**
 * What the OpenAPI document says about the control API's lists (payouts, VTU purchases, payment
 * links, payments into virtual accounts): descriptions and examples, per named request the query it
 * sends and the page it gets from a fresh demo merchant (see control-docs.ts for the contract).
 */
import { invalidExample, type Examples } from "../http/openapi.js";
import { DEMO, DEMO_PAYMENTS, demoCheckoutRecord } from "../http/demo-examples.js";
import { MAX_PER_PAGE } from "../http/paging.js";
import { payoutRecord, vtuRecord } from "./lifecycle-docs.js";

export interface ListDocs {
  description: string;
  /** Per query field, the value each named request sends. */
  query: Record<string, Examples>;
  responses: Examples;
  errors: Record<number, Examples>;
}

/** The rules every list keeps, after what it lists and how its status reads. */
const listDescription = (what: string, record: string, statuses: string, own = "") => `
The calling merchant's ${what}, **newest first** (the order they were created, the last one first), one page at a
time, for a test or a dashboard to page through. Each item is the record exactly as ${record} shows it. Sandbox
only: the real service has no such endpoint.

Every filter is optional, and every filter given must hold:

- \`status\`: ${statuses} Any other value gets 422 \`VALIDATION_ERROR\` on \`status\`.
- \`from\`, \`to\`: ISO 8601 times with their zone (\`2026-03-02T09:00:00Z\`), on the merchant's clock: only records
  created at or after \`from\` and at or before \`to\` (both ends included). A \`to\` before \`from\` gets 422 on \`to\`.
- \`reference\`: only records whose \`reference\` is exactly this (case and spaces as stored; URL-encode it, \`+\`
  included), 1 to 500 characters.${own}
- \`page\` (from 1, default 1) and \`per_page\` (1 to ${MAX_PER_PAGE}, default 20). \`pagination\` gives \`current_page\`,
  \`per_page\`, \`total_pages\` and \`total\` (the records that pass the filters). A page past the last is empty, with
  the totals. Anything else gets 422 on \`page\` or \`per_page\`.`.trim();

// A refused query is documented by its answer only: a request example must fit the parameter's schema
// (Spectral and Redocly check it), and a bad status or page size does not.

/** One page of `items`, `total` of them in all. */
const pageOf = (items: unknown[], total = items.length, current_page = 1, per_page = 20) => ({
  success: true,
  data: items,
  pagination: { current_page, per_page, total_pages: Math.ceil(total / per_page), total },
});

const TODAY = { from: "2026-03-02T00:00:00Z", to: "2026-03-02T23:59:59Z" };
const timeRange = (name: string, summary: string) => ({
  from: { [name]: { summary, value: TODAY.from }, fromAfterTo: { summary: "The start of a range that ends before it", value: "2026-03-03T00:00:00Z" } },
  to: { [name]: { summary, value: TODAY.to }, fromAfterTo: { summary: "An end before the start", value: TODAY.from } },
});
const fromAfterTo = invalidExample("A time range whose end is before its start", { to: ["Must not be before from."] });
const badStatus = (values: string) => invalidExample("A status this list does not have", { status: [`Must be one of: ${values}.`] });

// ---- GET /sandbox/v1/payouts -----------------------------------------------------------------------

const PAYOUT_STATUSES = "pending, pending_approval, processing, completed, failed";
const processing = payoutRecord(false, "processing", false, null).data;
const held = payoutRecord(true, "pending_approval", false, null).data;

export const PAYOUTS: ListDocs = {
  description: listDescription(
    "payouts",
    "GET /api/v1/payout/status",
    `one of the payout states, \`${PAYOUT_STATUSES.split(", ").join("`, `")}\` (\`pending\` is the spec's; the sandbox never holds a payout in it, so it lists none).`,
  ) + `\n\nDemo merchant: \`${DEMO.processingPayout}\` (\`processing\`) and, before it, \`${DEMO.heldPayout}\` (\`pending_approval\`).`,
  query: {
    page: { newest: { summary: "The first page", value: 1 }, pageTwo: { summary: "The second page", value: 2 } },
    per_page: { pageTwo: { summary: "One payout per page", value: 1 } },
    status: { processing: { summary: "Payouts still processing", value: "processing" } },
    ...timeRange("today", "Payouts created on 2 March 2026 (the demo's day)"),
    reference: { byReference: { summary: "The payout with this reference", value: DEMO.heldPayout } },
  },
  responses: {
    newest: { summary: "Every payout, newest first", value: pageOf([processing, held]) },
    pageTwo: { summary: "The second of two pages of one", value: pageOf([held], 2, 2, 1) },
    processing: { summary: "The one processing payout", value: pageOf([processing]) },
    today: { summary: "The payouts of that day", value: pageOf([processing, held]) },
    byReference: { summary: "The payout held for review", value: pageOf([held]) },
  },
  errors: {
    422: {
      badStatus: badStatus(PAYOUT_STATUSES),
      fromAfterTo,
      tooManyPerPage: invalidExample("A page larger than 100", { per_page: [`Must be a whole number from 1 to ${MAX_PER_PAGE}.`] }),
    },
  },
};

// ---- GET /sandbox/v1/vtu ---------------------------------------------------------------------------

const VTU_STATUSES = "success, processing, fail, Success, Processing, Failed";

export const VTU: ListDocs = {
  description: listDescription(
    "VTU purchases (airtime, data, cable TV, electricity, exam pins)",
    "GET /api/v1/vtu/transaction/status (fields at the top level of each item, `success` included)",
    "`success`, `processing` or `fail` as the purchase answers them, or `Success`, `Processing` or `Failed` as the record shows them (the same three states).",
  ) + `\n\nDemo merchant: \`${DEMO.vtu}\` (airtime to 08055555555) is \`Processing\`.`,
  query: {
    page: { newest: { summary: "The first page", value: 1 } },
    status: {
      processing: { summary: "Purchases still processing", value: "processing" },
      recordSpelling: { summary: "The same, as the record spells it", value: "Processing" },
      noneFailed: { summary: "Failed purchases (the demo has none)", value: "Failed" },
    },
    reference: { byReference: { summary: "The purchase with this reference", value: DEMO.vtu } },
  },
  responses: {
    newest: { summary: "Every purchase, newest first", value: pageOf([vtuRecord("Processing")]) },
    processing: { summary: "The processing purchase", value: pageOf([vtuRecord("Processing")]) },
    recordSpelling: { summary: "The processing purchase", value: pageOf([vtuRecord("Processing")]) },
    noneFailed: { summary: "No purchase: an empty page", value: pageOf([]) },
    byReference: { summary: "The purchase", value: pageOf([vtuRecord("Processing")]) },
  },
  errors: { 422: { badStatus: badStatus(VTU_STATUSES) } },
};

// ---- GET /sandbox/v1/checkout ----------------------------------------------------------------------

export const CHECKOUTS: ListDocs = {
  description: listDescription(
    "payment links",
    "GET /api/v1/checkout/status (with `payment_link` and `checkout_url`)",
    "`pending`, `paid` or `expired`, as a reader sees it now: `expired` is derived from the merchant's clock, 30 minutes after creation.",
  ) + `\n\nDemo merchant: \`${DEMO.checkout}\` (NGN 12,500) is \`pending\` (on its realtime clock, until 30 minutes after the sandbox started).`,
  query: {
    page: { newest: { summary: "The first page", value: 1 } },
    status: {
      pending: { summary: "Links waiting for their customer", value: "pending" },
      nonePaid: { summary: "Paid links (the demo has none)", value: "paid" },
    },
    ...timeRange("today", "Links created on 2 March 2026 (the demo's day)"),
    reference: { byReference: { summary: "The link with this reference", value: DEMO.checkout } },
  },
  responses: {
    newest: { summary: "Every link, newest first", value: pageOf([demoCheckoutRecord("pending")]) },
    pending: { summary: "The pending link", value: pageOf([demoCheckoutRecord("pending")]) },
    nonePaid: { summary: "No link: an empty page", value: pageOf([]) },
    today: { summary: "The links of that day", value: pageOf([demoCheckoutRecord("pending")]) },
    byReference: { summary: "The link", value: pageOf([demoCheckoutRecord("pending")]) },
  },
  errors: { 422: { badStatus: badStatus("pending, paid, expired"), fromAfterTo } },
};

// ---- GET /sandbox/v1/virtual-accounts/payments -----------------------------------------------------

export const VA_PAYMENTS: ListDocs = {
  description: listDescription(
    "payments into its virtual accounts (transfers in, at once or pending or processing)",
    "GET /api/v1/transaction/status",
    "`pending`, `processing`, `success` or `failed`, the spec's transaction statuses.",
    `
- \`virtual_account\`: only payments into this account number (10 digits).
- \`transaction_id\`: only the payment with this \`transaction_id\`. It is the key of a payment: the only way to
  find one whose narration (\`reference\`) was empty, which GET /api/v1/transaction/status cannot look up.
  \`reference\` is the payer's narration, compared exactly as sent.`,
  ) + `\n\nDemo merchant: \`Order 1003\` (\`${DEMO.pendingPayment}\`, \`pending\`) and, before it, \`Order 1001\` (\`success\`), both into ${DEMO.virtualAccount}.`,
  query: {
    page: { newest: { summary: "The first page", value: 1 } },
    status: { pending: { summary: "Payments not credited yet", value: "pending" } },
    ...timeRange("today", "Payments on 2 March 2026 (the demo's day)"),
    reference: { byNarration: { summary: "Payments whose narration is exactly this", value: "Order 1001" } },
    virtual_account: {
      byAccount: { summary: "Payments into the demo's account", value: DEMO.virtualAccount },
    },
    transaction_id: { byTransactionId: { summary: "The payment with this transaction_id", value: DEMO.pendingPayment } },
  },
  responses: {
    newest: { summary: "Every payment, newest first", value: pageOf([DEMO_PAYMENTS.pending(), DEMO_PAYMENTS.cleared]) },
    pending: { summary: "The pending payment", value: pageOf([DEMO_PAYMENTS.pending()]) },
    today: { summary: "The payments of that day", value: pageOf([DEMO_PAYMENTS.pending(), DEMO_PAYMENTS.cleared]) },
    byNarration: { summary: "The payment with narration Order 1001", value: pageOf([DEMO_PAYMENTS.cleared]) },
    byAccount: { summary: "Both payments into the account", value: pageOf([DEMO_PAYMENTS.pending(), DEMO_PAYMENTS.cleared]) },
    byTransactionId: { summary: "The one payment", value: pageOf([DEMO_PAYMENTS.pending()]) },
  },
  errors: {
    422: {
      badStatus: badStatus("pending, processing, success, failed"),
      fromAfterTo,
      badAccount: invalidExample("An account number that is not 10 digits", { virtual_account: ["Must be a 10-digit account number."] }),
    },
  },
};
