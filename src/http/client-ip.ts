import type { Context } from "hono";
import type { AppEnv } from "./env.js";

/**
 * The caller's address: the socket's remote address; the first `X-Forwarded-For` hop only when the
 * sandbox is told it sits behind a proxy (otherwise any caller could claim any IP).
 */
export function resolveClientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return normaliseIp(forwarded);
  }
  const address = c.env?.incoming?.socket?.remoteAddress;
  return address ? normaliseIp(address) : "unknown";
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one caller. */
export function normaliseIp(ip: string): string {
  const lower = ip.toLowerCase();
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice(7) : lower;
}
