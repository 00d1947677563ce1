/**
 * Authentication: `X-Api-Key` + `X-Api-Secret` resolve the tenant once per request; the secret is
 * compared in constant time (SHA-256 of both, so lengths never leak either). Then the merchant's IP
 * allowlist and its general per-minute limit (on the wall clock). Sets `c.var.tenant`, and nothing else ever does.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { admit } from "../domain/attempt-caps.js";
import { MINUTE } from "../domain/limits.js";
import type { Registry } from "../engine/registry.js";
import type { TenantStore } from "../engine/tenant-store.js";
import type { Tenant } from "../engine/tenant.js";
import { resolveClientIp } from "./client-ip.js";
import type { AppEnv } from "./env.js";
import { ApiError, INVALID_CREDENTIALS } from "./errors.js";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Compared against when the key is unknown, so both paths do the same work. */
const DECOY_SECRET = "sk_test_decoy_never_matches_anything";

/** How many verified key+secret pairs each registry remembers; the oldest is forgotten first. */
const VERIFIED_PAIRS = 10_000;
const verifiedPairs = new WeakMap<Registry, Map<string, { tenant: Tenant; secret: string }>>();

/**
 * The merchant whose key and secret these are, or undefined; the same work whether the key is known or not.
 *
 * A pair that verified once is found again by one Map lookup on key and secret together, which costs the same for a
 * right secret and a wrong one. Only verified pairs are kept, and each hit is checked against the registry
 * (the same merchant under that key, with that secret), so a deleted merchant or a new secret is refused
 * at once. Every miss, including every wrong secret, takes the constant-time path with its decoy.
 * Why a cache at all: bench/FAST-PATH.md.
 */
export function merchantOf(registry: Registry, apiKey: string, apiSecret: string): Tenant | undefined {
  let pairs = verifiedPairs.get(registry);
  if (!pairs) verifiedPairs.set(registry, (pairs = new Map()));
  const pair = `${apiKey}\n${apiSecret}`;
  const hit = pairs.get(pair);
  if (hit) {
    if (registry.findByApiKey(apiKey) === hit.tenant && hit.tenant.config.api_secret === hit.secret) return hit.tenant;
    pairs.delete(pair);
  }
  const tenant = registry.findByApiKey(apiKey);
  const matches = secretsEqual(apiSecret, tenant?.config.api_secret ?? DECOY_SECRET);
  if (!tenant || !matches) return undefined;
  if (pairs.size >= VERIFIED_PAIRS) pairs.delete(pairs.keys().next().value!);
  pairs.set(pair, { tenant, secret: tenant.config.api_secret });
  return tenant;
}

/**
 * `accountRules: false` (the control API) checks the credentials only: a merchant's own allowlist or
 * request cap must never lock it out of the levers that change them.
 */
export const requireMerchant = (opts: AuthOptions & { store: TenantStore }): MiddlewareHandler<AppEnv> =>
  async function requireMerchant(c, next) {
    const resolving = resolveKey(c, opts.store);
    if (resolving) await resolving;
    authenticate(c, opts);
    await next();
  };

/** A shared store first makes sure the merchant holding the request's key is known here; `undefined`: nothing to wait for. */
export function resolveKey(c: Context<AppEnv>, store: TenantStore): Promise<void> | undefined {
  if (!store.shared) return undefined;
  const apiKey = c.req.header("x-api-key");
  return apiKey ? store.resolveKey(apiKey) : undefined;
}

export interface AuthOptions {
  registry: Registry;
  trustProxy: boolean;
  accountRules: boolean;
}

/** The checks of requireMerchant, for a pipeline that runs its stages in one frame: throws, or sets the tenant. */
export function authenticate(c: Context<AppEnv>, opts: AuthOptions): void {
  const apiKey = c.req.header("x-api-key");
  const apiSecret = c.req.header("x-api-secret");
  if (!apiKey || !apiSecret) {
    throw new ApiError("MISSING_CREDENTIALS", "Send both X-Api-Key and X-Api-Secret headers.");
  }
  const tenant = merchantOf(opts.registry, apiKey, apiSecret);
  if (!tenant) {
    throw new ApiError("INVALID_CREDENTIALS", INVALID_CREDENTIALS);
  }
  const ip = resolveClientIp(c, opts.trustProxy);
  c.set("clientIp", ip);
  c.set("tenant", tenant);
  if (!opts.accountRules) return;
  const { ip_allowlist, limits } = tenant.config;
  if (ip_allowlist.length > 0 && !ip_allowlist.includes(ip)) {
    throw new ApiError("IP_NOT_WHITELISTED", `Requests from ${ip} are not allowed for this account.`);
  }
  // Wall-clock time, whatever the merchant's clock: a cap on a manual clock would never free up by waiting.
  admit(tenant.requestTimes, opts.registry.wall(), MINUTE, limits.requests_per_minute, "RATE_LIMITED",
    `Too many requests: at most ${limits.requests_per_minute} per minute for this account.`);
}
