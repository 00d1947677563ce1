/** The VTU levers' and list's handlers: the provider's settlement through the domain, and the list query. */
import { listVtuPurchases } from "../../domain/lists.js";
import { settleVtuNow, vtuRecordView } from "../../domain/vtu.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function vtuControlRoutes(_deps: Deps) {
  return router()
    .openapi(op.succeed, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(vtuRecordView(settleVtuNow(ctx, state, c.req.valid("param").reference, "success")), 200);
    })
    .openapi(op.fail, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(vtuRecordView(settleVtuNow(ctx, state, c.req.valid("param").reference, "fail")), 200);
    })
    .openapi(op.list, (c) => {
      const { page, per_page, status, ...filter } = c.req.valid("query");
      const stored = status === undefined ? undefined : op.VTU_STATUS[status];
      const { items, pagination } = listVtuPurchases(tenantOf(c).state, { ...filter, status: stored }, { page, per_page });
      return c.json(okFields({ data: items.map(vtuRecordView), pagination }), 200);
    });
}
