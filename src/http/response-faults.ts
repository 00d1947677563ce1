/**
 * Ambiguous answers: an operation that moves money commits, and then its answer is lost (the connection
 * is reset), late (a slow response) or a 5xx, as outcome rules `response` and the magic payout accounts
 * decide (domain/outcomes.ts, planResponseFault). Two stages of the API's pipeline (http/pipeline.ts):
 *
 * - `decideResponseFault` runs inside the save, right after the handler: once the handler has
 *   succeeded it asks the domain, so the rule's use is saved with the change itself;
 * - `applyResponseFault` runs outside it: the change is saved and its webhooks have started before the
 *   answer is held back, cut or replaced, so the merchant's state is exactly that of a clean answer.
 *
 * A hold-back is wall-clock time (at most MAX_RESPONSE_DELAY_SECONDS): it ends early when the client
 * goes away, and a stopping sandbox resets the connection instead of waiting for it. The same wait
 * serves a domain refusal that takes its time (a name enquiry that times out: DomainError `wait_ms`).
 */
import type { Socket } from "node:net";
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { DomainError } from "../domain/errors.js";
import { mayFaultResponse, planResponseFault, type ResponseFault } from "../domain/outcomes.js";
import { contextOf } from "../engine/tenant.js";
import type { AppEnv } from "./env.js";
import { ConnectionReset, errorResponse, gatewayTimeoutMessage, INTERNAL_ERROR_MESSAGE } from "./errors.js";

/** The operationId of the route a request reached (e.g. createPayout), if it has one. */
export type OperationOf = (c: Context<AppEnv>) => string | undefined;

const OPERATION = Symbol("operationId");
type Remembered = Context<AppEnv> & { [OPERATION]?: string | null };

/** The route's operationIds by method and OpenAPI path, read from the app's OpenAPI definitions once they are all registered. */
export function operationLookup(definitions: () => ReadonlyArray<{ type: string; route?: { method: string; path: string; operationId?: string } }>): OperationOf {
  let byRoute: Map<string, string> | undefined;
  // Per method and hono route pattern (a finite set: the registered routes).
  const seen = new Map<string, string | null>();
  const byKey = (key: string): string | null => {
    let operation = seen.get(key);
    if (operation === undefined) {
      byRoute ??= new Map(
        definitions().flatMap((d) => (d.type === "route" && d.route?.operationId ? [[`${d.route.method.toUpperCase()} ${d.route.path}`, d.route.operationId] as const] : [])),
      );
      operation = byRoute.get(key.replace(/:(\w+)/g, "{$1}")) ?? null;
      seen.set(key, operation);
    }
    return operation;
  };
  // And per route reached, when the request's method is the route's own (a HEAD reaches a GET route):
  // the request log asks on every request, and a key text to build and hash costs more than this.
  const perRoute = new WeakMap<object, string | null>();
  return (c) => {
    // Asked twice per request (the fault decision, the request log): the answer is kept on the context.
    const known = (c as Remembered)[OPERATION];
    if (known !== undefined) return known ?? undefined;
    const route = matchedRoutes(c).at(-1); // what routePath(c, -1) reads
    const own = route !== undefined && route.method === c.req.method;
    let operation = own ? perRoute.get(route) : undefined;
    if (operation === undefined) {
      operation = byKey(`${c.req.method} ${route?.path ?? ""}`);
      if (own) perRoute.set(route, operation);
    }
    (c as Remembered)[OPERATION] = operation;
    return operation ?? undefined;
  };
}

/** A request body's own scalar fields, for rules to match beside the path parameters (nested values are not compared). */
function scalarFields(body: unknown): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null); // a body's "__proto__" key stays a field
  if (body === null || typeof body !== "object" || Array.isArray(body)) return fields;
  // A plain loop: this runs on every POST (bench/FAST-PATH.md).
  for (const [key, value] of Object.entries(body as object)) {
    const type = typeof value;
    if (value === null || type === "string" || type === "number" || type === "boolean") fields[key] = value;
  }
  return fields;
}

/**
 * Right after the handler: once it has succeeded, asks the domain what happens to the answer (a plain
 * function: the API's pipeline runs its stages in one frame, http/pipeline.ts).
 */
export function decideResponseFault(c: Context<AppEnv>, operationOf: OperationOf): void {
  if (c.req.method !== "POST" || c.res.status >= 300 || !c.get("tenant")) return;
  const operation = operationOf(c);
  if (!operation) return;
  // After next() the request is at its route's handler, so param() names the route's own parameters.
  const body = (c.req as unknown as { valid(target: "json"): unknown }).valid("json");
  const tenant = c.get("tenant");
  if (!mayFaultResponse(tenant.state, operation, (body as { account_number?: unknown } | undefined)?.account_number)) return;
  const fault = planResponseFault(contextOf(tenant), tenant.state, { ...c.req.param(), ...scalarFields(body), operation });
  if (fault) c.set("responseFault", fault);
}

/** Resolves after `ms` of wall-clock time, or as soon as one of the signals aborts: which one ended it. */
function holdBack(ms: number, stopping: AbortSignal, client: AbortSignal): Promise<"waited" | "stopping" | "gone"> {
  if (stopping.aborted) return Promise.resolve("stopping");
  return new Promise((done) => {
    const end = (how: "waited" | "stopping" | "gone") => {
      clearTimeout(timer);
      stopping.removeEventListener("abort", onStop);
      client.removeEventListener("abort", onGone);
      done(how);
    };
    const onStop = () => end("stopping");
    const onGone = () => end("gone");
    const timer = setTimeout(() => end("waited"), ms);
    timer.unref();
    stopping.addEventListener("abort", onStop, { once: true });
    client.addEventListener("abort", onGone, { once: true });
  });
}

/**
 * Resets the client's connection: over a real socket (@hono/node-server) with a TCP RST, so the client
 * sees ECONNRESET; then throws ConnectionReset, which `app.request()` callers (no socket) receive instead
 * of a response. Nothing is written after it.
 */
function resetConnection(c: Context<AppEnv>): never {
  const socket = c.env?.incoming?.socket as (Partial<Socket> & { resetAndDestroy?: () => void }) | undefined;
  if (typeof socket?.resetAndDestroy === "function") socket.resetAndDestroy();
  else if (typeof socket?.destroy === "function") socket.destroy();
  throw new ConnectionReset();
}

/** Once the change is saved and its webhooks started: holds the answer back, cuts it or replaces it, as decided. */
export function applyResponseFault(c: Context<AppEnv>, stopping: AbortSignal): Promise<void> | undefined {
  const fault = c.get("responseFault");
  const wait = fault?.delay_ms ?? (c.error instanceof DomainError ? c.error.details.wait_ms : undefined) ?? 0;
  // Nearly every answer has nothing to wait for: no promise for those.
  return !fault && wait === 0 ? undefined : applyFault(c, fault, wait, stopping);
}

async function applyFault(c: Context<AppEnv>, fault: ResponseFault | undefined, wait: number, stopping: AbortSignal): Promise<void> {
  if (wait > 0 || stopping.aborted) {
    const ended = await holdBack(wait, stopping, c.req.raw.signal);
    if (ended === "stopping") return resetConnection(c);
    if (ended === "gone") return;
  }
  switch (fault?.outcome) {
    case "connection_reset":
      return resetConnection(c);
    case "server_error":
      c.res = errorResponse(c, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE);
      return;
    case "gateway_timeout":
      c.res = errorResponse(c, "GATEWAY_TIMEOUT", gatewayTimeoutMessage(fault.operation));
      return;
    default:
      return; // slow_response, or a refusal that took its time: the answer as it was, late
  }
}
