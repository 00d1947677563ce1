/**
 * Control levers for tests and demos. Each goes through the same domain functions as the API, so a
 * lever can never put a merchant into a state the real service could not reach.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { approveKyc, CardholderResponse, cardholderView } from "../domain/cards.js";
import { ledgerEntryView } from "../domain/ledger.js";
import { toMinor } from "../domain/money.js";
import { receiveTransfer, TransactionStatus, vaPaymentView } from "../domain/virtual-accounts.js";
import { fundWallet, walletView } from "../domain/wallet.js";
import { body, errors, json, security } from "../http/openapi.js";
import { amount, isoTime, text } from "../domain/fields.js";
import { pathId } from "../http/schemas.js";
import { router } from "../http/validation.js";
import { contextOf } from "../engine/tenant.js";

const tags = ["Sandbox"];

const fund = createRoute({
  method: "post",
  path: "/wallet/fund",
  tags,
  summary: "Credit the wallet (a ledger entry of kind wallet_funding)",
  security,
  request: body(z.object({ amount: amount({ min: 0.01, max: 1e11 }), description: text(200).optional() }).openapi("FundWallet")),
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.object({ balance: z.number(), currency: z.literal("NGN"), updated_at: isoTime, transaction_id: z.string() }) }), "The new balance"),
    ...errors(400, 415, 422),
  },
});

const LedgerEntry = z
  .object({
    entry_id: z.number().int(),
    kind: z.string(),
    type: z.enum(["credit", "debit"]),
    amount: z.number(),
    balance_after: z.number(),
    transaction_id: z.string(),
    description: z.string(),
    created_at: isoTime,
  })
  .openapi("LedgerEntry");

const ledger = createRoute({
  method: "get",
  path: "/wallet/ledger",
  tags,
  summary: "The wallet's append-only ledger, oldest first",
  security,
  responses: { 200: json(z.object({ success: z.literal(true), data: z.array(LedgerEntry) }), "Every ledger entry"), ...errors() },
});

const approve = createRoute({
  method: "post",
  path: "/cardholders/{id}/approve",
  tags,
  summary: "Approve a cardholder's KYC",
  security,
  request: { params: z.object({ id: pathId }) },
  responses: {
    200: json(CardholderResponse, "The cardholder"),
    ...errors(404, 409, 422),
  },
});

const transfer = createRoute({
  method: "post",
  path: "/virtual-accounts/{account_number}/transfers",
  tags,
  summary: "Simulate a bank transfer into a virtual account (credited at once)",
  security,
  request: {
    params: z.object({ account_number: z.string().max(20) }),
    ...body(
      z
        .object({
          amount: amount({ min: 0.01, max: 1e10 }),
          narration: text(200).optional().openapi({ description: "The payer's narration; becomes the payment's reference" }),
          payer_name: text(100).optional(),
          payer_bank: text(100).optional(),
        })
        .openapi("SimulateTransfer"),
    ),
  },
  responses: {
    201: json(z.object({ success: z.literal(true), data: TransactionStatus }), "The payment"),
    ...errors(400, 404, 415, 422),
  },
});

export function leverRoutes() {
  return router()
    .openapi(fund, (c) => {
      const tenant = c.var.tenant;
      const ctx = contextOf(tenant);
      const input = c.req.valid("json");
      const entry = fundWallet(ctx, tenant.state, toMinor(input.amount), input.description);
      return c.json({ success: true as const, data: { ...walletView(ctx, tenant.state), transaction_id: entry.transaction_id } }, 200);
    })
    .openapi(ledger, (c) => c.json({ success: true as const, data: c.var.tenant.state.ledger.map(ledgerEntryView) }, 200))
    .openapi(approve, (c) => {
      const cardholder = approveKyc(c.var.tenant.state, c.req.valid("param").id);
      return c.json({ success: true as const, ...cardholderView(cardholder) }, 200);
    })
    .openapi(transfer, (c) => {
      const tenant = c.var.tenant;
      const input = c.req.valid("json");
      const payment = receiveTransfer(contextOf(tenant), tenant.state, {
        ...input,
        account_number: c.req.valid("param").account_number,
        amount: toMinor(input.amount),
      });
      return c.json({ success: true as const, data: vaPaymentView(payment) }, 201);
    });
}
