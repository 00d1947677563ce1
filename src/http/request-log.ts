/**
 * Fills each merchant's request log (domain/request-log.ts) with its /api/v1 requests. Two small
 * middlewares, like response-faults.ts:
 *
 * - `logRequests` is the outermost: it times the request, and once the answer is final (a fault
 *   applied, or the connection reset on purpose) records it, with its bodies, for the merchant the
 *   credentials proved. A request refused for its credentials proves no merchant and is not logged.
 * - `markRequest` sits inside the clock's catch-up, right around the handler: the merchant-clock time
 *   the request was served at, and the webhook events the handler itself caused (not those of timers
 *   that came due first).
 *
 * The secret is never kept and the key is masked; bodies are cut at LOGGED_BODY_BYTES.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { keepBody, maskKey, touchedObjects, type LoggedRequest } from "../domain/request-log.js";
import type { AppEnv } from "./env.js";
import { ConnectionReset } from "./errors.js";
import type { OperationOf } from "./response-faults.js";

const MAX_HEADERS = 30;
const MAX_HEADER_VALUE = 500;
const SECRET_HEADERS = new Set(["x-api-secret", "authorization", "cookie", "proxy-authorization"]);

/** The request's headers as logged: names lower-cased, secrets replaced, the key masked, bounded. */
function loggedHeaders(c: Context<AppEnv>): Record<string, string> {
  // The node adapter's own parse when there is one: reading c.req.raw.headers would build a Headers object.
  const incoming: IncomingHttpHeaders | undefined = c.env?.incoming?.headers;
  const pairs: Array<[string, string]> = incoming
    ? Object.entries(incoming).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])
    : [...c.req.raw.headers.entries()];
  const out: Record<string, string> = {};
  for (const [name, value] of pairs.slice(0, MAX_HEADERS)) {
    const key = name.toLowerCase();
    if (SECRET_HEADERS.has(key)) out[key] = "[not logged]";
    else if (key === "x-api-key") out[key] = maskKey(value);
    else out[key] = value.length > MAX_HEADER_VALUE ? `${value.slice(0, MAX_HEADER_VALUE)}…` : value;
  }
  return out;
}

/** The request body as text, when it is small enough to have been read (never a body refused for its size). */
async function requestText(c: Context<AppEnv>, status: number | null): Promise<string | null> {
  if (c.req.method === "GET" || c.req.method === "HEAD" || status === 413) return null;
  try {
    const text = await c.req.text();
    return text === "" ? null : text;
  } catch {
    return null; // a stream cut off mid-way: nothing to show
  }
}

async function responseText(res: Response | undefined): Promise<string | null> {
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

export const logRequests = (opts: { wall: () => number; operationOf: OperationOf }): MiddlewareHandler<AppEnv> =>
  async function logRequests(c, next) {
    const started = performance.now();
    const wallAt = opts.wall();
    let reset = false;
    try {
      await next();
    } catch (err) {
      if (!(err instanceof ConnectionReset)) throw err;
      reset = true;
      throw err;
    } finally {
      const tenant = c.var.tenant;
      if (tenant?.requestLog.enabled) {
        // Recorded before the answer leaves, so a client that reads the log next finds its request there.
        // The bodies are already in memory: this waits on no I/O.
        await record(c, { reset, started, wallAt, operation: opts.operationOf(c) ?? null }).catch(() => undefined);
      }
    }
  };

async function record(c: Context<AppEnv>, m: { reset: boolean; started: number; wallAt: number; operation: string | null }): Promise<void> {
  const tenant = c.var.tenant;
  const res = m.reset ? undefined : c.res;
  const status = res?.status ?? null;
  const latency_ms = Math.round((performance.now() - m.started) * 10) / 10;
  const [reqText, resText] = await Promise.all([requestText(c, status), responseText(res)]);
  const answer = parsed(resText);
  const request = keepBody(reqText);
  const response = keepBody(resText);
  const mark = c.var.logMark;
  const url = c.req.url;
  const q = url.indexOf("?");
  const entry: Omit<LoggedRequest, "seq"> = {
    request_id: c.var.requestId ?? "",
    method: c.req.method,
    path: c.req.path,
    query: q === -1 ? "" : url.slice(q + 1),
    operation: m.operation,
    request_headers: loggedHeaders(c),
    request_body: request.body,
    request_body_truncated: request.truncated,
    status,
    error_code: answer !== null && typeof answer === "object" && typeof (answer as { error_code?: unknown }).error_code === "string" ? (answer as { error_code: string }).error_code : null,
    response_body: response.body,
    response_body_truncated: response.truncated,
    latency_ms,
    client_ip: c.var.clientIp ?? "",
    at: mark?.at ?? tenant.clock.now(),
    wall_at: m.wallAt,
    delivery: m.reset ? "connection_reset" : c.var.responseFault?.outcome === "slow_response" ? "slow_response" : "answered",
    objects: status !== null && status < 300 ? touchedObjects(m.operation, c.req.param() as Record<string, string>, answer) : [],
    events: mark?.events ?? [],
  };
  tenant.requestLog.add(entry);
}

/** Inside the catch-up: when the handler ran on the merchant's clock, and which events it caused. */
export const markRequest: MiddlewareHandler<AppEnv> = async function markRequest(c, next) {
  const tenant = c.var.tenant;
  if (!tenant?.requestLog.enabled) return next();
  const before = tenant.state.outbox.length;
  const mark = { at: tenant.clock.now(), events: [] as string[] };
  c.set("logMark", mark);
  await next();
  mark.events = tenant.state.outbox.slice(before);
};
