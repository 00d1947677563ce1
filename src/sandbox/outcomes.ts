/** Outcome rules: per-merchant overrides of how the next matching objects end. */
import { createRoute, z } from "@hono/zod-openapi";
import { activeUntil, addRule, clearRules, deleteRule, OUTCOMES, type OutcomeRule } from "../domain/outcomes.js";
import { MAX_DELAY_SECONDS, MAX_RESPONSE_DELAY_SECONDS, MAX_STATUS_QUERIES } from "../domain/bounds.js";
import { ruleMatch } from "../domain/records.js";
import { body, examples, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { contextOf } from "../engine/tenant.js";
import { isoTime } from "../domain/fields.js";
import { controlErrors } from "./errors.js";
import * as docs from "./outcomes-docs.js";

const tags = ["Sandbox"];
const targets = Object.keys(OUTCOMES) as [keyof typeof OUTCOMES, ...Array<keyof typeof OUTCOMES>];

const RuleInput = z
  .object({
    target: z.enum(targets, { message: `Must be one of: ${targets.join(", ")}.` }),
    match: ruleMatch.optional()
      .openapi({ description: "Field values the request or object must have, e.g. { \"account_number\": \"0123456789\" }" }),
    outcome: z.string().min(1).max(40).openapi({ description: Object.entries(OUTCOMES).map(([t, o]) => `${t}: ${o.join(" | ")}`).join("; ") }),
    delay_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_DELAY_SECONDS)
      .optional()
      .openapi({ description: `Sim seconds before the object settles; for targets response and verify_account, wall-clock seconds the answer is held back (at most ${MAX_RESPONSE_DELAY_SECONDS})` }),
    times: z.number().int().min(1).max(1_000_000).optional().openapi({ description: "Uses before the rule is removed; default: until deleted" }),
    window_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_DELAY_SECONDS)
      .optional()
      .openapi({ description: "Sim seconds from now (the merchant's clock) during which the rule applies; default: until deleted" }),
    queries: z
      .number()
      .int()
      .min(1)
      .max(MAX_STATUS_QUERIES)
      .optional()
      .openapi({ description: "payout completed or failed, vtu processing_success or processing_fail: the object stays processing and settles on its Nth status read (instead of delay_seconds)" }),
  })
  .openapi("OutcomeRuleInput");

const Rule = z
  .object({
    id: z.string(),
    target: z.string(),
    match: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
    outcome: z.string(),
    delay_seconds: z.number().nullable(),
    times: z.number().nullable(),
    window_seconds: z.number().nullable(),
    queries: z.number().nullable(),
    created_at: isoTime,
    active_until: isoTime.nullable().openapi({ description: "When the rule's window ends (created_at + window_seconds), or null: until deleted" }),
  })
  .openapi("OutcomeRule");

const iso = (ms: number) => new Date(ms).toISOString();
const ruleView = (r: OutcomeRule) => {
  const until = activeUntil(r);
  return { ...r, created_at: iso(r.created_at), active_until: until === null ? null : iso(until) };
};

const Deleted = z.object({ success: z.literal(true), message: z.string() });

const create = createRoute({
  method: "post",
  path: "/outcomes",
  tags,
  security,
  operationId: "createOutcomeRule",
  summary: "Add an outcome rule (the newest matching rule wins)",
  description: docs.CREATE_DESCRIPTION,
  request: body(RuleInput, docs.CREATE_BODY_EXAMPLES),
  responses: {
    201: json(z.object({ success: z.literal(true), data: Rule }), "The rule", docs.CREATE_RESPONSE_EXAMPLES),
    ...controlErrors(docs.CREATE_ERRORS),
  },
});
const list = createRoute({
  method: "get",
  path: "/outcomes",
  tags,
  security,
  operationId: "listOutcomeRules",
  summary: "List the merchant's outcome rules, oldest first",
  description: docs.LIST_DESCRIPTION,
  responses: { 200: json(z.object({ success: z.literal(true), data: z.array(Rule) }), "The rules", docs.LIST_RESPONSE_EXAMPLES), ...controlErrors() },
});
const removeOne = createRoute({
  method: "delete",
  path: "/outcomes/{id}",
  tags,
  security,
  operationId: "deleteOutcomeRule",
  summary: "Delete one outcome rule",
  description: docs.DELETE_DESCRIPTION,
  request: { params: z.object({ id: examples(z.string().max(40), docs.DELETE_PARAM_EXAMPLES) }) },
  responses: { 200: json(Deleted, "Deleted", docs.DELETE_RESPONSE_EXAMPLES), ...controlErrors(docs.DELETE_ERRORS) },
});
const removeAll = createRoute({
  method: "delete",
  path: "/outcomes",
  tags,
  security,
  operationId: "deleteOutcomeRules",
  summary: "Delete all of the merchant's outcome rules",
  description: docs.CLEAR_DESCRIPTION,
  responses: { 200: json(Deleted, "Deleted", docs.CLEAR_RESPONSE_EXAMPLES), ...controlErrors() },
});

export function outcomeRoutes() {
  return router()
    .openapi(create, (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: ruleView(addRule(contextOf(t), t.state, c.req.valid("json"))) }, 201);
    })
    .openapi(list, (c) => c.json({ success: true as const, data: c.var.tenant.state.outcomeRules.map(ruleView) }, 200))
    .openapi(removeOne, (c) => {
      deleteRule(c.var.tenant.state, c.req.valid("param").id);
      return c.json({ success: true as const, message: "Outcome rule deleted" }, 200);
    })
    .openapi(removeAll, (c) => {
      const count = clearRules(c.var.tenant.state);
      return c.json({ success: true as const, message: `${count} outcome rule(s) deleted` }, 200);
    });
}
