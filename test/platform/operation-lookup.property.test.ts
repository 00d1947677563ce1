/**
 * The operation a request reached (http/response-faults.ts, operationLookup) is remembered per route
 * reached; whatever the requests and their order, it equals the full lookup: the method and the last
 * matched route's pattern, found among the app's OpenAPI definitions.
 */
import fc from "fast-check";
import { Hono } from "hono";
import { routePath } from "hono/route";
import { describe, expect, it } from "vitest";
import { MemoRouter } from "../../src/http/memo-router.js";
import { operationLookup } from "../../src/http/response-faults.js";
import { harness } from "../helpers.js";

const real = harness().app;
const definitions = () => real.openAPIRegistry.definitions;

/** The lookup as it was: the definitions searched by method and pattern on every ask. */
function fullLookup(method: string, pattern: string): string | undefined {
  for (const d of definitions()) {
    if (d.type === "route" && d.route.operationId && d.route.method.toUpperCase() === method && d.route.path === pattern.replace(/:(\w+)/g, "{$1}")) return d.route.operationId;
  }
  return undefined;
}

/** The real app's routes on an app of their own, each request's lookup beside the full one. */
function appOfTheSameRoutes() {
  const seen: Array<{ got: string | undefined; again: string | undefined; want: string | undefined }> = [];
  const lookup = operationLookup(definitions);
  const app = new Hono({ router: new MemoRouter() });
  app.use("*", async (c, next) => {
    await next();
    // After the handler, as the request log and the fault decision ask.
    seen.push({ got: lookup(c as never), again: lookup(c as never), want: fullLookup(c.req.method, routePath(c, -1)) });
  });
  for (const r of real.routes) {
    if (r.method === "ALL") app.all(r.path, (_c, next) => next());
    else app.on(r.method, r.path, (c) => c.text("ok"));
  }
  return { app, seen };
}

const patterns = [...new Set(real.routes.filter((r) => r.method !== "ALL").map((r) => r.path))];
const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);
/** A path of the app's (its parameters filled in), or one it does not have. */
const path = fc.oneof(
  fc.tuple(fc.constantFrom(...patterns), fc.array(segment, { minLength: 4, maxLength: 4 })).map(([p, values]) => {
    let i = 0;
    return p.replace(/:\w+/g, () => values[i++ % values.length]!);
  }),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join("/")}`),
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/api/v1/${parts.join("/")}`),
);
const request = fc.record({ method: fc.constantFrom("GET", "POST", "HEAD", "PUT", "PATCH", "DELETE"), path });

describe("the operation a request reached", () => {
  it("is the full lookup's, for any requests in any order (each route's answer remembered)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 40 }), async (requests) => {
        const { app, seen } = appOfTheSameRoutes();
        // Each request twice: the second reaches a route already remembered.
        for (const r of [...requests, ...requests]) await app.request(r.path, { method: r.method });
        expect(seen.length).toBe(requests.length * 2);
        for (const s of seen) {
          expect(s.got).toBe(s.want);
          expect(s.again).toBe(s.want);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("names the operations of the hot routes", async () => {
    const { app, seen } = appOfTheSameRoutes();
    await app.request("/api/v1/wallet/balance");
    await app.request("/api/v1/payout/transfer", { method: "POST" });
    await app.request("/api/v1/wallet/balance", { method: "HEAD" });
    expect(seen.map((s) => s.got)).toEqual([fullLookup("GET", "/api/v1/wallet/balance"), "createPayout", fullLookup("HEAD", "/api/v1/wallet/balance")]);
    expect(seen[0]!.got).toEqual(expect.any(String));
  });
});
