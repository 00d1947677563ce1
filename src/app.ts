/**
 * createApp(options) -> Hono app: wiring only. A merchant request passes, in order: request id and
 * headers -> request log -> body limit -> the API pipeline (http/pipeline.ts: JSON body, auth, clock
 * catch-up, handler, commit, response fault) -> the route (validation, domain, the spec's shape).
 * Errors of every stage leave through the one envelope in http/errors.ts.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { DoctorDesk } from "./doctor/desk.js";
import type { Registry } from "./engine/registry.js";
import { bodyLimits } from "./http/body-limit.js";
import { controlAuth, type OpenQuotas } from "./http/control-auth.js";
import type { Deps, NodeReport } from "./http/deps.js";
import type { AppEnv } from "./http/env.js";
import { notFound, onError } from "./http/errors.js";
import { health } from "./http/health.js";
import { jsonBodies } from "./http/json-only.js";
import { MemoRouter } from "./http/memo-router.js";
import { serveDocument } from "./http/openapi-document.js";
import { apiPipeline, clockSync, commits } from "./http/pipeline.js";
import { operationLookup } from "./http/response-faults.js";
import { logRequests } from "./http/request-log.js";
import { responseHeaders } from "./http/response-headers.js";
import { validationHook } from "./http/validation.js";
import { MOUNTS, OTHER_BODIES } from "./routes.js";
import { createRuntime, type Runtime } from "./runtime.js";

export interface AppOptions {
  registry: Registry;
  /** Honour X-Forwarded-For for the client IP (only behind a proxy you control). */
  trustProxy?: boolean;
  /** Base URL for links the API hands out (payment_link, checkout_url); default: the request's origin. */
  publicUrl?: string;
  /** Largest accepted request body in bytes. */
  bodyLimitBytes?: number;
  /** Clock driver, webhook dispatcher and the store every change is kept in (default: memory); the server stops it on close. */
  runtime?: Runtime;
  /** Shared mode: private webhook targets refused, /health without counts. */
  shared?: boolean;
  /** Anonymous work per client IP per minute (0 = no quota). */
  quotas?: OpenQuotas;
  /** Largest PUT /sandbox/v1/snapshot body, in bytes. */
  snapshotLimitBytes?: number;
  /** A node of a cluster (PostgreSQL --data): what /health reports of it. */
  node?: () => NodeReport;
  /** The merchant whose keys /docs pre-fills for "try it" (the demo merchant), while it exists. */
  tryItMerchant?: string;
}

export function createApp(options: AppOptions) {
  const { registry, trustProxy = false, publicUrl, shared = false } = options;
  const { driver, dispatcher, store, signal: stopping } = options.runtime ?? createRuntime();
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never, router: new MemoRouter() });
  const operationOf = operationLookup(() => app.openAPIRegistry.definitions);
  const commit = commits(registry, driver, dispatcher, store);
  const tryItKeys = () => {
    const demo = options.tryItMerchant ? registry.get(options.tryItMerchant) : undefined;
    return demo && { apiKey: demo.config.api_key, apiSecret: demo.config.api_secret };
  };
  const deps: Deps = { registry, driver, dispatcher, doctor: new DoctorDesk(registry.wall, store), publicUrl, trustProxy, shared, store, commits: commit, tryItKeys, node: options.node };

  app.use("*", responseHeaders()); // request id, nosniff and a deny-all CSP; pages set their own CSP
  // Outermost for the API: the log sees the final answer, the whole latency and the body limit's refusals.
  app.use("/api/v1/*", logRequests({ registry, store, trustProxy, operationOf }));
  app.use("*", bodyLimits(options));
  app.use("/sandbox/v1/*", jsonBodies(OTHER_BODIES), controlAuth(registry, store, trustProxy, options.quotas), clockSync(driver, store, commit, operationOf));
  app.use("/api/v1/*", apiPipeline({ registry, trustProxy, driver, store, commits: commit, operationOf, stopping }));
  for (const [path, routes] of MOUNTS) app.route(path, routes(deps));
  app.get("/favicon.ico", (c) => c.body(null, 204));
  app.get("/health", health(deps));
  serveDocument(app, publicUrl);
  app.notFound(notFound);
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
