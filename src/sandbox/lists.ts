/**
 * Paged, filtered lists of a merchant's payouts, VTU purchases, payment links and payments into its
 * virtual accounts, for tests and dashboards. Sandbox only: the real service has no such endpoints.
 * Each item is the record as the API's own status endpoint shows it.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { MAX_NARRATION } from "../domain/bounds.js";
import { CheckoutSchema, checkoutStatusView } from "../domain/checkout.js";
import { listCheckouts, listPayouts, listVaPayments, listVtuPurchases } from "../domain/lists.js";
import { PAYOUT_STATUSES } from "../domain/records.js";
import { PayoutStatusSchema, payoutStatusView } from "../domain/payouts.js";
import { TransactionStatus, vaPaymentView } from "../domain/va-payments.js";
import { VtuTransactionSchema, vtuRecordView } from "../domain/vtu.js";
import { contextOf } from "../engine/tenant.js";
import { baseUrl } from "../http/base-url.js";
import { examples, json, security, type Examples } from "../http/openapi.js";
import { Pagination, pagingFields } from "../http/paging.js";
import { router } from "../http/validation.js";
import { controlErrors } from "./errors.js";
import * as docs from "./lists-docs.js";

const tags = ["Sandbox"];

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `Must be one of: ${values.join(", ")}.` });
const time = (edge: string) =>
  z.iso
    .datetime({ offset: true, message: "Must be an ISO 8601 time with its zone, e.g. 2026-03-02T09:00:00Z." })
    .transform((t) => Date.parse(t))
    .openapi({ description: `Only records created at or ${edge} this time (ISO 8601, the merchant's clock).` });

/** Per query field, the value each named example request sends (a field an example leaves out is not sent). */
type QueryExamples = Record<string, Examples>;

/** The fields every list's query takes: paging, its status values, the time range and reference. */
function listFields<const S extends readonly [string, ...string[]]>(statuses: S, what: string, named: QueryExamples) {
  const ex = (field: string) => named[field] ?? {};
  const { page, per_page } = pagingFields(what);
  return {
    page: examples(page, ex("page")),
    per_page: examples(per_page, ex("per_page")),
    status: examples(oneOf(statuses).optional(), ex("status")),
    from: examples(time("after").optional(), ex("from")),
    to: examples(time("before").optional(), ex("to")),
    reference: examples(
      z
        .string()
        .min(1, { message: "Must not be empty: leave reference out to list every record." })
        .max(MAX_NARRATION, { message: `Must be at most ${MAX_NARRATION} characters.` })
        .optional()
        .openapi({ description: "Only records with exactly this reference (case and spaces as stored)." }),
      ex("reference"),
    ),
  };
}

/** A time range has its start first. */
const startsFirst = (q: { from?: number; to?: number }) => q.from === undefined || q.to === undefined || q.from <= q.to;
const START_FIRST = { message: "Must not be before from.", path: ["to"] };

const page = <T extends z.ZodType>(item: T) => z.object({ success: z.literal(true), data: z.array(item), pagination: Pagination });

const listRoute = <Q extends z.ZodObject, R extends z.ZodType>(path: string, operationId: string, summary: string, d: docs.ListDocs, query: Q, item: R) =>
  createRoute({
    method: "get",
    path,
    tags,
    operationId,
    summary,
    description: d.description,
    security,
    request: { query },
    responses: { 200: json(page(item), "A page of records, newest first", d.responses), ...controlErrors(d.errors) },
  });

/** VTU statuses as the purchase answers them and as the record shows them; both name the stored one. */
const VTU_STATUS = { success: "success", processing: "processing", fail: "fail", Success: "success", Processing: "processing", Failed: "fail" } as const;

const payouts = listRoute(
  "/payouts",
  "listPayouts",
  "List the merchant's payouts, newest first (paged; filter by status, time, reference)",
  docs.PAYOUTS,
  z.object(listFields(["pending", ...PAYOUT_STATUSES], "Payouts", docs.PAYOUTS.query)).refine(startsFirst, START_FIRST),
  PayoutStatusSchema,
);
const vtu = listRoute(
  "/vtu",
  "listVtuPurchases",
  "List the merchant's VTU purchases, newest first (paged; filter by status, time, reference)",
  docs.VTU,
  z.object(listFields(["success", "processing", "fail", "Success", "Processing", "Failed"], "Purchases", docs.VTU.query)).refine(startsFirst, START_FIRST),
  VtuTransactionSchema,
);
const checkouts = listRoute(
  "/checkout",
  "listCheckouts",
  "List the merchant's payment links, newest first (paged; filter by status, time, reference)",
  docs.CHECKOUTS,
  z.object(listFields(["pending", "paid", "expired"], "Links", docs.CHECKOUTS.query)).refine(startsFirst, START_FIRST),
  CheckoutSchema,
);
const vaPayments = listRoute(
  "/virtual-accounts/payments",
  "listVirtualAccountPayments",
  "List the payments into the merchant's virtual accounts, newest first (paged; filter by status, time, narration, account, transaction_id)",
  docs.VA_PAYMENTS,
  z
    .object({
      ...listFields(["pending", "processing", "success", "failed"], "Payments", docs.VA_PAYMENTS.query),
      virtual_account: examples(
        z.string().regex(/^\d{10}$/, { message: "Must be a 10-digit account number." }).optional().openapi({ description: "Only payments into this virtual account." }),
        docs.VA_PAYMENTS.query.virtual_account ?? {},
      ),
      transaction_id: examples(
        z.string().min(1, { message: "Must not be empty." }).max(100, { message: "Must be at most 100 characters." }).optional().openapi({
          description: "Only the payment with this transaction_id (the key of a payment whose narration was empty).",
        }),
        docs.VA_PAYMENTS.query.transaction_id ?? {},
      ),
    })
    .refine(startsFirst, START_FIRST),
  TransactionStatus,
);

/** `publicUrl`: the base of the links in payment-link records (as GET /api/v1/checkout/status gives them). */
export function listRoutes(opts: { publicUrl?: string } = {}) {
  return router()
    .openapi(payouts, (c) => {
      const { page, per_page, ...filter } = c.req.valid("query");
      const { items, pagination } = listPayouts(c.var.tenant.state, filter, { page, per_page });
      return c.json({ success: true as const, data: items.map(payoutStatusView), pagination }, 200);
    })
    .openapi(vtu, (c) => {
      const { page, per_page, status, ...filter } = c.req.valid("query");
      const stored = status === undefined ? undefined : VTU_STATUS[status];
      const { items, pagination } = listVtuPurchases(c.var.tenant.state, { ...filter, status: stored }, { page, per_page });
      return c.json({ success: true as const, data: items.map(vtuRecordView), pagination }, 200);
    })
    .openapi(checkouts, (c) => {
      const t = c.var.tenant;
      const now = contextOf(t).now;
      const { page, per_page, ...filter } = c.req.valid("query");
      const { items, pagination } = listCheckouts(t.state, now, filter, { page, per_page });
      const base = baseUrl(opts.publicUrl, c.req.url);
      return c.json({ success: true as const, data: items.map((l) => checkoutStatusView(base, l, now)), pagination }, 200);
    })
    .openapi(vaPayments, (c) => {
      const { page, per_page, ...filter } = c.req.valid("query");
      const { items, pagination } = listVaPayments(c.var.tenant.state, filter, { page, per_page });
      return c.json({ success: true as const, data: items.map(vaPaymentView), pagination }, 200);
    });
}
