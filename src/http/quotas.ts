/**
 * Bounds on work anyone can ask for: the open routes (sign-up, scenario loads) take at most N
 * requests per client IP per rolling minute, on the wall clock (they belong to no merchant clock).
 * A shared store counts them for every process at once (TenantStore.quota), so N holds across them.
 * (JSON bodies may nest only so deep: json-only.ts.)
 */
import type { MiddlewareHandler } from "hono";
import { forgetIdleAddresses, keepAddress } from "../domain/attempt-caps.js";
import type { TenantStore } from "../engine/tenant-store.js";
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
 * With a `store` that counts (a shared one), the store counts instead, under the name `what`.
 */
export function perIpQuota(opts: {
  perMinute: number;
  what: string;
  trustProxy: boolean;
  now?: () => number;
  maxAddresses?: number;
  store?: Pick<TenantStore, "quota">;
}): MiddlewareHandler<AppEnv> {
  const now = opts.now ?? Date.now;
  const maxAddresses = opts.maxAddresses ?? MAX_QUOTA_ADDRESSES;
  const windows = new Map<string, number[]>();
  return async function perIpQuota(c, next) {
    if (opts.perMinute <= 0) return next();
    const ip = resolveClientIp(c, opts.trustProxy);
    const t = now();
    const counting = opts.store?.quota(opts.what, ip, opts.perMinute, t);
    if (counting) {
      const retryAfter = await counting;
      if (retryAfter !== null) throw exceeded(opts, ip, retryAfter);
      return next();
    }
    forgetIdleAddresses(windows, t, MINUTE);
    const window = windows.get(ip) ?? [];
    while (window.length > 0 && window[0]! <= t - MINUTE) window.shift();
    if (window.length >= opts.perMinute) {
      throw exceeded(opts, ip, Math.max(1, Math.ceil((window[0]! + MINUTE - t) / 1000)));
    }
    window.push(t);
    keepAddress(windows, ip, window, maxAddresses);
    await next();
  };
}

const exceeded = (opts: { perMinute: number; what: string }, ip: string, retryAfter: number) =>
  new ApiError("QUOTA_EXCEEDED", `At most ${opts.perMinute} ${opts.what} per minute from one address (${ip}); retry in ${retryAfter} s.`, { retry_after: retryAfter });
