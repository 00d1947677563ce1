import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

/**
 * Request bodies are JSON. A body sent with another media type (a form post, text/plain) is refused
 * with 415 rather than read as an empty object and reported as missing fields.
 */
export const jsonOnly = (): MiddlewareHandler<AppEnv> =>
  async function jsonOnly(c, next) {
    // Headers only: touching c.req.raw would make the node adapter build a full Request per call.
    const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.header("content-length") !== "0";
    const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (hasBody && type && !/^application\/([\w.-]+\+)?json$/.test(type)) {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", `Request bodies must be JSON (Content-Type: application/json), not ${type}.`);
    }
    await next();
  };
