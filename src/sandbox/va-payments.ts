/**
 * Transfers into virtual accounts, as the payer's bank would send them: the transfer itself (at once,
 * or pending or processing to end later on the merchant's clock), and the levers that end a pending
 * or processing one now. All through the domain's va-payments.ts, as a scenario's timeline is.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { MAX_NARRATION } from "../domain/bounds.js";
import { amount, text } from "../domain/fields.js";
import { toMinor } from "../domain/money.js";
import {
  TransactionStatus,
  TransferArrivalFields,
  clearVaPayment,
  failVaPayment,
  receiveTransfer,
  refineArrival,
  vaPaymentView,
} from "../domain/va-payments.js";
import { contextOf } from "../engine/tenant.js";
import { body, examples, json, security, type Examples } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { controlErrors } from "./errors.js";
import * as docs from "./va-payments-docs.js";

const tags = ["Sandbox"];
const Payment = z.object({ success: z.literal(true), data: TransactionStatus });

const SimulateTransfer = z
  .object({
    amount: amount({ min: 0.01, max: 1e10 }),
    // Verbatim: no trim, and empty is allowed (blank narrations are common).
    narration: z
      .string({ message: "Must be a string." })
      .max(MAX_NARRATION, { message: `Must be at most ${MAX_NARRATION} characters.` })
      .optional()
      .openapi({ description: "The payer's narration, kept exactly as sent (empty and spaces included); becomes the payment's reference" }),
    payer_name: text(100).optional(),
    payer_bank: text(100).optional(),
    ...TransferArrivalFields,
  })
  .superRefine(refineArrival)
  .openapi("SimulateTransfer");

const transfer = createRoute({
  method: "post",
  path: "/virtual-accounts/{account_number}/transfers",
  tags,
  operationId: "simulateTransferIn",
  summary: "Simulate a customer's bank transfer into a virtual account (credited at once, or pending or processing)",
  description: docs.TRANSFER_DESCRIPTION,
  security,
  request: {
    params: z.object({ account_number: examples(z.string().max(20), docs.TRANSFER_PARAM_EXAMPLES) }),
    ...body(SimulateTransfer, docs.TRANSFER_BODY_EXAMPLES),
  },
  responses: {
    201: json(Payment, "The payment", docs.TRANSFER_RESPONSE_EXAMPLES),
    ...controlErrors(docs.TRANSFER_ERRORS),
  },
});

interface LeverDocs {
  params: Examples;
  responses: Examples;
  errors: Parameters<typeof controlErrors>[0];
}

const lever = (action: "clear" | "fail", operationId: string, summary: string, description: string, d: LeverDocs) =>
  createRoute({
    method: "post",
    path: `/virtual-accounts/payments/{transaction_id}/${action}`,
    tags,
    operationId,
    summary,
    description,
    security,
    request: { params: z.object({ transaction_id: examples(z.string().min(1).max(100), d.params) }) },
    responses: {
      200: json(Payment, "The payment's transaction status record (as GET /api/v1/transaction/status)", d.responses),
      ...controlErrors(d.errors),
    },
  });

export function vaPaymentRoutes() {
  return router()
    .openapi(transfer, (c) => {
      const tenant = c.var.tenant;
      const input = c.req.valid("json");
      const payment = receiveTransfer(contextOf(tenant), tenant.state, {
        ...input,
        account_number: c.req.valid("param").account_number,
        amount: toMinor(input.amount),
      });
      return c.json({ success: true as const, data: vaPaymentView(payment) }, 201);
    })
    .openapi(lever("clear", "clearVirtualAccountPayment", "The payer's bank confirms a pending or processing transfer now (-> success, credited)", docs.CLEAR_DESCRIPTION, docs.CLEAR), (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: vaPaymentView(clearVaPayment(contextOf(t), t.state, c.req.valid("param").transaction_id)) }, 200);
    })
    .openapi(lever("fail", "failVirtualAccountPayment", "A pending or processing transfer fails now (-> failed, never credited)", docs.FAIL_DESCRIPTION, docs.FAIL), (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: vaPaymentView(failVaPayment(t.state, c.req.valid("param").transaction_id)) }, 200);
    });
}
