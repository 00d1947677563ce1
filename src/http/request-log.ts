/**
 * Fills each merchant's request log (domain/request-log.ts) with its /api/v1 requests, in two parts:
 *
 * - `logRequests`, outermost: times the request and, once the answer is final (a fault applied, or the
 *   connection reset on purpose), records it for the merchant the credentials proved, even when it was
 *   refused before they were checked. A request refused for its credentials proves no merchant: not logged.
 * - `markRequest`, a stage of the API's pipeline (http/pipeline.ts), right around the handler: the
 *   merchant-clock time it was served at, and the events the handler itself caused.
 *
 * What is kept is the request's raw parts (domain/request-record.ts), formatted when read: the secret
 * never, the key masked and bodies cut at LOGGED_BODY_BYTES when shown. The capture reads nothing twice
 * (the answer as `c.json` made it, the body the validator read): bench/FAST-PATH.md.
 */
import type { Context, MiddlewareHandler } from "hono";
import { touches } from "../domain/logged-request.js";
import { NO_EVENTS, RequestRecord } from "../domain/request-record.js";
import type { Registry } from "../engine/registry.js";
import type { TenantStore } from "../engine/tenant-store.js";
import type { Tenant } from "../engine/tenant.js";
import { merchantOf } from "./auth.js";
import { resolveClientIp } from "./client-ip.js";
import type { AppEnv } from "./env.js";
import { ConnectionReset } from "./errors.js";
import type { OperationOf } from "./response-faults.js";
import { jsonSent } from "./response-headers.js";

/**
 * What `markRequest` saw, kept on the request's context under a symbol of its own rather than in its
 * variables: every read of `c.var` (the pipeline makes several per request) copies all the variables, so
 * one more costs each read, and a WeakMap costs more again.
 */
const MARK = Symbol("request-log mark");
type Marked = Context & { [MARK]?: { at: number; events: string[]; before: number } };

/** The request's headers as read: the socket's own list (`incoming.headers` and `c.req.raw.headers` would each build an object), else (no socket: `app.request`) the Request's. */
const rawHeaders = (c: Context<AppEnv>): readonly string[] => c.env?.incoming?.rawHeaders ?? [...c.req.raw.headers].flat();
/** Whether the request's body can be shown: sent, and small enough to have been read (never a body refused for its size). */
const hasBody = (c: Context<AppEnv>, status: number | null) => c.req.method !== "GET" && c.req.method !== "HEAD" && status !== 413;

/** The request body as text (the validator's read, cached: no second read of the stream). */
async function requestText(c: Context<AppEnv>): Promise<string | null> {
  try {
    const text = await c.req.text();
    return text === "" ? null : text;
  } catch {
    return null; // a stream cut off mid-way: nothing to show
  }
}

/** What the answer's JSON was, as `c.json` made it. */
interface Sent {
  object: unknown;
  text: string;
}

