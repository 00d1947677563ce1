/** The virtual accounts' handlers. */
import type { z } from "@hono/zod-openapi";
import { findVaPayment, vaPaymentView } from "../../../domain/va-payments.js";
import { createVirtualAccount, findVirtualAccount, virtualAccountView, type VirtualAccountRequest } from "../../../domain/virtual-accounts.js";
import type { Deps } from "../../../http/deps.js";
import { tenantOf, ok } from "../../../http/route.js";
import { router } from "../../../http/validation.js";
import * as op from "./routes.js";

/** The body as the domain takes it: an individual's customer_type filled in, a business without the refused fields. */
function toRequest(body: z.infer<typeof op.CreateVirtualAccount>): VirtualAccountRequest {
  if (body.customer_type === "business") {
    const { bvn: _bvn, nin: _nin, ...rest } = body;
    return rest;
  }
  return { ...body, customer_type: "individual" };
}

export function virtualAccountRoutes(_deps: Deps) {
  return router()
    .openapi(op.create, (c) => {
      const { ctx, state } = tenantOf(c);
      const { account, created } = createVirtualAccount(ctx, state, toRequest(c.req.valid("json")));
      return c.json(ok(virtualAccountView(account), created ? op.MESSAGES.created : op.MESSAGES.exists), 200);
    })
    .openapi(op.getOne, (c) => c.json(ok(virtualAccountView(findVirtualAccount(tenantOf(c).state, c.req.valid("param").account_number))), 200))
    .openapi(op.list, (c) => c.json(ok([...tenantOf(c).state.virtualAccounts.values()].map(virtualAccountView)), 200))
    .openapi(op.status, (c) => c.json(ok(vaPaymentView(findVaPayment(tenantOf(c).state, c.req.valid("query").reference))), 200));
}
