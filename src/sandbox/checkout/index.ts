/** The payment-link lever's and list's handlers; records carry their links at the request's base URL. */
import { checkoutStatusView, payCheckout } from "../../domain/checkout.js";
import { listCheckouts } from "../../domain/lists.js";
import { toMinor } from "../../domain/money.js";
import { baseUrl } from "../../http/base-url.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function checkoutControlRoutes({ publicUrl }: Deps) {
  return router()
    .openapi(op.pay, (c) => {
      const { ctx, state } = tenantOf(c);
      const sent = c.req.valid("json").amount;
      const checkout = payCheckout(ctx, state, c.req.valid("param").reference, sent === undefined ? undefined : toMinor(sent));
      return c.json(ok(checkoutStatusView(baseUrl(publicUrl, c.req.url), checkout, ctx.now)), 200);
    })
    .openapi(op.list, (c) => {
      const { ctx, state } = tenantOf(c);
      const { page, per_page, ...filter } = c.req.valid("query");
      const { items, pagination } = listCheckouts(state, ctx.now, filter, { page, per_page });
      const base = baseUrl(publicUrl, c.req.url);
      return c.json(okFields({ data: items.map((l) => checkoutStatusView(base, l, ctx.now)), pagination }), 200);
    });
}
