/**
 * Turns zod failures into the envelope's `errors` object: one key per bad field (dotted path), with
 * "required" said plainly when the field was simply not sent.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import type { AppEnv } from "./env.js";
import { errorResponse } from "./errors.js";
import { isJsonType } from "./json-only.js";

type Issue = z.core.$ZodIssue;

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * A body that fits no branch of a union (a virtual account of one customer type or the other): report
 * the branch the caller meant, the one whose literal fields (customer_type) matched, with the fewest
 * issues, as if it were the only schema. Its issues carry paths relative to the union.
 */
function meantBranch(issue: Extract<Issue, { code: "invalid_union" }>): Issue[] {
  const depth = issue.path.length + 1;
  const mismatch = (i: Issue) => i.code === "invalid_value" && i.path.length <= depth;
  const candidates = issue.errors.filter((branch) => !branch.some(mismatch));
  const pool = candidates.length > 0 ? candidates : issue.errors;
  const best = pool.reduce((a, b) => (b.length < a.length ? b : a));
  return best.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue);
}

function formatIssues(issues: Issue[], data: unknown, rootKey = "body"): Record<string, string[]> {
  issues = issues.flatMap((i) => (i.code === "invalid_union" && i.errors.length > 0 ? meantBranch(i) : [i]));
  // A Map, not a plain object: a field named "__proto__" or "constructor" must not hit Object.prototype.
  const errors = new Map<string, string[]>();
  const add = (key: string, message: string) => {
    const list = errors.get(key) ?? [];
    if (!list.includes(message)) list.push(message);
    errors.set(key, list);
  };
  for (const issue of issues) {
    const key = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const unknown of issue.keys) add(key ? `${key}.${unknown}` : unknown, "Unknown field.");
      continue;
    }
    const missing = issue.code === "invalid_type" && issue.path.length > 0 && valueAt(data, issue.path) === undefined;
    add(key || rootKey, missing ? `The ${key} field is required.` : issue.message);
  }
  return Object.fromEntries(errors);
}

const ROOT_KEYS: Record<string, string> = { json: "body", query: "query", param: "path", header: "headers" };

export function validationHook(
  result: { success: boolean; error?: { issues: Issue[] }; data: unknown; target: string },
  c: Context<AppEnv>,
) {
  if (result.success || !result.error) return;
  const errors = formatIssues(result.error.issues, result.data, ROOT_KEYS[result.target] ?? result.target);
  return errorResponse(c, "VALIDATION_ERROR", "The given data was invalid.", { errors });
}

// ---- One frame per route for its checks and its validation -------------------------------------------

/** A route middleware that only checks (throws, or sets a variable) and never waits. */
export type Check = (c: Context<AppEnv>) => void;
type Checking = MiddlewareHandler<AppEnv> & { check: Check };

/** A route middleware made of a synchronous check: a route of `router()` runs it in its validator's frame. */
export function checking(name: string, check: Check): Checking {
  const middleware = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    check(c);
    await next();
  };
  Object.defineProperty(middleware, "name", { value: name });
  return Object.assign(middleware, { check });
}

type Schema = z.ZodType;
interface RouteRequest {
  query?: Schema;
  params?: Schema;
  headers?: unknown;
  cookies?: unknown;
  body?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}
type Hook = typeof validationHook;

// @hono/zod-openapi's own tests of a request's media type, kept exactly: a body's Content-Type must be
// JSON's, with parameters; a body sent with none is refused as well.
const JSON_MEDIA = /^application\/([a-z-.]+\+)?json/i;
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const isZod = (x: unknown): x is Schema => typeof x === "object" && x !== null && "_zod" in x;

