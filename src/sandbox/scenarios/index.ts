/**
 * The scenario load's handler: the scenario (the YAML text of a file, a JSON document, or
 * `{ "yaml": "<the file's text>" }`) becomes new merchants of the running sandbox, all or none; its
 * steps are not run here (`merchant-sandbox run` does). Every problem is answered at once.
 */
import { DomainError } from "../../domain/errors.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { bodyTooDeep } from "../../http/json-only.js";
import { ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import { loadScenario, parseScenario, ScenarioError, validateScenario, type ScenarioProblem } from "../../scenarios/load.js";
import type { Scenario } from "../../scenarios/schema.js";
import { isYamlMediaType } from "../../scenarios/yaml-text.js";
import { assertWebhookTarget } from "../webhook-target.js";
import * as op from "./routes.js";

const SOURCE = "request body";

export function scenarioRoutes({ registry, commits, shared }: Deps) {
  return router().openapi(op.load, async (c) => {
    const body = c.req.valid("json");
    const yamlBody = isYamlMediaType(c.req.header("content-type"));
    let loaded;
    try {
      const scenario = yamlBody
        ? parseScenario(await c.req.text(), SOURCE)
        : typeof body.yaml === "string"
          ? parseScenario(body.yaml, SOURCE)
          : validateScenario(body, SOURCE);
      assertWebhookTargets(scenario, shared);
      loaded = loadScenario(registry, scenario, { source: SOURCE, seededKeys: false, fixedKeys: !shared });
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err;
      throw refusal(err, yamlBody);
    }
    // Arms realtime clocks and saves each new merchant before the reply.
    await commits.created([...loaded.merchants.values()]);
    const merchants = Object.fromEntries(
      [...loaded.merchants].map(([alias, t]) => {
        const { merchant_id, api_key, api_secret, webhook_secret } = t.config;
        return [alias, { merchant_id, api_key, api_secret, webhook_secret }];
      }),
    );
    return c.json(ok({ name: loaded.scenario.name, merchants, objects: loaded.vars as Record<string, string | number> }), 201);
  });
}

/** With --shared, every merchant's webhook_url that points inside the sandbox's network, all at once. */
function assertWebhookTargets(scenario: Scenario, shared: boolean): void {
  const problems: ScenarioProblem[] = [];
  for (const [alias, m] of Object.entries(scenario.merchants)) {
    try {
      assertWebhookTarget(m.webhook_url, shared, `merchants.${alias}.webhook_url`);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      for (const [path, details] of Object.entries(err.details.errors ?? {})) problems.push(...details.map((detail) => ({ path, detail })));
    }
  }
  if (problems.length > 0) throw new ScenarioError(SOURCE, problems);
}

/**
 * A scenario refused, in the envelope. YAML posted as such that does not parse is malformed (400, as
 * malformed JSON is), and nested too deep it gets JSON's answer; the `yaml` field of a JSON body that
 * does not parse is an invalid field. Anything else is a VALIDATION_ERROR with each problem under its
 * path in `errors` ("body" for the whole document).
 */
function refusal(err: ScenarioError, yamlBody: boolean): Error {
  if (yamlBody && err.kind === "depth") return bodyTooDeep();
  if (err.kind === "syntax") {
    const lines = err.problems.map((p) => (p.path ? `${p.path}: ${p.detail}` : p.detail));
    const first = `${lines[0]}${lines.length > 1 ? ` (and ${lines.length - 1} more in errors)` : ""}`;
    return yamlBody
      ? new ApiError("INVALID_YAML", `The request body is not valid YAML: ${first}`, { errors: { body: lines } })
      : new DomainError("VALIDATION_ERROR", `The scenario is invalid: not valid YAML: ${first}`, { errors: { yaml: lines } });
  }
  const errors = new Map<string, string[]>();
  for (const p of err.problems) errors.set(p.path || "body", [...(errors.get(p.path || "body") ?? []), p.detail]);
  const message = err.problems.length === 1 ? err.detail : `${err.problems.length} problems, each under its path in errors.`;
  return new DomainError("VALIDATION_ERROR", `The scenario is invalid: ${message}`, { errors: Object.fromEntries(errors) });
}
