/**
 * The merchant API's stages in one middleware frame, and the control API's clock sync. After a change:
 * saved first (with --data; a failed save undoes it and answers 503), then its webhooks start (never
 * waited for), then the next wake-up is armed: no receiver hears of a change the sandbox could not keep.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import { authenticate } from "./auth.js";
import type { AppEnv } from "./env.js";
import { answerError } from "./errors.js";
import { checkJsonBody } from "./json-only.js";
import { markRequest } from "./request-log.js";
import { applyResponseFault, decideResponseFault, type OperationOf } from "./response-faults.js";

export interface Commits {
  /** After a change made outside the merchant pipeline (scenario loads, page actions). */
  afterChange(tenant: Tenant): Promise<void>;
  /** After a request: a promise only when there is something to wait for (a write, or a read that changed state). */
  afterRequest(c: Context<AppEnv>, tenant: Tenant | undefined): Promise<void> | undefined;
}

export function commits(registry: Registry, driver: ClockDriver, dispatcher: WebhookDispatcher, persist?: (t: Tenant) => Promise<void>): Commits {
  const afterChange = async (t: Tenant) => {
    await persist?.(t);
    void dispatcher.drain(t);
    driver.arm(t);
  };
  const afterRequest = (c: Context<AppEnv>, tenant: Tenant | undefined): Promise<void> | undefined => {
    if (!tenant || registry.get(tenant.id) !== tenant) return undefined; // no tenant, or it was just deleted
    if ((c.req.method !== "GET" && c.req.method !== "HEAD") || c.get("stateChanged")) return afterChange(tenant);
    // A read whose catch-up emitted events: save and deliver them without holding up the reply.
    if (tenant.state.outbox.length > 0) void driver.commitAndDeliver(tenant).catch(() => undefined); // a failed save is logged and undone by the store
    driver.arm(tenant);
    return undefined;
  };
  return { afterChange, afterRequest };
}

/** Control routes: a realtime merchant first catches up on timers already due; its change is then committed. */
export function clockSync(driver: ClockDriver, { afterRequest }: Commits): MiddlewareHandler<AppEnv> {
  return async function clockSync(c, next) {
    const tenant = c.get("tenant");
    if (tenant) await driver.catchUp(tenant);
    await next();
    await afterRequest(c, tenant);
  };
}

export interface PipelineOptions {
  registry: Registry;
  trustProxy: boolean;
  driver: ClockDriver;
  commits: Commits;
  operationOf: OperationOf;
  /** Aborted on shutdown: answers held back on purpose are cut instead of waited for. */
  stopping: AbortSignal;
}

/**
 * JSON body -> auth -> catch-up -> handler -> fault decision -> commit -> fault applied. One frame, not
 * six (bench/FAST-PATH.md). A stage's error is answered where it happens and the stages around it still
 * run: an answer is held back, cut or replaced only once its change is saved, and what happens to a
 * money-moving answer is decided with the change, so the rule's use is saved too.
 */
export function apiPipeline(o: PipelineOptions): MiddlewareHandler<AppEnv> {
  const { driver, operationOf, stopping } = o;
  const { afterRequest } = o.commits;
  const auth = { registry: o.registry, trustProxy: o.trustProxy, accountRules: true };
  return async function apiPipeline(c, next) {
    const reading = checkJsonBody(c);
    if (reading) await reading;
    authenticate(c, auth);
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
  };
}
