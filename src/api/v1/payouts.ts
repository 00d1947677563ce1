import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bankList, verifyAccount } from "../../domain/name-enquiry.js";
import { toMinor } from "../../domain/money.js";
import { admitPayoutAttempt } from "../../domain/attempt-caps.js";
import { createPayout, findPayout, payoutStatusView, payoutView } from "../../domain/payouts.js";
import { requireCapability } from "../../http/capability.js";
import type { AppEnv } from "../../http/env.js";
import { body, errors, json, security } from "../../http/openapi.js";
import { amount, digits, isoTime, text } from "../../domain/fields.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";

const bankCode = z.string().trim().regex(/^\d{3,6}$/, { message: "Must be a bank code from GET /api/v1/payout/banks." });

const VerifyAccount = z.object({ bank_code: bankCode, account_number: digits(10) }).openapi("VerifyAccount");

const Transfer = z
  .object({
    amount: amount({ min: 0.01 }),
    bank_code: bankCode,
    account_number: digits(10),
    account_name: text(200),
    bank_name: text(200),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[\w.\-:/]+$/, { message: "Use letters, digits and - _ . : / only." })
      .optional(),
    narration: z.string().trim().max(200).optional(),
  })
  .openapi("PayoutTransfer");

const PayoutRecord = z.object({
  reference: z.string(),
  amount: z.number(),
  fee: z.number(),
  total_deducted: z.number(),
  net_amount: z.number(),
  order_no: z.string(),
  status: z.enum(["pending", "pending_approval", "processing", "completed", "failed"]).openapi({
    description: "The spec's payout states. `pending` (created, not yet sent) is the real service's; the sandbox never returns it.",
  }),
  account: z.string().openapi({ description: "**** followed by the last 4 digits" }),
  account_name: z.string(),
  bank_name: z.string(),
  narration: z.string().nullable(),
  created_at: isoTime,
});
const Payout = PayoutRecord.openapi("Payout");
const PayoutStatus = PayoutRecord.extend({
  processed_at: isoTime.nullable(),
  source: z.string(),
  error: z.string().nullable(),
}).openapi("PayoutStatus");

const payouts = requireCapability("payouts");

/** Counts the attempt before validation: the spec's caps count attempts, accepted or refused. */
const payoutAttempts: MiddlewareHandler<AppEnv> = async function payoutAttempts(c, next) {
  admitPayoutAttempt(contextOf(c.var.tenant), c.var.tenant.state, c.var.clientIp);
  await next();
};

const banks = createRoute({
  method: "get",
  path: "/banks",
  tags: ["Payouts"],
  summary: "Banks payouts can be sent to",
  security,
  middleware: [payouts] as const,
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.array(z.object({ bank_code: z.string(), bank_name: z.string() })) }), "The bank list"),
    ...errors(),
  },
});

const verify = createRoute({
  method: "post",
  path: "/verify-account",
  tags: ["Payouts"],
  summary: "Resolve an account name (name enquiry)",
  security,
  middleware: [payouts] as const,
  request: body(VerifyAccount),
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.object({ account_number: z.string(), account_name: z.string(), bank_code: z.string() }) }), "The verified account"),
    ...errors(400, 415, 422),
  },
});

const transfer = createRoute({
  method: "post",
  path: "/transfer",
  tags: ["Payouts"],
  summary: "Send money to a bank account",
  security,
  middleware: [payouts, payoutAttempts] as const,
  request: body(Transfer),
  responses: { 201: json(z.object({ success: z.literal(true), message: z.string(), data: Payout }), "The payout, debited at once"), ...errors(400, 409, 415, 422) },
});

const status = createRoute({
  method: "get",
  path: "/status",
  tags: ["Payouts"],
  summary: "Status of a payout",
  security,
  middleware: [payouts] as const,
  request: { query: z.object({ reference: z.string().min(1).max(100) }) },
  responses: { 200: json(z.object({ success: z.literal(true), data: PayoutStatus }), "The full payout record"), ...errors(404, 422) },
});

export function payoutRoutes() {
  return router()
    .openapi(banks, (c) => c.json({ success: true as const, data: bankList(contextOf(c.var.tenant)) }, 200))
    .openapi(verify, (c) => {
      const { bank_code, account_number } = c.req.valid("json");
      return c.json({ success: true as const, data: verifyAccount(contextOf(c.var.tenant), c.var.tenant.state, bank_code, account_number) }, 200);
    })
    .openapi(transfer, (c) => {
      const tenant = c.var.tenant;
      const input = c.req.valid("json");
      const payout = createPayout(contextOf(tenant), tenant.state, { ...input, amount: toMinor(input.amount), client_ip: c.var.clientIp });
      const message = payout.status === "pending_approval" ? "Transfer is awaiting approval" : "Transfer is processing";
      return c.json({ success: true as const, message, data: payoutView(payout) }, 201);
    })
    .openapi(status, (c) => {
      const payout = findPayout(c.var.tenant.state, c.req.valid("query").reference);
      return c.json({ success: true as const, data: payoutStatusView(payout) }, 200);
    });
}
