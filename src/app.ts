/**
 * createApp(options) -> Hono app. The pipeline of a merchant request, in order: request id -> body
 * limit -> JSON-only bodies -> auth (tenant, IP allowlist, per-minute cap) -> capability -> payout
 * attempt caps -> validation -> domain -> response in the spec's shape. Errors of every stage leave
 * through the one envelope in http/errors.ts.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { checkoutRoutes } from "./api/v1/checkout.js";
import { payoutRoutes } from "./api/v1/payouts.js";
import { virtualAccountRoutes } from "./api/v1/virtual-accounts.js";
import { virtualCardRoutes } from "./api/v1/virtual-cards.js";
import { vtuRoutes } from "./api/v1/vtu.js";
import { walletRoutes } from "./api/v1/wallet.js";
import { requireMerchant } from "./http/auth.js";
import type { AppEnv } from "./http/env.js";
import { ApiError, notFound, onError } from "./http/errors.js";
import { jsonOnly } from "./http/json-only.js";
import { securityHeaders } from "./http/security-headers.js";
import { validationHook } from "./http/validation.js";
import { checkoutPages } from "./pages/checkout-routes.js";
import { dashboardRoutes } from "./pages/dashboard.js";
import { docsRoutes } from "./pages/docs.js";
import { createRuntime, type Runtime } from "./engine/runtime.js";
import { clockRoutes } from "./sandbox/clock.js";
import { leverRoutes } from "./sandbox/levers.js";
import { lifecycleRoutes } from "./sandbox/lifecycle.js";
import { outcomeRoutes } from "./sandbox/outcomes.js";
import { scenarioRoutes } from "./sandbox/scenarios.js";
import { snapshotRoutes } from "./sandbox/snapshot.js";
import { webhookRoutes } from "./sandbox/webhooks.js";
import { merchantRoutes } from "./sandbox/merchants.js";
import type { Registry } from "./store/registry.js";
import type { Tenant } from "./store/tenant.js";

export interface AppOptions {
  registry: Registry;
  /** Honour X-Forwarded-For for the client IP (only behind a proxy you control). */
  trustProxy?: boolean;
  /** Base URL for links the API hands out (payment_link, checkout_url); default: the request's origin. */
  publicUrl?: string;
  /** Largest accepted request body in bytes. */
  bodyLimitBytes?: number;
  /** Clock driver and webhook dispatcher; the server stops it on close. */
  runtime?: Runtime;
  /** With `--data`: saves a merchant; a mutating response is sent only once this has resolved. */
  persist?: (tenant: Tenant) => Promise<void>;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
const SNAPSHOT_LIMIT_BYTES = 256 * 1024 * 1024;

export function createApp(options: AppOptions) {
  const { registry, trustProxy = false, publicUrl } = options;
  const { driver, dispatcher } = options.runtime ?? createRuntime();
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });

  app.use("*", requestId());
  app.use("*", securityHeaders()); // nosniff and a deny-all CSP; page routes set their own CSP
  // Body size: from Content-Length when there is one (reading c.req.raw.body, as hono's bodyLimit
  // does, makes the node adapter build a full Request on every call: a fifth of a POST's cost);
  // hono's streaming bodyLimit only for chunked bodies, which have no length up front.
  const limitTo = (maxSize: number, label: string): MiddlewareHandler<AppEnv> => {
    const tooLarge = () => {
      throw new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${label}.`);
    };
    const streaming = bodyLimit({ maxSize, onError: tooLarge });
    return (c, next) => {
      const length = c.req.header("content-length");
      if (length === undefined) return streaming(c, next);
      return Number(length) > maxSize ? tooLarge() : next();
    };
  };
  const defaultLimit = limitTo(options.bodyLimitBytes ?? BODY_LIMIT_BYTES, "1 MB");
  const snapshotLimit = limitTo(SNAPSHOT_LIMIT_BYTES, "256 MB");
  app.use("*", (c, next) => {
    // GET and HEAD carry no body; skipping them also keeps the node adapter from building a full Request.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return c.req.path === "/sandbox/v1/snapshot" ? snapshotLimit(c, next) : defaultLimit(c, next);
  });
  app.use("/api/v1/*", jsonOnly());
  app.use("/api/v1/*", requireMerchant({ registry, trustProxy, accountRules: true }));
  app.use("/sandbox/v1/*", jsonOnly());
  const sandboxAuth = requireMerchant({ registry, trustProxy, accountRules: false });
  app.use("/sandbox/v1/*", async (c, next) => {
    // Sign-up and scenario loading are the open control routes: they are how a test gets its keys.
    if (c.req.method === "POST" && (c.req.path === "/sandbox/v1/merchants" || c.req.path === "/sandbox/v1/scenarios")) return next();
    return sandboxAuth(c, next);
  });

  // Realtime merchants first catch up on timers already due. Afterwards: start the first delivery of
  // any event the request emitted (never waited for), and re-arm the wake-up for the next timer.
  const clockSync: MiddlewareHandler<AppEnv> = async (c, next) => {
    const tenant = c.var.tenant;
    if (tenant) driver.catchUp(tenant);
    await next();
    if (tenant) {
      void dispatcher.drain(tenant);
      driver.arm(tenant);
      if (options.persist && c.req.method !== "GET" && c.req.method !== "HEAD") await options.persist(tenant);
    }
  };
  app.use("/api/v1/*", clockSync);
  app.use("/sandbox/v1/*", clockSync);

  // After a change made outside the merchant-scoped pipeline (scenario loads, page actions).
  const afterChange = async (t: Tenant) => {
    void dispatcher.drain(t);
    driver.arm(t);
    await options.persist?.(t);
  };

  app.route("/api/v1/wallet", walletRoutes());
  app.route("/api/v1", virtualAccountRoutes());
  app.route("/api/v1/checkout", checkoutRoutes({ publicUrl }));
  app.route("/api/v1/payout", payoutRoutes());
  app.route("/api/v1/vtu", vtuRoutes());
  app.route("/api/v1/virtual-cards", virtualCardRoutes());
  app.route("/sandbox/v1", merchantRoutes(registry, options.persist));
  app.route("/sandbox/v1", leverRoutes());
  app.route("/sandbox/v1", lifecycleRoutes());
  app.route("/sandbox/v1", outcomeRoutes());
  app.route("/sandbox/v1", clockRoutes(driver));
  app.route("/sandbox/v1", webhookRoutes(dispatcher));
  app.route("/sandbox/v1", snapshotRoutes(registry, driver));
  app.route("/sandbox/v1", scenarioRoutes(registry, afterChange));
  app.route("/", checkoutPages({ registry, driver, afterChange }));
  app.route("/", dashboardRoutes({ registry, driver, trustProxy, publicUrl }));
  app.route("/", docsRoutes());

  app.get("/favicon.ico", (c) => c.body(null, 204));
  app.get("/health", (c) => c.json({ success: true, status: "ok", merchants: registry.list().length }));
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-Api-Key" });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiSecret", { type: "apiKey", in: "header", name: "X-Api-Secret" });
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Merchant Payments Service (merchant-sandbox)",
      version: "1.0.0",
      description:
        "The Merchant Payments Service API (/api/v1) as served by merchant-sandbox, plus the sandbox's control API (/sandbox/v1). " +
        "Authenticate with the X-Api-Key and X-Api-Secret headers.",
    },
    servers: [{ url: publicUrl ?? new URL(c.req.url).origin }],
  }));

  app.notFound(notFound);
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
