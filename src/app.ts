/**
 * createApp(options) -> Hono app. The pipeline of a merchant request, in order: request id -> body
 * limit -> JSON-only bodies, nested at most so deep -> auth (tenant, IP allowlist, per-minute cap) ->
 * capability -> payout attempt caps -> validation -> domain -> saved (with --data) -> response in the
 * spec's shape, and only then the webhooks it caused; an ambiguous-outcome rule may then hold the
 * answer back, cut it or replace it (http/response-faults.ts). Errors of every stage leave through the
 * one envelope in http/errors.ts.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { authenticate, requireMerchant } from "./http/auth.js";
import type { AppEnv } from "./http/env.js";
import { answerError, ApiError, notFound, onError } from "./http/errors.js";
import { checkJsonBody, jsonBodies } from "./http/json-only.js";
import { MemoRouter } from "./http/memo-router.js";
import { openApiDocument } from "./http/openapi-document.js";
import { registerWebhooks } from "./http/openapi-webhooks.js";
import { perIpQuota } from "./http/quotas.js";
import { applyResponseFault, decideResponseFault, operationLookup } from "./http/response-faults.js";
import { logRequests, markRequest } from "./http/request-log.js";
import { responseHeaders } from "./http/response-headers.js";
import { validationHook } from "./http/validation.js";
import { createRuntime, type Runtime } from "./runtime.js";
import { DoctorDesk } from "./doctor/desk.js";
import type { Deps } from "./http/deps.js";
import { MOUNTS } from "./routes.js";
import type { Registry } from "./engine/registry.js";
import type { Tenant } from "./engine/tenant.js";
import { baseUrl } from "./http/base-url.js";

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
  /** With `--data`: the store, for /health and for deleting a merchant's file. */
  store?: { health(): { ok: boolean }; remove(merchantId: string): Promise<void> };
  /** Shared mode: private webhook targets refused, /health without counts. */
  shared?: boolean;
  /** Anonymous work per client IP per minute (0 = no quota). */
  quotas?: { signupsPerMinute: number; scenarioLoadsPerMinute: number };
  /** Largest PUT /sandbox/v1/snapshot body, in bytes. */
  snapshotLimitBytes?: number;
  /** The merchant whose keys /docs pre-fills for "try it" (the demo merchant), while it exists. */
  tryItMerchant?: string;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const SNAPSHOT_LIMIT_BYTES = 5 * 1024 * 1024;

