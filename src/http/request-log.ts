/**
 * Fills each merchant's request log (domain/request-log.ts) with its /api/v1 requests, in two parts:
 *
 * - `logRequests`, outermost: times the request and, once the answer is final (a fault applied, or the
 *   connection reset on purpose), records it for the merchant the credentials proved, even when it was
 *   refused before they were checked. A request refused for its credentials proves no merchant: not logged.
 * - `markRequest`, a stage of the API's pipeline (http/pipeline.ts), right around the handler: the
 *   merchant-clock time it was served at, and the events the handler itself caused.
 *
 * The secret is never kept and the key is masked; bodies are cut at LOGGED_BODY_BYTES. The capture
 * reads nothing twice (the answer as `c.json` made it, the body the validator read): bench/FAST-PATH.md.
 */
import type { Context, MiddlewareHandler } from "hono";
import { keepBody, maskKey, touchedObjects, type LoggedRequest, type TouchedObject } from "../domain/request-log.js";
import type { Registry } from "../engine/registry.js";
import type { TenantStore } from "../engine/tenant-store.js";
import type { Tenant } from "../engine/tenant.js";
import { merchantOf } from "./auth.js";
import { resolveClientIp } from "./client-ip.js";
import type { AppEnv } from "./env.js";
import { ConnectionReset } from "./errors.js";
import type { OperationOf } from "./response-faults.js";
import { jsonSent } from "./response-headers.js";

const MAX_HEADERS = 30;
const MAX_HEADER_VALUE = 500;
const SECRET_HEADERS = new Set(["x-api-secret", "authorization", "cookie", "proxy-authorization"]);

// Most requests touch nothing and cause no event: they share these (frozen: no entry can change another's).
const NO_OBJECTS = Object.freeze([]) as unknown as TouchedObject[];
const NO_EVENTS = Object.freeze([]) as unknown as string[];

/**
 * What `markRequest` saw, kept on the request's context under a symbol of its own rather than in its
 * variables: every read of `c.var` (the pipeline makes several per request) copies all the variables, so
 * one more costs each read, and a WeakMap costs more again.
 */
const MARK = Symbol("request-log mark");
type Marked = Context & { [MARK]?: { at: number; events: string[] } };

/** One header as logged: secrets replaced, the key masked, long values cut. */
function loggedValue(name: string, value: string): string {
  if (SECRET_HEADERS.has(name)) return "[not logged]";
  if (name === "x-api-key") return maskKey(value);
  return value.length > MAX_HEADER_VALUE ? `${value.slice(0, MAX_HEADER_VALUE)}…` : value;
}

/** The request's headers as logged: names lower-cased, at most MAX_HEADERS of them, a repeated one joined with ", ". */
function loggedHeaders(c: Context<AppEnv>): Record<string, string> {
  // The socket's own list when there is one: `incoming.headers` and `c.req.raw.headers` would each build an object.
  const raw = c.env?.incoming?.rawHeaders ?? [...c.req.raw.headers].flat();
  const out: Record<string, string> = {};
  let count = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const kept = out[name];
    if (kept !== undefined) out[name] = loggedValue(name, `${kept}, ${raw[i + 1]!}`);
    else if (count++ < MAX_HEADERS) out[name] = loggedValue(name, raw[i + 1]!);
  }
  return out;
}

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
          const keeping = record(c, tenant, opts.store, { reset, status, started, wallAt, clientIp, operation: opts.operationOf(c) ?? null, requestBody, sent, first: made?.first });
          if (keeping) await keeping;
        } catch {
          // The log never costs a request its answer.
        }
      }
    }
  };

function record(
  c: Context<AppEnv>,
  tenant: Tenant,
  store: TenantStore,
  m: {
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
): Promise<void> | undefined {
  const status = m.status;
  const answer = m.reset ? null : (m.sent?.object ?? null);
  const request = keepBody(m.requestBody);
  const response = keepBody(m.reset ? null : (m.sent?.text ?? null));
  const mark = (c as Marked)[MARK];
  const url = c.req.url;
  const q = url.indexOf("?");
  const errorCode = answer !== null && typeof answer === "object" ? (answer as { error_code?: unknown }).error_code : undefined;
  const entry: Omit<LoggedRequest, "seq"> = {
    request_id: c.get("requestId") ?? "",
    method: c.req.method,
    path: c.req.path,
    query: q === -1 ? "" : url.slice(q + 1),
    operation: m.operation,
    request_headers: loggedHeaders(c),
    request_body: request.body,
    request_body_truncated: request.truncated,
    status,
    error_code: typeof errorCode === "string" ? errorCode : null,
    response_body: response.body,
    response_body_truncated: response.truncated,
    latency_ms: Math.round((performance.now() - m.started) * 10) / 10,
    client_ip: m.clientIp,
    at: mark?.at ?? tenant.clock.now(),
    wall_at: m.wallAt,
    delivery: m.reset ? "connection_reset" : c.get("responseFault")?.outcome === "slow_response" ? "slow_response" : "answered",
    objects: touched(c, m.operation, status, m.first, answer),
    events: mark?.events ?? NO_EVENTS,
    // The replay marks its requests in the app's environment, which no client request can set.
    sample: c.env?.sampleActivity === true,
  };
  return store.logRequest(tenant, entry);
}

/**
 * What the request created, read or changed. A refusal touched nothing; but an answer spoiled on purpose
 * after its change was made (reset, 500, 504: an outcome rule `response`) hides a real change, which the
 * handler's own answer names: the log shows it, as the merchant's code should have assumed.
 */
function touched(c: Context<AppEnv>, operation: string | null, status: number | null, handlerAnswer: unknown, answer: unknown) {
  const spoiled = c.get("responseFault") !== undefined;
  if (!spoiled && (status === null || status >= 300)) return NO_OBJECTS;
  const objects = touchedObjects(operation, () => c.req.param() as Record<string, string>, spoiled ? handlerAnswer : answer);
  return objects.length === 0 ? NO_OBJECTS : objects;
}

/**
 * Inside the catch-up, right before the handler: when it ran on the merchant's clock; the function it
 * returns, called right after the handler, notes which events the handler caused.
 */
export function markRequest(c: Context<AppEnv>): (() => void) | undefined {
  const tenant = c.get("tenant");
  if (!tenant?.requestLog.enabled) return undefined;
  const before = tenant.state.outbox.length;
  const mark = { at: tenant.clock.now(), events: NO_EVENTS };
  (c as Marked)[MARK] = mark;
  return () => {
    if (tenant.state.outbox.length > before) mark.events = tenant.state.outbox.slice(before);
  };
}
