/**
 * Who may call a control route. Sign-up and scenario loading are open (they are how a test gets its
 * keys), each with a quota per client IP; every other control route needs the merchant's keys, and
 * never the account's IP allowlist or request cap, so a merchant cannot lock itself out.
 */
import type { MiddlewareHandler } from "hono";
import type { Registry } from "../engine/registry.js";
import type { TenantStore } from "../engine/tenant-store.js";
import { requireMerchant } from "./auth.js";
import type { AppEnv } from "./env.js";
import { perIpQuota } from "./quotas.js";

export interface OpenQuotas {
  signupsPerMinute: number;
  scenarioLoadsPerMinute: number;
}

export function controlAuth(registry: Registry, store: TenantStore, trustProxy: boolean, quotas: OpenQuotas = { signupsPerMinute: 0, scenarioLoadsPerMinute: 0 }): MiddlewareHandler<AppEnv> {
  // A shared store counts on the registry's wall clock, as every process reads it.
  const counted = store.shared ? { store, now: registry.wall } : {};
  const open: Record<string, MiddlewareHandler<AppEnv>> = {
    "/sandbox/v1/merchants": perIpQuota({ perMinute: quotas.signupsPerMinute, what: "sign-ups", trustProxy, ...counted }),
    "/sandbox/v1/scenarios": perIpQuota({ perMinute: quotas.scenarioLoadsPerMinute, what: "scenario loads", trustProxy, ...counted }),
  };
  const keys = requireMerchant({ registry, store, trustProxy, accountRules: false });
  return (c, next) => {
    const quota = c.req.method === "POST" ? open[c.req.path] : undefined;
    return quota ? quota(c, next) : keys(c, next);
  };
}
