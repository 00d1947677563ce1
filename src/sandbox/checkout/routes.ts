/**
 * Payment links in the control API: the customer's transfer to a link (exact amount by default; a paid or
 * expired link is 409 INVALID_STATE), and the paged list. The validity the text states is the one
 * domain/limits.ts enforces; examples are real bodies.
 */
import { z } from "@hono/zod-openapi";
import { amount } from "../../domain/fields.js";
import { CheckoutSchema } from "../../domain/checkout.js";
import { CHECKOUT_VALIDITY_MS, MINUTE } from "../../domain/limits.js";
import { DEMO, demoCheckoutRecord } from "../../http/demo-examples.js";
import { errorExample, examples, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, validationError } from "../errors.js";
import { badStatus, codes, fromAfterTo, listDescription, listFields, listQuery, listRoute, pageOf, timeRange } from "../lists.js";

const route = routes({ tags: ["Sandbox"] });

const UNKNOWN_LINK = "CHK_0000000000000000";
const VALIDITY = `${CHECKOUT_VALIDITY_MS / MINUTE} minutes`;

export const pay = route({
  method: "post",
  path: "/checkout/{reference}/pay",
  operationId: "payCheckout",
  summary: "The customer's transfer to a payment link (default: the exact amount)",
  description: `
The customer's bank transfer to a payment link's one-time account, as "I have paid" on its payment page does. A
\`pending\` link becomes \`paid\`: \`paid_at\` is the merchant's current time, the wallet is credited (ledger kind
\`checkout_payment\`) and a \`checkout.completed\` webhook is sent. Answers with the link as GET
/api/v1/checkout/status shows it.

- \`reference\`: the link's \`reference\` (from POST /api/v1/checkout/create), of the calling merchant; else 404.
- \`amount\` (optional, Naira, at most two decimals): what the customer sends. Default (no body, or no \`amount\`):
  the link's exact amount. Any other amount gets 422 \`AMOUNT_MISMATCH\`: the transfer is returned to the payer,
  nothing is credited and the link stays \`pending\`.
- A link already \`paid\`, or \`expired\` (${VALIDITY} after creation, on the merchant's clock), gets 409
  \`INVALID_STATE\` naming that state.

Use it to test the \`checkout.completed\` webhook and the status lookup; with a manual clock, advance ${VALIDITY}
first to test an expired link. Demo merchant: \`${DEMO.checkout}\` (NGN 12,500) is \`pending\`; the demo's clock is
realtime, so in a running sandbox it expires ${VALIDITY} after the sandbox started (then create a new link).`.trim(),
  request: {
    params: z.object({
      reference: examples(z.string().min(1).max(100), {
        payExact: { summary: "The demo's pending link", value: DEMO.checkout },
        amountMismatch: { summary: "The demo's pending link", value: DEMO.checkout },
        notFound: { summary: "No link with this reference", value: UNKNOWN_LINK },
      }),
    }),
    body: {
      required: false,
      content: {
        "application/json": {
          schema: z.object({ amount: amount({ min: 0.01, max: 1e10 }).optional() }).openapi("PayLink"),
          examples: {
            payExact: { summary: "The exact amount (the default)", value: {} },
            amountMismatch: { summary: "NGN 12,000 to a link of NGN 12,500", value: { amount: 12000 } },
            notFound: { summary: "The exact amount", value: {} },
          },
        },
      },
    },
  },
  responses: {
    200: json(Success({ data: CheckoutSchema }), "The paid link (as GET /api/v1/checkout/status)", {
      payExact: { summary: "The link, paid", value: { success: true, data: demoCheckoutRecord("paid") } },
    }),
    ...controlErrors({
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
    }),
  },
});

/** A link's status as a reader sees it now: `expired` is derived from the merchant's clock. */
const STATUSES = CheckoutSchema.shape.status.options;
const pendingPage = pageOf([demoCheckoutRecord("pending")]);

export const list = listRoute({
  path: "/checkout",
  operationId: "listCheckouts",
  summary: "List the merchant's payment links, newest first (paged; filter by status, time, reference)",
  description:
    listDescription(
      "payment links",
      "GET /api/v1/checkout/status (with `payment_link` and `checkout_url`)",
      `${codes(STATUSES)}, as a reader sees it now: \`expired\` is derived from the merchant's clock, ${VALIDITY} after creation.`,
    ) + `\n\nDemo merchant: \`${DEMO.checkout}\` (NGN 12,500) is \`pending\` (on its realtime clock, until ${VALIDITY} after the sandbox started).`,
  query: listQuery(
    listFields(STATUSES, "Links", {
      page: { newest: { summary: "The first page", value: 1 } },
      status: {
        pending: { summary: "Links waiting for their customer", value: "pending" },
        nonePaid: { summary: "Paid links (the demo has none)", value: "paid" },
      },
      ...timeRange("today", "Links created on 2 March 2026 (the demo's day)"),
      reference: { byReference: { summary: "The link with this reference", value: DEMO.checkout } },
    }),
  ),
  item: CheckoutSchema,
  responses: {
    newest: { summary: "Every link, newest first", value: pendingPage },
    pending: { summary: "The pending link", value: pendingPage },
    nonePaid: { summary: "No link: an empty page", value: pageOf([]) },
    today: { summary: "The links of that day", value: pendingPage },
    byReference: { summary: "The link", value: pendingPage },
  },
  errors: { 422: { badStatus: badStatus(STATUSES), fromAfterTo } },
});
