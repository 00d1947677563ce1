/**
 * POST /sandbox/v1/scenarios (no auth, like sign-up): loads a scenario into new merchants of the
 * running sandbox and returns their keys and the scenario's object names. Body: the scenario as
 * JSON, or `{ "yaml": "<the file's text>" }`. Steps are not run here (`merchant-sandbox run` does).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { DomainError } from "../domain/errors.js";
import { json } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { loadScenario, parseScenario, ScenarioError, validateScenario } from "../scenarios/load.js";
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import { assertWebhookTarget } from "./webhook-target.js";
import { openErrors } from "./errors.js";
import * as docs from "./scenarios-docs.js";

const Loaded = z
  .object({
    success: z.literal(true),
    data: z.object({
      name: z.string(),
      merchants: z.record(z.string(), z.object({ merchant_id: z.string(), api_key: z.string(), api_secret: z.string(), webhook_secret: z.string() })),
      objects: z.record(z.string(), z.union([z.string(), z.number()])),
    }),
  })
  .openapi("LoadedScenario");

const load = createRoute({
  method: "post",
  path: "/scenarios",
  tags: ["Sandbox"],
  operationId: "loadScenario",
  summary: "Load a scenario into new merchants and return their keys (no authentication)",
  description: docs.LOAD_DESCRIPTION,
  security: [],
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.record(z.string(), z.unknown()).openapi({ description: "A scenario document, or { yaml: string }" }),
          examples: docs.LOAD_BODY_EXAMPLES,
        },
      },
    },
  },
  responses: { 201: json(Loaded, "The merchants created, with their keys", docs.LOAD_RESPONSE_EXAMPLES), ...openErrors("scenario loads", docs.LOAD_ERRORS) },
});

/** `afterLoad` arms realtime clocks and saves each new merchant before the reply. */
export function scenarioRoutes(registry: Registry, afterLoad: (t: Tenant) => Promise<void>, shared: boolean) {
  return router().openapi(load, async (c) => {
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
    await Promise.all([...loaded.merchants.values()].map(afterLoad));
    const merchants = Object.fromEntries(
      [...loaded.merchants].map(([alias, t]) => {
        const { merchant_id, api_key, api_secret, webhook_secret } = t.config;
        return [alias, { merchant_id, api_key, api_secret, webhook_secret }];
      }),
    );
    return c.json({ success: true as const, data: { name: loaded.scenario.name, merchants, objects: loaded.vars as Record<string, string | number> } }, 201);
  });
}
