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
type WithSent = Context & { [SENT]?: JsonSent };

/** The JSON answer `c.json` made last for this request, if any. */
export const jsonSent = (c: Context): JsonSent | undefined => (c as WithSent)[SENT];

export const responseHeaders = (): MiddlewareHandler<AppEnv> =>
  async function responseHeaders(c, next) {
    let id = c.req.header(REQUEST_ID);
    if (!id || id.length > MAX_REQUEST_ID || NOT_A_TOKEN.test(id)) id = crypto.randomUUID();
    c.set("requestId", id);
    const requestId = id;
    // Once anything sets a header through the context, hono holds it in a Headers object: answers then go
    // the ordinary way, and the headers below are added to them afterwards.
    let contextHeaders = false;
    const header = c.header;
    c.header = ((name: string, value?: string, options?: { append?: boolean }) => {
      contextHeaders = true;
      header(name, value, options);
    }) as typeof c.header;
    let made: Response | undefined;
    c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
      const text = JSON.stringify(object);
      const sent = (c as WithSent)[SENT];
      (c as WithSent)[SENT] = { object, text, first: sent ? sent.first : object };
      if (contextHeaders || c.finalized || (arg !== undefined && typeof arg !== "number") || headers !== undefined) {
        return c.body(text, arg as never, { "Content-Type": "application/json", ...headers });
      }
      made = new Response(text, {
        status: arg ?? 200,
        headers: { [CSP]: DENY_ALL, "content-type": "application/json", "x-content-type-options": "nosniff", [REQUEST_ID]: requestId },
      });
      return made;
    }) as unknown as typeof c.json;
    await next();
    if (made !== undefined && c.res === made) return;
    const h = c.res.headers;
    h.set(REQUEST_ID, requestId);
    h.set("x-content-type-options", "nosniff");
    if (!h.has(CSP)) h.set(CSP, DENY_ALL);
  };
