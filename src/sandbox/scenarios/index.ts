/**
 * The scenario load's handler: the scenario (JSON, or `{ "yaml": "<the file's text>" }`) becomes new
 * merchants of the running sandbox, all or none; its steps are not run here (`merchant-sandbox run` does).
 */
import { DomainError } from "../../domain/errors.js";
import type { Deps } from "../../http/deps.js";
import { ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import { loadScenario, parseScenario, ScenarioError, validateScenario } from "../../scenarios/load.js";
import { assertWebhookTarget } from "../webhook-target.js";
import * as op from "./routes.js";

export function scenarioRoutes({ registry, afterChange, shared }: Deps) {
  return router().openapi(op.load, async (c) => {
    const body = c.req.valid("json");
    let loaded;
    try {
      const scenario = typeof body.yaml === "string" ? parseScenario(body.yaml, "request body") : validateScenario(body, "request body");
      for (const [alias, m] of Object.entries(scenario.merchants)) assertWebhookTarget(m.webhook_url, shared, `merchants.${alias}.webhook_url`);
      loaded = loadScenario(registry, scenario, { source: "request body", seededKeys: false, fixedKeys: !shared });
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err;
      throw new DomainError("VALIDATION_ERROR", `The scenario is invalid: ${err.detail}`, { errors: { [err.path || "body"]: [err.detail] } });
    }
    // Arms realtime clocks and saves each new merchant before the reply.
    await Promise.all([...loaded.merchants.values()].map(afterChange));
    const merchants = Object.fromEntries(
      [...loaded.merchants].map(([alias, t]) => {
        const { merchant_id, api_key, api_secret, webhook_secret } = t.config;
        return [alias, { merchant_id, api_key, api_secret, webhook_secret }];
      }),
    );
    return c.json(ok({ name: loaded.scenario.name, merchants, objects: loaded.vars as Record<string, string | number> }), 201);
  });
}
