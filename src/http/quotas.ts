/**
 * Bounds on work anyone can ask for: the open routes (sign-up, scenario loads) take at most N
 * requests per client IP per rolling minute, on the wall clock (they belong to no merchant clock).
 * (JSON bodies may nest only so deep: json-only.ts.)
 */
import type { MiddlewareHandler } from "hono";
import { resolveClientIp } from "./client-ip.js";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

const MINUTE = 60_000;

/** `perMinute` requests per client IP per rolling minute; 0 = no quota. */
export function perIpQuota(opts: { perMinute: number; what: string; trustProxy: boolean; now?: () => number }): MiddlewareHandler<AppEnv> {
  const now = opts.now ?? Date.now;
  const windows = new Map<string, number[]>();
  return async function perIpQuota(c, next) {
    if (opts.perMinute <= 0) return next();
    const ip = resolveClientIp(c, opts.trustProxy);
    const t = now();
    let window = windows.get(ip);
    if (!window) {
      // Many callers (IPv6 makes addresses cheap) must not grow this without end: drop idle ones.
      if (windows.size >= 10_000) for (const [key, w] of windows) if (!w.length || w[w.length - 1]! <= t - MINUTE) windows.delete(key);
      windows.set(ip, (window = []));
    }
    while (window.length > 0 && window[0]! <= t - MINUTE) window.shift();
    if (window.length >= opts.perMinute) {
      const retryAfter = Math.max(1, Math.ceil((window[0]! + MINUTE - t) / 1000));
      throw new ApiError("QUOTA_EXCEEDED", `At most ${opts.perMinute} ${opts.what} per minute from one address (${ip}); retry in ${retryAfter} s.`, { retry_after: retryAfter });
    }
    window.push(t);
    await next();
  };
}
