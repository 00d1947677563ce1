import type { Context } from "hono";
import { isIP } from "node:net";
import { normaliseIp } from "../domain/fields.js";
import type { AppEnv } from "./env.js";

/**
 * The caller's address: the socket's remote address; the first `X-Forwarded-For` hop only when the
 * sandbox is told it sits behind a proxy (otherwise any caller could claim any IP). Normalised as
 * allowlist entries are (`::ffff:127.0.0.1` is `127.0.0.1`), so the two always compare alike.
 */
export function resolveClientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    // The first hop is the client's own claim: only an address is taken, anything else is ignored.
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded && isIP(forwarded)) return normaliseIp(forwarded);
  }
  const address = c.env?.incoming?.socket?.remoteAddress;
  return address ? normaliseIp(address) : "unknown";
}
