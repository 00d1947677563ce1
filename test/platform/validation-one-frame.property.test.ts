/**
 * `router()` runs a route's checks, its media-type gate and its zod validation in one frame instead of
 * @hono/zod-openapi's chain of middlewares (http/validation.ts). Property: for any request, a route
 * registered through it answers exactly as the same route registered by the library: status, headers
 * that matter, body, and what the handler is handed as valid.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import * as payouts from "../../src/api/v1/payouts/routes.js";
import * as vtu from "../../src/api/v1/vtu/routes.js";
import * as levers from "../../src/sandbox/payouts/routes.js";
import type { AppEnv } from "../../src/http/env.js";
import { onError } from "../../src/http/errors.js";
import { router, validationHook } from "../../src/http/validation.js";
import { buildRegistry } from "../../src/server.js";
import type { Tenant } from "../../src/engine/tenant.js";

const UNLIMITED = { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 };
const { registry } = buildRegistry({});
const enabled = registry.create({ wallet_balance: 1e9, limits: UNLIMITED });
const disabled = registry.create({ wallet_balance: 1e9, limits: UNLIMITED, capabilities: { payouts: false, vtu: false, virtual_cards: false, checkout: false } });

// The handler shows what it was handed; the routes are real ones: a JSON body (with route checks), a query, path parameters with an optional body.
const echo = (c: any) => c.json({ success: true, data: { json: c.req.valid("json") ?? null, query: c.req.valid("query") ?? null, param: c.req.valid("param") ?? null } }, 200);
const MOUNTS = [
  ["/p", [payouts.transfer, payouts.status, payouts.verify]],
  ["/v", [vtu.airtime, vtu.status]],
  ["/s", [levers.approve, levers.reject]],
] as const;

function appWith(make: () => OpenAPIHono<AppEnv>, tenant: () => Tenant) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("tenant", tenant());
    c.set("clientIp", "127.0.0.1");
    await next();
  });
  for (const [at, ops] of MOUNTS) {
    const r = make();
    for (const op of ops) r.openapi(op as never, echo as never);
    app.route(at, r);
  }
  app.onError(onError);
  return app;
}

let current: Tenant = enabled;
const oneFrame = appWith(router, () => current);
const library = appWith(() => new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never }), () => current);

const field = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant("058"), fc.constant("0000000018"), fc.constant("mtn"), fc.constant("08031234567"), fc.constant(100));
const keys = fc.constantFrom("amount", "bank_code", "account_number", "account_name", "bank_name", "reference", "narration", "network", "phone", "reason", "__proto__", "constructor");
const body = fc.oneof(
  fc.dictionary(keys, field).map((o) => JSON.stringify(o)),
  fc.constant(JSON.stringify({ amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank" })),
  fc.constant(JSON.stringify({ network: "mtn", phone: "08031234567", amount: 100 })),
  fc.constantFrom("{not json", "", "[]", "null", "42", '"text"'),
  fc.json({ maxDepth: 3 }),
);
const contentType = fc.constantFrom(undefined, "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json", "text/plain", "application/x-www-form-urlencoded", "application/json;;", "");
const target = fc.constantFrom(
  ["POST", "/p/transfer"],
  ["POST", "/p/verify-account"],
  ["GET", "/p/status"],
  ["POST", "/v/airtime"],
  ["GET", "/v/transaction/status"],
  ["POST", "/s/payouts/PAYOUT_1/approve"],
  ["POST", "/s/payouts/x%20y/reject"],
);
const query = fc.oneof(fc.constant(""), fc.constantFrom("?reference=abc", "?reference=", "?reference=a&reference=b", "?__proto__=x", "?other=1"), fc.string({ maxLength: 10 }).map((s) => `?reference=${encodeURIComponent(s)}`));

async function answer(app: Hono<AppEnv>, method: string, url: string, type: string | undefined, text: string, asBytes: boolean) {
  const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
  const sendsBody = method === "POST";
  const res = await app.request(url, { method, headers, body: sendsBody ? (asBytes ? new TextEncoder().encode(text) : text) : undefined });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

describe("routes validated in one frame", () => {
  it("answer every request as the library's chain of middlewares does", async () => {
    await fc.assert(
      fc.asyncProperty(target, query, contentType, body, fc.boolean(), fc.boolean(), async ([method, path], q, type, text, asBytes, capable) => {
        current = capable ? enabled : disabled;
        const url = `http://sandbox.test${path}${method === "GET" ? q : ""}`;
        const mine = await answer(oneFrame, method, url, type, text, asBytes);
        const theirs = await answer(library, method, url, type, text, asBytes);
        expect(mine).toEqual(theirs);
      }),
      { numRuns: 400, seed: 28 },
    );
  });

  it("the route's checks still run first: a merchant without the capability is refused before its body is read", async () => {
    current = disabled;
    const res = await answer(oneFrame, "POST", "http://sandbox.test/p/transfer", "text/plain", "{not json", false);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error_code).toBe("PAYOUT_DISABLED");
  });
});
