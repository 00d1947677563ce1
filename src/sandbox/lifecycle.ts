/**
 * Levers that move objects through their state machines, as the bank, the provider or an admin
 * would. Each refuses a transition the object's state does not allow with 409 INVALID_STATE.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CardTransactionResponse, cardTransactionView, spendCard } from "../domain/cards.js";
import { checkoutView, payCheckout } from "../domain/checkout.js";
import { toMinor } from "../domain/money.js";
import { approvePayout, completePayout, failPayout, payoutStatusView, rejectPayout } from "../domain/payouts.js";
import { settleVtuNow, vtuRecordView } from "../domain/vtu.js";
import { body, errors, json, security } from "../http/openapi.js";
import { amount, text } from "../domain/fields.js";
import { pathId } from "../http/schemas.js";
import { router } from "../http/validation.js";
import { contextOf } from "../engine/tenant.js";

const tags = ["Sandbox"];
const optionalBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: false, content: { "application/json": { schema } } },
});
const Reason = z.object({ reason: text(200).optional() }).openapi("TransitionReason");
const anyRecord = z.record(z.string(), z.unknown());

const payoutLever = (action: "approve" | "reject" | "complete" | "fail", summary: string) =>
  createRoute({
    method: "post",
    path: `/payouts/{reference}/${action}`,
    tags,
    summary,
    security,
    request: { params: z.object({ reference: z.string().min(1).max(100) }), ...optionalBody(Reason) },
    responses: { 200: json(z.object({ success: z.literal(true), data: anyRecord }), "The payout's full record"), ...errors(404, 409, 415, 422) },
  });

const vtuLever = (action: "succeed" | "fail", summary: string) =>
  createRoute({
    method: "post",
    path: `/vtu/{reference}/${action}`,
    tags,
    summary,
    security,
    request: { params: z.object({ reference: z.string().min(1).max(100) }) },
    responses: { 200: json(anyRecord, "The VTU transaction record (top level, as the status endpoint)"), ...errors(404, 409, 422) },
  });

const payLink = createRoute({
  method: "post",
  path: "/checkout/{reference}/pay",
  tags,
  summary: "The customer's transfer to a payment link (default: the exact amount)",
  security,
  request: {
    params: z.object({ reference: z.string().min(1).max(100) }),
    ...optionalBody(z.object({ amount: amount({ min: 0.01, max: 1e10 }).optional() }).openapi("PayLink")),
  },
  responses: { 200: json(z.object({ success: z.literal(true), data: anyRecord }), "The paid link"), ...errors(404, 409, 415, 422) },
});

const spend = createRoute({
  method: "post",
  path: "/virtual-cards/{id}/spend",
  tags,
  summary: "A purchase with the card (declined and recorded as such on a frozen, terminated or empty card)",
  security,
  request: {
    params: z.object({ id: pathId }),
    ...body(z.object({ amount: amount({ min: 0.01, max: 100_000, currency: "USD" }), merchant_name: text(100).optional() }).openapi("CardSpend")),
  },
  responses: { 201: json(z.object({ success: z.literal(true), data: CardTransactionResponse }), "The card transaction (status success or declined)"), ...errors(400, 404, 415, 422) },
});

export function lifecycleRoutes() {
  return router()
    .openapi(payoutLever("approve", "Approve a payout held for review (pending_approval -> processing)"), (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: payoutStatusView(approvePayout(contextOf(t), t.state, c.req.valid("param").reference)) }, 200);
    })
    .openapi(payoutLever("reject", "Reject a held payout (pending_approval -> failed, funds returned)"), (c) => {
      const t = c.var.tenant;
      const payout = rejectPayout(contextOf(t), t.state, c.req.valid("param").reference, c.req.valid("json").reason);
      return c.json({ success: true as const, data: payoutStatusView(payout) }, 200);
    })
    .openapi(payoutLever("complete", "Bank confirms delivery now (processing -> completed)"), (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: payoutStatusView(completePayout(contextOf(t), t.state, c.req.valid("param").reference)) }, 200);
    })
    .openapi(payoutLever("fail", "Bank reports failure now (processing -> failed, funds returned)"), (c) => {
      const t = c.var.tenant;
      const payout = failPayout(contextOf(t), t.state, c.req.valid("param").reference, c.req.valid("json").reason);
      return c.json({ success: true as const, data: payoutStatusView(payout) }, 200);
    })
    .openapi(vtuLever("succeed", "Provider confirms a processing purchase (-> success)"), (c) => {
      const t = c.var.tenant;
      return c.json(vtuRecordView(settleVtuNow(contextOf(t), t.state, c.req.valid("param").reference, "success")), 200);
    })
    .openapi(vtuLever("fail", "Provider fails a processing purchase (-> fail, refunded)"), (c) => {
      const t = c.var.tenant;
      return c.json(vtuRecordView(settleVtuNow(contextOf(t), t.state, c.req.valid("param").reference, "fail")), 200);
    })
    .openapi(payLink, (c) => {
      const t = c.var.tenant;
      const ctx = contextOf(t);
      const sent = c.req.valid("json").amount;
      const checkout = payCheckout(ctx, t.state, c.req.valid("param").reference, sent === undefined ? undefined : toMinor(sent));
      return c.json({ success: true as const, data: checkoutView(checkout, ctx.now) }, 200);
    })
    .openapi(spend, (c) => {
      const t = c.var.tenant;
      const input = c.req.valid("json");
      const txn = spendCard(contextOf(t), t.state, c.req.valid("param").id, toMinor(input.amount), input.merchant_name ?? "AMAZON MKTPLACE");
      return c.json({ success: true as const, data: cardTransactionView(txn) }, 201);
    });
}