async function hasRequestBody(c: Context<AppEnv>): Promise<boolean> {
  const raw = c.req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await c.req.arrayBuffer()).byteLength > 0;
  const body = raw.clone().body;
  if (body === null) return false;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/**
 * What @hono/zod-openapi's `openapi()` registers in front of a handler (the route's middlewares, a
 * media-type gate, one zod validator per part), in one frame: each of those is an async middleware of
 * its own, and on the API's POSTs they were a tenth of the request (bench/FAST-PATH.md). The same
 * checks in the same order, the same hook, the same errors; parts this does not cover (headers,
 * cookies, forms, other media types) return undefined and the library registers the route itself.
 */
function validateInOneFrame(route: { request?: RouteRequest; middleware?: unknown }, hook: Hook): { before: MiddlewareHandler<AppEnv>[]; validate: MiddlewareHandler<AppEnv> } | undefined {
  const request = route.request ?? {};
  if (request.headers || request.cookies) return undefined;
  const content = request.body?.content;
  const media = content ? Object.keys(content) : [];
  if (media.some((m) => !JSON_MEDIA.test(m) || !isZod(content![m]!.schema))) return undefined;
  const bodySchemas = media.map((m) => content![m]!.schema as Schema);
  const bodyRequired = request.body?.required === true;
  const listed = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? (route.middleware as MiddlewareHandler<AppEnv>[]) : [route.middleware as MiddlewareHandler<AppEnv>];
  // In the frame only when every one of them is a check: a middleware that waits keeps them all in order before it.
  const folded = listed.every((m) => typeof (m as Partial<Checking>).check === "function");
  const before = folded ? [] : listed;
  const checks = folded ? listed.map((m) => (m as Checking).check) : [];
  const { query, params } = request;

  /** A part validated as zod-validator does it: the hook's answer, if any, ends the request. */
  const part = (c: Context<AppEnv>, target: "query" | "param" | "json", schema: Schema, value: unknown): Response | undefined => {
    const result = schema.safeParse(value);
    const answer = hook({ data: result.success ? result.data : value, success: result.success, error: result.error, target } as never, c);
    if (answer) return answer as Response;
    if (!result.success) return c.json(result, 400);
    c.req.addValidatedData(target, result.data as never);
    return undefined;
  };
  const validate: MiddlewareHandler<AppEnv> = async function validate(c, next) {
    for (const check of checks) check(c);
    if (query) {
      const value = Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => (v.length === 1 ? [k, v[0]] : [k, v])));
      const refused = part(c, "query", query, value);
      if (refused) return refused;
    }
    if (params) {
      const refused = part(c, "param", params, c.req.param());
      if (refused) return refused;
    }
    if (bodySchemas.length > 0) {
      const type = c.req.header("content-type");
      if (type) {
        if (!JSON_REQUEST.test(type)) throw new HTTPException(415, { message: "Unsupported Media Type" });
      } else if (await hasRequestBody(c)) throw new HTTPException(415, { message: "Unsupported Media Type" });
      for (const schema of bodySchemas) {
        if (!bodyRequired && !type) {
          c.req.addValidatedData("json", {});
          continue;
        }
        let value: unknown = {};
        if (type && isJsonType(type)) {
          try {
            value = await c.req.json();
          } catch {
            throw new HTTPException(400, { message: "Malformed JSON in request body" });
          }
        }
        const refused = part(c, "json", schema, value);
        if (refused) return refused;
      }
    }
    await next();
  };
  return { before, validate };
}

/** Every router is made here so that every route validates through the same hook, in one frame where it can. */
export function router() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  const library = app.openapi;
  app.openapi = ((route: { request?: RouteRequest; middleware?: unknown; hide?: boolean; method: string; path: string }, handler: never, hook?: Hook) => {
    const frame = validateInOneFrame(route, hook ?? validationHook);
    if (!frame) return library(route as never, handler, hook as never);
    const { middleware: _listed, hide, ...documented } = route;
    if (!hide) app.openAPIRegistry.registerPath(documented as never);
    app.on([route.method], [route.path.replaceAll(/\/{(.+?)}/g, "/:$1")], ...frame.before, frame.validate, handler);
    return app;
  }) as typeof app.openapi;
  return app;
}
