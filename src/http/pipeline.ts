/**
 * The merchant API's stages in one middleware frame, and the control API's clock sync. After a change:
 * saved first (with --data; a failed save undoes it and answers 503), then its webhooks start (never
 * waited for), then the next wake-up is armed: no receiver hears of a change the sandbox could not keep.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import { DONE, type TenantStore } from "../engine/tenant-store.js";
import type { Tenant } from "../engine/tenant.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import { authenticate, resolveKey } from "./auth.js";
import type { AppEnv } from "./env.js";
import { answerError } from "./errors.js";
import { checkJsonBody } from "./json-only.js";
import { markEvents, markRequest } from "./request-log.js";
import { applyResponseFault, decideResponseFault, type OperationOf } from "./response-faults.js";

export interface Commits {
  /** Runs `work` on the merchant as one change, kept before it resolves (a request's own change: the caller then calls afterWrite). */
  keep<T>(tenant: Tenant, work: () => T | Promise<T>): Promise<T>;
  /** Runs `work` on the merchant as one change, kept before it resolves; then its webhooks start and its wake-up is re-armed. */
  change<T>(tenant: Tenant, work: () => T | Promise<T>): Promise<T>;
  /** New merchants (a scenario load), kept; each one's webhooks and wake-up start once it is. */
  created(tenants: Tenant[]): Promise<void>;
  /** After a request's change was kept: its webhooks start, its wake-up is re-armed (unless it was just deleted). */
  afterWrite(tenant: Tenant): void;
  /** After a read: a promise only when there is something to wait for (a read that changed state). */
  afterRead(c: Context<AppEnv>, tenant: Tenant): Promise<void> | undefined;
}

/** GET and HEAD run outside a change; a handler of one that changes state anyway says so with `stateChanged`. */
const reads = (c: Context<AppEnv>) => c.req.method === "GET" || c.req.method === "HEAD";

export function commits(registry: Registry, driver: ClockDriver, dispatcher: WebhookDispatcher, store: TenantStore): Commits {
  const afterCommit = (t: Tenant) => {
    void dispatcher.drain(t);
    driver.arm(t);
  };
  const live = (t: Tenant) => registry.get(t.id) === t; // not deleted while the request ran
  const keep = async <T>(t: Tenant, work: () => T | Promise<T>): Promise<T> => {
    if (!store.shared) return store.change(t, work);
    // Shared: the first attempts of the events the work emitted are planned in the same change, one
    // commit for both; they start once it is kept.
    let start: (() => Promise<void>) | undefined;
    const result = await store.change(t, async () => {
      const done = await work();
      if (live(t) && t.state.outbox.length > 0) start = await dispatcher.planOutbox(t);
      return done;
    });
    void start?.();
    return result;
  };
  const change = async <T>(t: Tenant, work: () => T | Promise<T>): Promise<T> => {
    const result = await keep(t, work);
    afterCommit(t);
    return result;
  };
  const created = async (tenants: Tenant[]) => {
    await Promise.all(tenants.map((t) => store.created([t]).then(() => afterCommit(t))));
  };
  const afterWrite = (t: Tenant) => {
    if (live(t)) afterCommit(t);
  };
  const afterRead = (c: Context<AppEnv>, t: Tenant): Promise<void> | undefined => {
    if (!live(t)) return undefined;
    if (c.get("stateChanged")) return change(t, DONE);
    // A read whose catch-up emitted events: save and deliver them without holding up the reply.
    if (t.state.outbox.length > 0) void driver.commitAndDeliver(t).catch(() => undefined); // a failed save is logged and undone by the store
    driver.arm(t);
    return undefined;
  };
  return { keep, change, created, afterWrite, afterRead };
}

/**
 * Reads whose handler changes state (a status read that counts towards settling). A shared store runs
 * them as changes, so that what they count is never made outside the merchant's lock.
 */
const MUTATING_READS: ReadonlySet<string> = new Set(["getPayoutStatus", "getVtuTransactionStatus"]);
/**
 * Control operations that make their own changes, step by step: an advance waits for webhook attempts
 * already under way, which must be able to keep their own changes meanwhile. A shared store never
 * runs them inside one change of the request.
 */
const SELF_COMMITTING: ReadonlySet<string> = new Set(["advanceClock"]);

/** Control routes: a realtime merchant first catches up on timers already due, inside the request's change. */
export function clockSync(driver: ClockDriver, store: TenantStore, { keep, afterWrite, afterRead }: Commits, operationOf: OperationOf): MiddlewareHandler<AppEnv> {
  return async function clockSync(c, next) {
    const tenant = c.get("tenant");
    if (!tenant) return next();
    const work = async () => {
      await driver.catchUp(tenant);
      await next();
    };
    if (store.shared && SELF_COMMITTING.has(operationOf(c) ?? "")) {
      await work();
      return afterWrite(tenant);
    }
    if (!reads(c)) {
      await keep(tenant, work);
      return afterWrite(tenant);
    }
    // Control reads (the request log, the checks) read the merchant's traffic too.
    const freshening = store.fresh(tenant, { requestLog: true });
    if (freshening) await freshening;
    await work();
    await afterRead(c, tenant);
  };
}

export interface PipelineOptions {
  registry: Registry;
  trustProxy: boolean;
  driver: ClockDriver;
  store: TenantStore;
  commits: Commits;
  operationOf: OperationOf;
  /** Aborted on shutdown: answers held back on purpose are cut instead of waited for. */
  stopping: AbortSignal;
}

/**
 * JSON body -> auth -> catch-up -> handler -> fault decision -> commit -> fault applied. One frame, not
 * six (bench/FAST-PATH.md). A stage's error is answered where it happens and the stages around it still
 * run: an answer is held back, cut or replaced only once its change is saved, and what happens to a
 * money-moving answer is decided with the change, so the rule's use is saved too. A read runs its
 * stages inline, outside any change: the path most requests take allocates nothing for the store.
 */
export function apiPipeline(o: PipelineOptions): MiddlewareHandler<AppEnv> {
  const { driver, store, operationOf, stopping } = o;
  const { keep, afterWrite, afterRead } = o.commits;
  const auth = { registry: o.registry, trustProxy: o.trustProxy, accountRules: true };
  /** A write's stages, run as its change. */
  const write = async (c: Context<AppEnv>, next: Next, tenant: Tenant) => {
    if (driver.due(tenant)) await driver.catchUp(tenant);
    markRequest(c, tenant);
    await next();
    markEvents(c, tenant);
    try {
      decideResponseFault(c, operationOf);
    } catch (err) {
      await answerError(c, err);
    }
  };
  return async function apiPipeline(c, next) {
    const reading = checkJsonBody(c);
    if (reading) await reading;
    const resolving = resolveKey(c, store);
    if (resolving) await resolving;
    authenticate(c, auth);
    const tenant = c.get("tenant");
    try {
      if (reads(c) && !(store.shared && MUTATING_READS.has(operationOf(c) ?? ""))) {
        const freshening = store.fresh(tenant);
        if (freshening) await freshening;
        if (driver.due(tenant)) await driver.catchUp(tenant);
        markRequest(c, tenant);
        await next();
        markEvents(c, tenant); // no fault decision: only a POST's answer is ever faulted
        const saving = afterRead(c, tenant);
        if (saving) await saving;
      } else {
        await keep(tenant, () => write(c, next, tenant));
        afterWrite(tenant);
      }
    } catch (err) {
      await answerError(c, err);
    }
    const faulting = applyResponseFault(c, stopping);
    if (faulting) await faulting;
  };
}
