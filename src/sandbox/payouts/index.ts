/** The payout levers' and list's handlers: each a domain transition or query, answered with the status record. */
import { listPayouts } from "../../domain/lists.js";
import { approvePayout, completePayout, failPayout, payoutStatusView, rejectPayout } from "../../domain/payouts.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function payoutControlRoutes(_deps: Deps) {
  return router()
    .openapi(op.approve, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(ok(payoutStatusView(approvePayout(ctx, state, c.req.valid("param").reference))), 200);
    })
    .openapi(op.reject, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(ok(payoutStatusView(rejectPayout(ctx, state, c.req.valid("param").reference, c.req.valid("json").reason))), 200);
    })
    .openapi(op.complete, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(ok(payoutStatusView(completePayout(ctx, state, c.req.valid("param").reference))), 200);
    })
    .openapi(op.fail, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(ok(payoutStatusView(failPayout(ctx, state, c.req.valid("param").reference, c.req.valid("json").reason))), 200);
    })
    .openapi(op.list, (c) => {
      const { page, per_page, ...filter } = c.req.valid("query");
      const { items, pagination } = listPayouts(tenantOf(c).state, filter, { page, per_page });
      return c.json(okFields({ data: items.map(payoutStatusView), pagination }), 200);
    });
}
