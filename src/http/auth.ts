/**
 * Authentication: `X-Api-Key` + `X-Api-Secret` resolve the tenant once per request; the secret is
 * compared in constant time (SHA-256 of both, so lengths never leak either). Then the merchant's IP
 * allowlist and its general per-minute limit (on the wall clock). Sets `c.var.tenant`, and nothing else ever does.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { admit } from "../domain/attempt-caps.js";
import { MINUTE } from "../domain/limits.js";
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import { resolveClientIp } from "./client-ip.js";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Compared against when the key is unknown, so both paths do the same work. */
const DECOY_SECRET = "sk_test_decoy_never_matches_anything";

/** The merchant whose key and secret these are, or undefined; the same work whether the key is known or not. */
export function merchantOf(registry: Registry, apiKey: string, apiSecret: string): Tenant | undefined {
  const tenant = registry.findByApiKey(apiKey);
  const matches = secretsEqual(apiSecret, tenant?.config.api_secret ?? DECOY_SECRET);
  return tenant && matches ? tenant : undefined;
}

/**
 * `accountRules: false` (the control API) checks the credentials only: a merchant's own allowlist or
 * request cap must never lock it out of the levers that change them.
 */
export const requireMerchant = (opts: { registry: Registry; trustProxy: boolean; accountRules: boolean }): MiddlewareHandler<AppEnv> =>
  async function requireMerchant(c, next) {
    const apiKey = c.req.header("x-api-key");
    const apiSecret = c.req.header("x-api-secret");
    if (!apiKey || !apiSecret) {
      throw new ApiError("MISSING_CREDENTIALS", "Send both X-Api-Key and X-Api-Secret headers.");
    }
    const tenant = merchantOf(opts.registry, apiKey, apiSecret);
    if (!tenant) {
      throw new ApiError("INVALID_CREDENTIALS", "The API key and secret do not match an active account.");
    }
    const ip = resolveClientIp(c, opts.trustProxy);
    c.set("clientIp", ip);
    c.set("tenant", tenant);
    if (!opts.accountRules) return next();
    const { ip_allowlist, limits } = tenant.config;
    if (ip_allowlist.length > 0 && !ip_allowlist.includes(ip)) {
      throw new ApiError("IP_NOT_WHITELISTED", `Requests from ${ip} are not allowed for this account.`);
    }
    // Wall-clock time, whatever the merchant's clock: a cap on a manual clock would never free up by waiting.
    admit(tenant.requestTimes, opts.registry.wall(), MINUTE, limits.requests_per_minute, "RATE_LIMITED",
      `Too many requests: at most ${limits.requests_per_minute} per minute for this account.`);
    await next();
  };
