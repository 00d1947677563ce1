import type { Context, MiddlewareHandler } from "hono";
import { HonoRequest } from "hono/request";
import { MAX_JSON_DEPTH } from "../domain/bounds.js";
import { nestsDeeperThan } from "../domain/json-depth.js";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;
/** A Content-Type's media type: its parameters off, lower-cased. */
export const mediaTypeOf = (header: string): string => header.split(";")[0]!.trim().toLowerCase();
/** Whether a Content-Type is JSON's, as hono's validator decides whether to read a body as JSON. */
export const isJsonType = (header: string): boolean => JSON_TYPE.test(mediaTypeOf(header));

// Hono caches a body's text but parses it again on every `json()`: the depth check here and the route's
// validator would parse each body twice. One parse per request, shared (both only read it).
const parseJson = HonoRequest.prototype.json;
HonoRequest.prototype.json = function json(this: HonoRequest) {
  return (this.bodyCache.json ??= parseJson.call(this));
};

/** A route's bodies beside JSON (read by its own handler), and its 415 for a type it does not take either. */
export interface BodiesBesideJson {
  accepts: (type: string) => boolean;
  refused: (type: string) => string;
}
/** Routes that take other bodies beside JSON, by their full path. */
export type OtherBodies = ReadonlyMap<string, BodiesBesideJson>;
const JSON_ONLY: OtherBodies = new Map();

/**
 * Request bodies are JSON, nested at most MAX_JSON_DEPTH levels. A body sent with another media type (a
 * form post, text/plain) is refused with 415 rather than read as an empty object and reported as missing
 * fields (a route of `others` also takes what it lists, and answers its own 415); malformed JSON is left
 * to the validator to report. One middleware for both checks, and a GET
 * passes straight through (every frame in front of the handlers costs each request: bench/FAST-PATH.md).
 */
export const jsonBodies = (others: OtherBodies = JSON_ONLY, max = MAX_JSON_DEPTH): MiddlewareHandler<AppEnv> =>
  async function jsonBodies(c, next) {
    await checkJsonBody(c, max, others);
    await next();
  };

/** A body nested past the bound: the answer for JSON, and for the YAML a scenario may be posted as. */
export const bodyTooDeep = (max = MAX_JSON_DEPTH) =>
  new ApiError("VALIDATION_ERROR", `The request body nests deeper than ${max} levels.`, { errors: { body: [`Must nest at most ${max} levels deep.`] } });

/** The checks of jsonBodies, for a pipeline that runs its stages in one frame; nothing to wait for on a GET. */
export function checkJsonBody(c: Context<AppEnv>, max = MAX_JSON_DEPTH, others: OtherBodies = JSON_ONLY): Promise<void> | undefined {
  // Headers only: touching c.req.raw would make the node adapter build a full Request per call.
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.header("content-length") === "0") return undefined;
  const header = c.req.header("content-type");
  // The type nearly every client sends needs none of the parsing below.
  if (header !== "application/json") {
    const type = header === undefined ? undefined : mediaTypeOf(header);
    if (type && !JSON_TYPE.test(type)) {
      const other = others.get(c.req.path);
      if (other?.accepts(type)) return undefined;
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", other ? other.refused(type) : `Request bodies must be JSON (Content-Type: application/json), not ${type}.`);
    }
    if (!/json/i.test(header ?? "")) return undefined;
  }
  return c.req.json().then(
    (body: unknown) => {
      if (nestsDeeperThan(body, max)) throw bodyTooDeep(max);
    },
    () => undefined, // malformed JSON: the validator reports it (the parse is cached: it reads the same one)
  );
}
