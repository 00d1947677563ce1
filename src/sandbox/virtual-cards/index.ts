/** The card levers' handlers: KYC approval and a card spend, each one domain call. */
import { approveKyc, cardholderView, cardTransactionView, spendCard } from "../../domain/cards.js";
import { toMinor } from "../../domain/money.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function virtualCardControlRoutes(_deps: Deps) {
  return router()
    .openapi(op.approve, (c) => c.json(okFields(cardholderView(approveKyc(tenantOf(c).state, c.req.valid("param").id))), 200))
    .openapi(op.spend, (c) => {
      const { ctx, state } = tenantOf(c);
      const input = c.req.valid("json");
      const txn = spendCard(ctx, state, c.req.valid("param").id, toMinor(input.amount), input.merchant_name ?? op.DEFAULT_SPEND_MERCHANT);
      return c.json(ok(cardTransactionView(txn)), 201);
    });
}
