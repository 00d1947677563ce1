import type { Context, MiddlewareHandler } from "hono";
import { MAX_JSON_DEPTH } from "../domain/bounds.js";
import { nestsDeeperThan } from "../domain/json-depth.js";
import { isYamlMediaType, YAML_MEDIA_TYPES } from "../scenarios/yaml-text.js";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;
/** The one route that also takes YAML, read by its handler: a scenario, posted as the text of its file. */
const YAML_ROUTE = "/sandbox/v1/scenarios";
export const scenarioTypeRefused = (type: string) =>
  `A scenario is posted as JSON or YAML (Content-Type: application/json, ${YAML_MEDIA_TYPES.join(" or ")}), not ${type}.`;

/**
 * Request bodies are JSON, nested at most MAX_JSON_DEPTH levels. A body sent with another media type (a
 * form post, text/plain) is refused with 415 rather than read as an empty object and reported as missing
 * fields; malformed JSON is left to the validator to report. One middleware for both checks, and a GET
 * passes straight through (every frame in front of the handlers costs each request: bench/FAST-PATH.md).
 */
export const jsonBodies = (max = MAX_JSON_DEPTH): MiddlewareHandler<AppEnv> =>
  async function jsonBodies(c, next) {
    await checkJsonBody(c, max);
    await next();
  };

/** A body nested past the bound: the answer for JSON, and for the YAML a scenario may be posted as. */
export const bodyTooDeep = (max = MAX_JSON_DEPTH) =>
  new ApiError("VALIDATION_ERROR", `The request body nests deeper than ${max} levels.`, { errors: { body: [`Must nest at most ${max} levels deep.`] } });

/** The checks of jsonBodies, for a pipeline that runs its stages in one frame; nothing to wait for on a GET. */
export function checkJsonBody(c: Context<AppEnv>, max = MAX_JSON_DEPTH): Promise<void> | undefined {
  // Headers only: touching c.req.raw would make the node adapter build a full Request per call.
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.header("content-length") === "0") return undefined;
  const header = c.req.header("content-type");
  const type = header?.split(";")[0]?.trim().toLowerCase();
  if (type && !JSON_TYPE.test(type)) {
    if (c.req.path === YAML_ROUTE) {
      if (isYamlMediaType(type)) return undefined;
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", scenarioTypeRefused(type));
    }
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", `Request bodies must be JSON (Content-Type: application/json), not ${type}.`);
  }
  if (!/json/i.test(header ?? "")) return undefined;
  return c.req.json().then(
    (body: unknown) => {
      if (nestsDeeperThan(body, max)) throw bodyTooDeep(max);
    },
    () => undefined, // malformed JSON: the validator reports it (the parse is cached: it reads the same one)
  );
}
