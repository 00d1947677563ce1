/**
 * Levers that move objects through their state machines, as the bank, the provider or an admin
 * would. Each refuses a transition the object's state does not allow with 409 INVALID_STATE.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CardTransactionResponse, cardTransactionView, spendCard } from "../domain/cards.js";
import { CheckoutSchema, checkoutStatusView, payCheckout } from "../domain/checkout.js";
import { toMinor } from "../domain/money.js";
import { PayoutStatusSchema, approvePayout, completePayout, failPayout, payoutStatusView, rejectPayout } from "../domain/payouts.js";
import { VtuTransactionSchema, settleVtuNow, vtuRecordView } from "../domain/vtu.js";
import { body, examples, json, security, type Examples } from "../http/openapi.js";
import { amount, text } from "../domain/fields.js";
import { pathId } from "../http/schemas.js";
import { router } from "../http/validation.js";
import { contextOf } from "../engine/tenant.js";
import { controlErrors } from "./errors.js";
import * as docs from "./lifecycle-docs.js";
import { baseUrl } from "../http/base-url.js";

const tags = ["Sandbox"];
const optionalBody = <T extends z.ZodType>(schema: T, named: Examples) => ({
  body: { required: false, content: { "application/json": { schema, examples: named } } },
});
const Reason = z.object({ reason: text(200).optional() }).openapi("TransitionReason");

const reference = z.string().min(1).max(100);

interface LeverDocs {
  params: Examples;
  body?: Examples;
  responses: Examples;
  errors: Parameters<typeof controlErrors>[0];
}

const payoutLever = (action: "approve" | "reject" | "complete" | "fail", operationId: string, summary: string, description: string, d: LeverDocs) =>
  createRoute({
    method: "post",
    path: `/payouts/{reference}/${action}`,
    tags,
    operationId,
    summary,
    description,
    security,
    request: { params: z.object({ reference: examples(reference, d.params) }), ...optionalBody(Reason, d.body ?? {}) },
    responses: {
      200: json(z.object({ success: z.literal(true), data: PayoutStatusSchema }), "The payout's full record (as GET /api/v1/payout/status)", d.responses),
      ...controlErrors(d.errors),
    },
  });

const vtuLever = (action: "succeed" | "fail", operationId: string, summary: string, description: string, d: LeverDocs) =>
  createRoute({
    method: "post",
    path: `/vtu/{reference}/${action}`,
    tags,
    operationId,
    summary,
    description,
    security,
    request: { params: z.object({ reference: examples(reference, d.params) }) },
    responses: { 200: json(VtuTransactionSchema, "The VTU transaction record (top level, as the status endpoint)", d.responses), ...controlErrors(d.errors) },
  });

const payLink = createRoute({
  method: "post",
  path: "/checkout/{reference}/pay",
  tags,
  operationId: "payCheckout",
  summary: "The customer's transfer to a payment link (default: the exact amount)",
  description: docs.PAY_DESCRIPTION,
  security,
  request: {
    params: z.object({ reference: examples(reference, docs.PAY_PARAMS) }),
    ...optionalBody(z.object({ amount: amount({ min: 0.01, max: 1e10 }).optional() }).openapi("PayLink"), docs.PAY_BODY),
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: CheckoutSchema }), "The paid link (as GET /api/v1/checkout/status)", docs.PAY_RESPONSES),
    ...controlErrors(docs.PAY_ERRORS),
  },
});

const spend = createRoute({
  method: "post",
  path: "/virtual-cards/{id}/spend",
  tags,
  operationId: "spendWithCard",
  summary: "A purchase with the card (declined and recorded as such on a frozen, terminated or empty card)",
  description: docs.SPEND_DESCRIPTION,
  security,
  request: {
    params: z.object({ id: examples(pathId, docs.SPEND_PARAMS) }),
    ...body(z.object({ amount: amount({ min: 0.01, max: 100_000, currency: "USD" }), merchant_name: text(100).optional() }).openapi("CardSpend"), docs.SPEND_BODY),
  },
  responses: {
    201: json(z.object({ success: z.literal(true), data: CardTransactionResponse }), "The card transaction (status success or declined)", docs.SPEND_RESPONSES),
    ...controlErrors(docs.SPEND_ERRORS),
  },
});

/** `publicUrl`: the base of the links in a paid link's record (as GET /api/v1/checkout/status gives them). */
export function lifecycleRoutes(opts: { publicUrl?: string } = {}) {
  return router()
    .openapi(payoutLever("approve", "approvePayout", "Approve a payout held for review (pending_approval -> processing)", docs.APPROVE_DESCRIPTION, docs.APPROVE), (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: payoutStatusView(approvePayout(contextOf(t), t.state, c.req.valid("param").reference)) }, 200);
    })
    .openapi(payoutLever("reject", "rejectPayout", "Reject a held payout (pending_approval -> failed, funds returned)", docs.REJECT_DESCRIPTION, docs.REJECT), (c) => {
      const t = c.var.tenant;
      const payout = rejectPayout(contextOf(t), t.state, c.req.valid("param").reference, c.req.valid("json").reason);
      return c.json({ success: true as const, data: payoutStatusView(payout) }, 200);
    })
    .openapi(payoutLever("complete", "completePayout", "Bank confirms delivery now (processing -> completed)", docs.COMPLETE_DESCRIPTION, docs.COMPLETE), (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: payoutStatusView(completePayout(contextOf(t), t.state, c.req.valid("param").reference)) }, 200);
    })
    .openapi(payoutLever("fail", "failPayout", "Bank reports failure now (processing -> failed, funds returned)", docs.FAIL_DESCRIPTION, docs.FAIL), (c) => {
      const t = c.var.tenant;
      const payout = failPayout(contextOf(t), t.state, c.req.valid("param").reference, c.req.valid("json").reason);
      return c.json({ success: true as const, data: payoutStatusView(payout) }, 200);
    })
    .openapi(vtuLever("succeed", "succeedVtuPurchase", "Provider confirms a processing purchase (-> success)", docs.SUCCEED_DESCRIPTION, docs.SUCCEED), (c) => {
      const t = c.var.tenant;
      return c.json(vtuRecordView(settleVtuNow(contextOf(t), t.state, c.req.valid("param").reference, "success")), 200);
    })
    .openapi(vtuLever("fail", "failVtuPurchase", "Provider fails a processing purchase (-> fail, refunded)", docs.FAIL_VTU_DESCRIPTION, docs.FAIL_VTU), (c) => {
      const t = c.var.tenant;
      return c.json(vtuRecordView(settleVtuNow(contextOf(t), t.state, c.req.valid("param").reference, "fail")), 200);
    })
    .openapi(payLink, (c) => {
      const t = c.var.tenant;
      const ctx = contextOf(t);
      const sent = c.req.valid("json").amount;
      const checkout = payCheckout(ctx, t.state, c.req.valid("param").reference, sent === undefined ? undefined : toMinor(sent));
      return c.json({ success: true as const, data: checkoutStatusView(baseUrl(opts.publicUrl, c.req.url), checkout, ctx.now) }, 200);
    })
    .openapi(spend, (c) => {
      const t = c.var.tenant;
      const input = c.req.valid("json");
      const txn = spendCard(contextOf(t), t.state, c.req.valid("param").id, toMinor(input.amount), input.merchant_name ?? "AMAZON MKTPLACE");
      return c.json({ success: true as const, data: cardTransactionView(txn) }, 201);
    });
}
