/** The handlers of transfers into virtual accounts: arrival, the clear and fail levers, and the payments list. */
import { listVaPayments } from "../../domain/lists.js";
import { toMinor } from "../../domain/money.js";
import { clearVaPayment, failVaPayment, receiveTransfer, vaPaymentView } from "../../domain/va-payments.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function virtualAccountControlRoutes(_deps: Deps) {
  return router()
    .openapi(op.transfer, (c) => {
      const { ctx, state } = tenantOf(c);
      const input = c.req.valid("json");
      const payment = receiveTransfer(ctx, state, { ...input, account_number: c.req.valid("param").account_number, amount: toMinor(input.amount) });
      return c.json(ok(vaPaymentView(payment)), 201);
    })
    .openapi(op.clear, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(ok(vaPaymentView(clearVaPayment(ctx, state, c.req.valid("param").transaction_id))), 200);
    })
    .openapi(op.fail, (c) => c.json(ok(vaPaymentView(failVaPayment(tenantOf(c).state, c.req.valid("param").transaction_id))), 200))
    .openapi(op.list, (c) => {
      const { page, per_page, ...filter } = c.req.valid("query");
      const { items, pagination } = listVaPayments(tenantOf(c).state, filter, { page, per_page });
      return c.json(okFields({ data: items.map(vaPaymentView), pagination }), 200);
    });
}
