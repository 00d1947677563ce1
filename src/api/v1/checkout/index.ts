/** The payment links' handlers: links point at the configured public URL, else the request's origin. */
import { checkoutCreatedView, checkoutStatusView, createCheckout, findCheckout } from "../../../domain/checkout.js";
import { toMinor } from "../../../domain/money.js";
import { baseUrl } from "../../../http/base-url.js";
import type { Deps } from "../../../http/deps.js";
import { tenantOf, ok } from "../../../http/route.js";
import { router } from "../../../http/validation.js";
import * as op from "./routes.js";

export function checkoutRoutes(deps: Deps) {
  return router()
    .openapi(op.create, (c) => {
      const { ctx, state } = tenantOf(c);
      const input = c.req.valid("json");
      const checkout = createCheckout(ctx, state, { ...input, amount: toMinor(input.amount) });
      return c.json(checkoutCreatedView(baseUrl(deps.publicUrl, c.req.url), checkout), 200);
    })
    .openapi(op.status, (c) => {
      const { tenant, state } = tenantOf(c);
      const checkout = findCheckout(state, c.req.valid("query").reference);
      return c.json(ok(checkoutStatusView(baseUrl(deps.publicUrl, c.req.url), checkout, tenant.clock.now())), 200);
    });
}
