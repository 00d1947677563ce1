/**
 * The headers of every response, app-wide and registered first: `X-Request-Id` (the client's own when it
 * is a sane token, as hono's requestId takes it, else a new UUID), `X-Content-Type-Options: nosniff`, and
 * a deny-all CSP unless a page route set its own (so an HTML page that forgets its policy runs no script
 * rather than any).
 *
 * A JSON answer is built here as a Response with a plain header object carrying all of them, which keeps
 * @hono/node-server on its fast path (bench/FAST-PATH.md); any other answer gets them added afterwards.
 * `c.json` also keeps what it sent (jsonSent) for the request log, which so never reads a response back.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";

const REQUEST_ID = "x-request-id";
const CSP = "content-security-policy";
/** The policy of every answer that is not a page: nothing may load or frame it. */
export const DENY_ALL = "default-src 'none'; frame-ancestors 'none'";
const MAX_REQUEST_ID = 255;
const NOT_A_TOKEN = /[^\w\-=]/;

/** What `c.json` made: the last answer's object and text, and the first object (the handler's own, before a fault replaced it). */
export interface JsonSent {
  object: unknown;
  text: string;
  first: unknown;
}
const SENT = Symbol("json sent");
const ID = Symbol("request id");
const HONO_HEADER = Symbol("hono's c.header");
const HEADERS_SET = Symbol("a header set through the context");
const MADE = Symbol("the JSON answer made here");
/**
 * What this middleware keeps on the request's context, under symbols of its own: `c.header` and `c.json`
 * below are shared functions reading it through `this`, not closures made for every request.
 */
interface Kept {
  [SENT]?: JsonSent;
  [ID]: string;
  [HONO_HEADER]: Context["header"];
  [HEADERS_SET]: boolean;
  [MADE]: Response | undefined;
}
type WithKept = Context & Kept;

/** The JSON answer `c.json` made last for this request, if any. */
export const jsonSent = (c: Context): JsonSent | undefined => (c as WithKept)[SENT];

// Once anything sets a header through the context, hono holds it in a Headers object: answers then go
// the ordinary way, and the headers are added to them afterwards.
function header(this: WithKept, name: string, value?: string, options?: { append?: boolean }): void {
  this[HEADERS_SET] = true;
  this[HONO_HEADER](name, value, options);
}

function json(this: WithKept, object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>): Response {
  const text = JSON.stringify(object);
  const sent = this[SENT];
  this[SENT] = { object, text, first: sent ? sent.first : object };
  if (this[HEADERS_SET] || this.finalized || (arg !== undefined && typeof arg !== "number") || headers !== undefined) {
    return this.body(text, arg as never, { "Content-Type": "application/json", ...headers });
  }
  const made = new Response(text, {
    status: arg ?? 200,
    headers: { [CSP]: DENY_ALL, "content-type": "application/json", "x-content-type-options": "nosniff", [REQUEST_ID]: this[ID] },
  });
  this[MADE] = made;
  return made;
}

export const responseHeaders = (): MiddlewareHandler<AppEnv> =>
  async function responseHeaders(c, next) {
    let id = c.req.header(REQUEST_ID);
    if (!id || id.length > MAX_REQUEST_ID || NOT_A_TOKEN.test(id)) id = crypto.randomUUID();
    c.set("requestId", id);
    const k = c as WithKept;
    // Always set in this order: every context keeps one shape.
    k[ID] = id;
    k[HONO_HEADER] = c.header;
    k[HEADERS_SET] = false;
    k[MADE] = undefined;
    // Called as methods (`c.header(...)`, `c.json(...)`), as hono and every handler here call them.
    c.header = header as typeof c.header;
    c.json = json as unknown as typeof c.json;
    await next();
    const made = k[MADE];
    if (made !== undefined && c.res === made) return;
    const h = c.res.headers;
    h.set(REQUEST_ID, id);
    h.set("x-content-type-options", "nosniff");
    if (!h.has(CSP)) h.set(CSP, DENY_ALL);
  };
