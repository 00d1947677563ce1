/** The request log's handlers: a filtered page, one entry whole with its links, and clearing. */
import { listRequests, requestLogView, requestSummaryView, requestView } from "../../domain/request-log-views.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function requestLogRoutes({ store }: Deps) {
  return router()
    .openapi(op.list, (c) => {
      const { page, per_page, ...filter } = c.req.valid("query");
      const log = tenantOf(c).tenant.requestLog;
      const { items, pagination } = listRequests(log, filter, { page, per_page });
      return c.json(okFields({ data: items.map(requestSummaryView), pagination, log: requestLogView(log) }), 200);
    })
    .openapi(op.getOne, (c) => {
      const { seq } = c.req.valid("param");
      const { tenant } = tenantOf(c);
      const entry = tenant.requestLog.get(seq);
      if (!entry) throw new ApiError("NOT_FOUND", op.notInLog(seq, tenant.requestLog));
      return c.json(ok(requestView(entry, tenant.state)), 200);
    })
    .openapi(op.clear, async (c) => {
      // Through the store: a shared one clears the log for every process.
      const clearing = store.clearRequestLog(tenantOf(c).tenant);
      const count = typeof clearing === "number" ? clearing : await clearing;
      return c.json(okFields({ message: op.cleared(count) }), 200);
    });
}
