/**
 * Control levers for tests and demos: the wallet, its ledger and KYC approval (transfers into virtual
 * accounts are in va-payments.ts). Each goes through the same domain functions as the API, so a lever
 * can never put a merchant into a state the real service could not reach.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { approveKyc, CardholderResponse, cardholderView } from "../domain/cards.js";
import { ledgerEntryView } from "../domain/ledger.js";
import { toMinor } from "../domain/money.js";
import { fundWallet, walletView } from "../domain/wallet.js";
import { body, examples, json, security } from "../http/openapi.js";
import { amount, isoTime, text } from "../domain/fields.js";
import { pathId } from "../http/schemas.js";
import { router } from "../http/validation.js";
import { contextOf } from "../engine/tenant.js";
import { controlErrors } from "./errors.js";
import * as docs from "./levers-docs.js";

const tags = ["Sandbox"];

const fund = createRoute({
  method: "post",
  path: "/wallet/fund",
  tags,
  operationId: "fundWallet",
  summary: "Credit the wallet (a ledger entry of kind wallet_funding)",
  description: docs.FUND_DESCRIPTION,
  security,
  request: body(z.object({ amount: amount({ min: 0.01, max: 1e11 }), description: text(200).optional() }).openapi("FundWallet"), docs.FUND_BODY_EXAMPLES),
  responses: {
    200: json(
      z.object({ success: z.literal(true), data: z.object({ balance: z.number(), currency: z.literal("NGN"), updated_at: isoTime, transaction_id: z.string() }) }),
      "The new balance",
      docs.FUND_RESPONSE_EXAMPLES,
    ),
    ...controlErrors(docs.FUND_ERRORS),
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
  operationId: "listLedgerEntries",
  summary: "The wallet's append-only ledger, oldest first",
  description: docs.LEDGER_DESCRIPTION,
  security,
  responses: { 200: json(z.object({ success: z.literal(true), data: z.array(LedgerEntry) }), "Every ledger entry", docs.LEDGER_RESPONSE_EXAMPLES), ...controlErrors() },
});

const approve = createRoute({
  method: "post",
  path: "/cardholders/{id}/approve",
  tags,
  operationId: "approveCardholder",
  summary: "Approve a PENDING cardholder's KYC now",
  description: docs.APPROVE_DESCRIPTION,
  security,
  request: { params: z.object({ id: examples(pathId, docs.APPROVE_PARAM_EXAMPLES) }) },
  responses: {
    200: json(CardholderResponse, "The cardholder (fields at the top level)", docs.APPROVE_RESPONSE_EXAMPLES),
    ...controlErrors(docs.APPROVE_ERRORS),
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
    });
}
