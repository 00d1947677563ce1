/**
 * Bounds on work anyone can ask for: the open routes (sign-up, scenario loads) take at most N
 * requests per client IP per rolling minute, on the wall clock (they belong to no merchant clock).
 * (JSON bodies may nest only so deep: json-only.ts.)
 */
import type { MiddlewareHandler } from "hono";
import { forgetIdleAddresses, keepAddress } from "../domain/attempt-caps.js";
import { resolveClientIp } from "./client-ip.js";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

const MINUTE = 60_000;
/** Client addresses whose windows are kept per quota; past it the least recently admitted is forgotten. */
export const MAX_QUOTA_ADDRESSES = 10_000;

/**
 * `perMinute` requests per client IP per rolling minute; 0 = no quota. At most `maxAddresses` addresses
 * are counted at once (forgetIdleAddresses: idle ones go first), so callers claiming ever new addresses
 * (IPv6 makes them cheap; X-Forwarded-For behind --trust-proxy makes them free) cost bounded memory.
 */
export function perIpQuota(opts: { perMinute: number; what: string; trustProxy: boolean; now?: () => number; maxAddresses?: number }): MiddlewareHandler<AppEnv> {
  const now = opts.now ?? Date.now;
  const maxAddresses = opts.maxAddresses ?? MAX_QUOTA_ADDRESSES;
  const windows = new Map<string, number[]>();
  return async function perIpQuota(c, next) {
    if (opts.perMinute <= 0) return next();
    const ip = resolveClientIp(c, opts.trustProxy);
    const t = now();
    forgetIdleAddresses(windows, t, MINUTE);
    const window = windows.get(ip) ?? [];
    while (window.length > 0 && window[0]! <= t - MINUTE) window.shift();
    if (window.length >= opts.perMinute) {
      const retryAfter = Math.max(1, Math.ceil((window[0]! + MINUTE - t) / 1000));
      throw new ApiError("QUOTA_EXCEEDED", `At most ${opts.perMinute} ${opts.what} per minute from one address (${ip}); retry in ${retryAfter} s.`, { retry_after: retryAfter });
    }
    window.push(t);
    keepAddress(windows, ip, window, maxAddresses);
    await next();
  };
}
