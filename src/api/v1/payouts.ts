import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bankList, verifyAccount } from "../../domain/name-enquiry.js";
import { toMinor } from "../../domain/money.js";
import { admitPayoutAttempt } from "../../domain/attempt-caps.js";
import { PayoutSchema, PayoutStatusSchema, createPayout, payoutStatusView, payoutView, readPayoutStatus } from "../../domain/payouts.js";
import { requireCapability } from "../../http/capability.js";
import type { AppEnv } from "../../http/env.js";
import { body, errors, examples, json, security } from "../../http/openapi.js";
import { amount, digits, text } from "../../domain/fields.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";
import * as docs from "./payouts-docs.js";

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


const payouts = requireCapability("payouts");

/** Counts the attempt before validation: the spec's caps count attempts, accepted or refused. */
const payoutAttempts: MiddlewareHandler<AppEnv> = async function payoutAttempts(c, next) {
  const tenant = c.get("tenant");
  admitPayoutAttempt(contextOf(tenant), tenant.state, c.get("clientIp"), tenant.clock.settings());
  await next();
};

const banks = createRoute({
  method: "get",
  path: "/banks",
  tags: ["Payouts"],
  operationId: "listBanks",
  summary: "Banks payouts can be sent to",
  description: docs.BANKS_DESCRIPTION,
  security,
  middleware: [payouts] as const,
  responses: {
    200: json(
      z.object({ success: z.literal(true), data: z.array(z.object({ bank_code: z.string(), bank_name: z.string() })) }),
      "The bank list",
      docs.BANKS_RESPONSE_EXAMPLES,
    ),
    ...errors(docs.BANKS_ERRORS),
  },
});

const verify = createRoute({
  method: "post",
  path: "/verify-account",
  tags: ["Payouts"],
  operationId: "verifyAccount",
  summary: "Resolve an account name (name enquiry)",
  description: docs.VERIFY_DESCRIPTION,
  security,
  middleware: [payouts] as const,
  request: body(VerifyAccount, docs.VERIFY_BODY_EXAMPLES),
  responses: {
    200: json(
      z.object({ success: z.literal(true), data: z.object({ account_number: z.string(), account_name: z.string(), bank_code: z.string() }) }),
      "The verified account",
      docs.VERIFY_RESPONSE_EXAMPLES,
    ),
    ...errors(docs.VERIFY_ERRORS),
  },
});

const transfer = createRoute({
  method: "post",
  path: "/transfer",
  tags: ["Payouts"],
  operationId: "createPayout",
  summary: "Send money to a bank account",
  description: docs.TRANSFER_DESCRIPTION,
  security,
  middleware: [payouts, payoutAttempts] as const,
  request: body(Transfer, docs.TRANSFER_BODY_EXAMPLES),
  responses: {
    201: json(z.object({ success: z.literal(true), message: z.string(), data: PayoutSchema }), "The payout, debited at once", docs.TRANSFER_RESPONSE_EXAMPLES),
    ...errors(docs.TRANSFER_ERRORS),
  },
});

const status = createRoute({
  method: "get",
  path: "/status",
  tags: ["Payouts"],
  operationId: "getPayoutStatus",
  summary: "Status of a payout",
  description: docs.STATUS_DESCRIPTION,
  security,
  middleware: [payouts] as const,
  request: { query: z.object({ reference: examples(z.string().min(1).max(100), docs.STATUS_PARAM_EXAMPLES) }) },
  responses: {
    200: json(z.object({ success: z.literal(true), data: PayoutStatusSchema }), "The full payout record", docs.STATUS_RESPONSE_EXAMPLES),
    ...errors(docs.STATUS_ERRORS),
  },
});

export function payoutRoutes() {
  return router()
    .openapi(banks, (c) => c.json({ success: true as const, data: bankList(contextOf(c.get("tenant"))) }, 200))
    .openapi(verify, (c) => {
      const { bank_code, account_number } = c.req.valid("json");
      return c.json({ success: true as const, data: verifyAccount(contextOf(c.get("tenant")), c.get("tenant").state, bank_code, account_number) }, 200);
    })
    .openapi(transfer, (c) => {
      const tenant = c.get("tenant");
      const input = c.req.valid("json");
      const payout = createPayout(contextOf(tenant), tenant.state, { ...input, amount: toMinor(input.amount), client_ip: c.get("clientIp") });
      const message = payout.status === "pending_approval" ? "Transfer is awaiting approval" : "Transfer is processing";
      return c.json({ success: true as const, message, data: payoutView(payout) }, 201);
    })
    .openapi(status, (c) => {
      const { payout, counted } = readPayoutStatus(contextOf(c.get("tenant")), c.get("tenant").state, c.req.valid("query").reference);
      if (counted) c.set("stateChanged", true);
      return c.json({ success: true as const, data: payoutStatusView(payout) }, 200);
    });
}
