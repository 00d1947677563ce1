/** The outcome rules' handlers: each a domain call on the calling merchant's rules. */
import { iso, isoOrNull } from "../../domain/context.js";
import { activeUntil, addRule, clearRules, deleteRule, type OutcomeRule } from "../../domain/outcomes.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

const ruleView = (r: OutcomeRule) => ({ ...r, created_at: iso(r.created_at), active_until: isoOrNull(activeUntil(r)) });

export function outcomeRoutes(_deps: Deps) {
  return router()
    .openapi(op.create, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(ok(ruleView(addRule(ctx, state, c.req.valid("json")))), 201);
    })
    .openapi(op.list, (c) => c.json(ok(tenantOf(c).state.outcomeRules.map(ruleView)), 200))
    .openapi(op.removeOne, (c) => {
      deleteRule(tenantOf(c).state, c.req.valid("param").id);
      return c.json(okFields({ message: op.DELETED_ONE }), 200);
    })
    .openapi(op.removeAll, (c) => c.json(okFields({ message: op.deletedRules(clearRules(tenantOf(c).state)) }), 200));
}
