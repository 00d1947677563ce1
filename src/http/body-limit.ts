/**
 * Request body size caps: the snapshot route's own, the default for every other route. GET and HEAD
 * carry no body and pass untouched.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const SNAPSHOT_LIMIT_BYTES = 5 * 1024 * 1024;
const SNAPSHOT_PATH = "/sandbox/v1/snapshot";

/** 1048576 -> "1 MB", 5.5 MiB -> "5.5 MB"; a cap under a tenth of a MB in bytes. */
export const megabytes = (bytes: number) => (bytes < 104_858 ? `${bytes} bytes` : `${+(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * A cap read from Content-Length when there is one (reading the body stream, as hono's bodyLimit does,
 * is a fifth of a POST's cost: bench/FAST-PATH.md); hono's streaming bodyLimit only for chunked bodies.
 */
function limitTo(maxSize: number, label: string): MiddlewareHandler<AppEnv> {
  const tooLarge = () => {
    throw new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${label}.`);
  };
  // A chunked body cut off mid-stream leaves the connection unusable: say so. The close lingers, so
  // this answer reaches the client (http/connection-limits.ts).
  const streaming = bodyLimit({
    maxSize,
    onError: (c) => {
      c.header("Connection", "close");
      return tooLarge();
    },
  });
  return (c, next) => {
    const length = c.req.header("content-length");
    if (length === undefined) return streaming(c, next);
    return Number(length) > maxSize ? tooLarge() : next();
  };
}

export function bodyLimits(options: { bodyLimitBytes?: number; snapshotLimitBytes?: number }): MiddlewareHandler<AppEnv> {
  const bodyBytes = options.bodyLimitBytes ?? BODY_LIMIT_BYTES;
  const defaultLimit = limitTo(bodyBytes, megabytes(bodyBytes));
  const snapshotBytes = options.snapshotLimitBytes ?? SNAPSHOT_LIMIT_BYTES;
  const snapshotLimit = limitTo(snapshotBytes, `${megabytes(snapshotBytes)} (--snapshot-limit-mb)`);
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return c.req.path === SNAPSHOT_PATH ? snapshotLimit(c, next) : defaultLimit(c, next);
  };
}