export function createApp(options: AppOptions) {
  const { registry, trustProxy = false, publicUrl } = options;
  const { driver, dispatcher, signal: stopping } = options.runtime ?? createRuntime();
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never, router: new MemoRouter() });

  app.use("*", responseHeaders()); // request id, nosniff and a deny-all CSP; page routes set their own CSP
  const operationOf = operationLookup(() => app.openAPIRegistry.definitions);
  // Outermost for the API: the log records the final answer (after a fault), the whole latency, and the
  // refusals of the body limit below.
  app.use("/api/v1/*", logRequests({ registry, trustProxy, operationOf }));
  // Body size: from Content-Length when there is one (reading c.req.raw.body, as hono's bodyLimit
  // does, makes the node adapter build a full Request on every call: a fifth of a POST's cost);
  // hono's streaming bodyLimit only for chunked bodies, which have no length up front.
  const limitTo = (maxSize: number, label: string): MiddlewareHandler<AppEnv> => {
    const tooLarge = () => {
      throw new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${label}.`);
    };
    // A chunked body cut off mid-stream is not read to its end, so that connection cannot carry another
    // request: say so (a body with a length is drained by Node, and the connection stays usable). The
    // close lingers, dropping the rest of the body, so that this answer reaches the client (http/connection-limits.ts).
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
  };
  const defaultLimit = limitTo(options.bodyLimitBytes ?? BODY_LIMIT_BYTES, "1 MB");
  const snapshotBytes = options.snapshotLimitBytes ?? SNAPSHOT_LIMIT_BYTES;
  const snapshotLimit = limitTo(snapshotBytes, `${+(snapshotBytes / 1024 / 1024).toFixed(1)} MB (--snapshot-limit-mb)`);
  app.use("*", (c, next) => {
    // GET and HEAD carry no body; skipping them also keeps the node adapter from building a full Request.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return c.req.path === "/sandbox/v1/snapshot" ? snapshotLimit(c, next) : defaultLimit(c, next);
  });
  app.use("/sandbox/v1/*", jsonBodies());
  // Sign-up and scenario loading are the open control routes (they are how a test gets its keys), so
  // each has a quota per client IP; every other control route needs the merchant's keys.
  const quotas = options.quotas ?? { signupsPerMinute: 0, scenarioLoadsPerMinute: 0 };
  const open: Record<string, MiddlewareHandler<AppEnv>> = {
    "/sandbox/v1/merchants": perIpQuota({ perMinute: quotas.signupsPerMinute, what: "sign-ups", trustProxy }),
    "/sandbox/v1/scenarios": perIpQuota({ perMinute: quotas.scenarioLoadsPerMinute, what: "scenario loads", trustProxy }),
  };
  const sandboxAuth = requireMerchant({ registry, trustProxy, accountRules: false });
  app.use("/sandbox/v1/*", async (c, next) => {
    const quota = c.req.method === "POST" ? open[c.req.path] : undefined;
    return quota ? quota(c, next) : sandboxAuth(c, next);
  });

  // After a change made outside the merchant-scoped pipeline (scenario loads, page actions): saved first.
  const afterChange = async (t: Tenant) => {
    await options.persist?.(t);
    void dispatcher.drain(t);
    driver.arm(t);
  };

  // Realtime merchants first catch up on timers already due. Afterwards: the change is saved (with
  // --data; a failed save undoes it and answers 503), and only then do the webhooks it caused start
  // (never waited for): no receiver hears of a change the sandbox could not keep. Then the wake-up
  // for the next timer is re-armed. Nothing to wait for after a plain read: no promise for it.
  const afterRequest = (c: Context<AppEnv>, tenant: Tenant | undefined): Promise<void> | undefined => {
    if (!tenant || registry.get(tenant.id) !== tenant) return undefined; // no tenant, or it was just deleted
    if ((c.req.method !== "GET" && c.req.method !== "HEAD") || c.get("stateChanged")) return afterChange(tenant);
    // A read whose catch-up emitted events: save and deliver them without holding up the reply.
    if (tenant.state.outbox.length > 0) void driver.commitAndDeliver(tenant).catch(() => undefined); // a failed save is logged and undone by the store
    driver.arm(tenant);
    return undefined;
  };
  app.use("/sandbox/v1/*", async function clockSync(c, next) {
    const tenant = c.get("tenant");
    if (tenant) await driver.catchUp(tenant);
    await next();
    await afterRequest(c, tenant);
  });

  // The API's stages in one frame, in the order of this file's header (issue 17: every middleware frame
  // costs each request a promise and a dispatch, and the API had six). A stage's error is answered where it
  // happens, as hono does between middlewares, and the stages around it still run: an answer is held
  // back, cut or replaced (applyResponseFault) only once its change is saved (afterRequest), and what
  // happens to a money-moving answer is decided with the change (decideResponseFault), so the rule's use
  // is saved too.
  const apiAuth = { registry, trustProxy, accountRules: true };
  app.use("/api/v1/*", async function apiPipeline(c, next) {
    const reading = checkJsonBody(c);
    if (reading) await reading;
    authenticate(c, apiAuth);
    const tenant = c.get("tenant");
    try {
      if (driver.due(tenant)) await driver.catchUp(tenant);
      const marked = markRequest(c);
      await next();
      marked?.();
      try {
        decideResponseFault(c, operationOf);
      } catch (err) {
        await answerError(c, err);
      }
      const saving = afterRequest(c, tenant);
      if (saving) await saving;
    } catch (err) {
      await answerError(c, err);
    }
    const faulting = applyResponseFault(c, stopping);
    if (faulting) await faulting;
  });

  const doctor = new DoctorDesk(registry.wall);
  const deps: Deps = {
    registry, driver, dispatcher, doctor, publicUrl, trustProxy, shared: options.shared ?? false,
    persist: options.persist, store: options.store, afterChange,
    tryItKeys: () => {
      const demo = options.tryItMerchant ? registry.get(options.tryItMerchant) : undefined;
      return demo && { apiKey: demo.config.api_key, apiSecret: demo.config.api_secret };
    },
  };
  for (const [path, routes] of MOUNTS) app.route(path, routes(deps));

  app.get("/favicon.ico", (c) => c.body(null, 204));
  // A failing store makes the sandbox unhealthy (503), so a Docker HEALTHCHECK or a CI service sees it.
  // Shared mode tells strangers nothing about how many merchants there are.
  app.get("/health", (c) => {
    const store = options.store?.health() ?? { ok: true };
    const counts = options.shared ? {} : { merchants: registry.size };
    if (store.ok) return c.json({ success: true, status: "ok", ...counts });
    return c.json({ success: false, status: "store_failing", store, ...counts }, 503);
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-Api-Key" });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiSecret", { type: "apiKey", in: "header", name: "X-Api-Secret" });
  // What the sandbox sends, for merchants to check: an HMAC of the raw body with their webhook secret.
  app.openAPIRegistry.registerComponent("securitySchemes", "WebhookSignature", {
    type: "apiKey",
    in: "header",
    name: "X-Webhook-Signature",
    description: "HMAC-SHA256 (per merchant: SHA-512) of the exact raw request body with the merchant's webhook_secret, lowercase hex (or base64).",
  });
  registerWebhooks(app);
  app.get("/openapi.json", (c) => c.json(openApiDocument(app, baseUrl(publicUrl, c.req.url))));

  app.notFound(notFound);
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