/** An answer not made by `c.json` (rare): its text, read from a copy, when it is JSON. */
async function otherText(res: Response | undefined): Promise<string | null> {
  if (!res || !(res.headers.get("content-type") ?? "").includes("json")) return null;
  try {
    return await res.clone().text();
  } catch {
    return null;
  }
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The merchant of a request refused before its credentials were checked (a body too large or not JSON):
 * a mistake of the merchant's integration, logged for it when the key and secret are its own. A request
 * whose credentials failed (401) proves no merchant.
 */
function refusedMerchant(c: Context<AppEnv>, registry: Registry, status: number | null): Tenant | undefined {
  if (status === 401) return undefined;
  const apiKey = c.req.header("x-api-key");
  const apiSecret = c.req.header("x-api-secret");
  return apiKey && apiSecret ? merchantOf(registry, apiKey, apiSecret) : undefined;
}

export const logRequests = (opts: { registry: Registry; store: TenantStore; trustProxy: boolean; operationOf: OperationOf }): MiddlewareHandler<AppEnv> =>
  async function logRequests(c, next) {
    const started = performance.now();
    const wallAt = opts.registry.wall();
    let reset = false;
    try {
      await next();
    } catch (err) {
      if (!(err instanceof ConnectionReset)) throw err;
      reset = true;
      throw err;
    } finally {
      const status = reset ? null : c.res.status;
      const tenant = c.get("tenant") ?? refusedMerchant(c, opts.registry, status);
      if (tenant?.requestLog.enabled) {
        const made = jsonSent(c);
        let sent: Sent | undefined = made;
        // Recorded before the answer leaves, so a client that reads the log next finds its request there,
        // through any process. The bodies are already in memory: only a shared store waits (for its row).
        try {
          const requestBody = hasBody(c, status) ? await requestText(c) : null;
          if (!reset && !sent) {
            const other = await otherText(c.res);
            if (other !== null) sent = { object: parsed(other), text: other };
          }
          const clientIp = c.get("clientIp") ?? resolveClientIp(c, opts.trustProxy);
          const entry = recordOf(c, tenant, { reset, status, started, wallAt, clientIp, operation: opts.operationOf(c) ?? null, requestBody, sent: reset ? undefined : sent, first: made?.first });
          const keeping = opts.store.logRequest(tenant, entry);
          if (keeping) await keeping;
        } catch {
          // The log never costs a request its answer.
        }
      }
    }
  };

/**
 * Keeps the request as recorded (request-record.ts): its raw parts, formatted when read. An answer
 * spoiled on purpose after its change was made (reset, 500, 504: an outcome rule `response`) hides a
 * real change, which the handler's own answer names: the log shows it, as the merchant's code should
 * have assumed.
 */
function recordOf(
  c: Context<AppEnv>,
  tenant: Tenant,
  { reset, status, started, wallAt, clientIp, operation, requestBody, sent, first }: {
    reset: boolean;
    status: number | null;
    started: number;
    wallAt: number;
    clientIp: string;
    operation: string | null;
    requestBody: string | null;
    sent: Sent | undefined;
    first: unknown;
  },
): RequestRecord {
  const mark = (c as Marked)[MARK];
  const url = c.req.url;
  const q = url.indexOf("?");
  const fault = c.get("responseFault");
  const spoiled = fault !== undefined;
  return new RequestRecord(
    {
      requestId: c.get("requestId") ?? "",
      method: c.req.method,
      path: c.req.path,
      query: q === -1 ? "" : url.slice(q + 1),
      operation,
      rawHeaders: rawHeaders(c),
      requestBody,
      responseBody: sent?.text ?? null,
      answer: sent?.object ?? null,
      handlerAnswer: first,
      spoiled,
      // Reading a route's parameters costs: only for an operation whose answers name objects.
      params: touches(operation) && (spoiled || (status !== null && status < 300)) ? (c.req.param() as Record<string, string>) : undefined,
      status,
      latencyMs: performance.now() - started,
      at: mark?.at ?? tenant.clock.now(),
      wallAt,
      clientIp,
      delivery: reset ? "connection_reset" : fault?.outcome === "slow_response" ? "slow_response" : "answered",
      events: mark?.events ?? NO_EVENTS,
      // The replay marks its requests in the app's environment, which no client request can set.
      sample: c.env?.sampleActivity === true,
    },
    tenant.requestLog.lastRecord,
  );
}

/**
 * Inside the catch-up, right before the handler: when it ran on the merchant's clock, and how many
 * events the merchant had; `markEvents`, right after the handler, notes which events it caused.
 */
export function markRequest(c: Context<AppEnv>, tenant: Tenant): void {
  if (tenant.requestLog.enabled) (c as Marked)[MARK] = { at: tenant.clock.now(), events: NO_EVENTS, before: tenant.state.outbox.length };
}

/** Right after the handler: the events it caused, on the request's mark (none marked: the log is off). */
export function markEvents(c: Context<AppEnv>, tenant: Tenant): void {
  const mark = (c as Marked)[MARK];
  const outbox = tenant.state.outbox;
  if (mark !== undefined && outbox.length > mark.before) mark.events = outbox.slice(mark.before);
}
