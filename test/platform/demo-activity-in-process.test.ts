/**
 * `start` makes the demo merchant's sample activity with requests handed straight to `app.fetch`
 * (http/in-process-request.ts), not through `app.request`, which builds an undici Request per request.
 * The two must leave the same merchant: state, clock, identifiers, timers, events and deliveries, the
 * integration checks, and a request log equal entry by entry. Only what no two runs share differs:
 * latency_ms (measured) and request_id (a random UUID, unless the client sent its own). The wall clock is the
 * harness's fixed one, so the realtime demo clock and every wall time agree between the two.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { inProcessRequest } from "../../src/http/in-process-request.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { runDemoActivity, type SendToApp } from "../../src/server.js";
import { loadDemoMerchants } from "../../src/store/fixtures.js";
import type { LoggedRequest } from "../../src/domain/request-log.js";
import { snapshotOf } from "../../src/engine/tenant.js";
import { harness } from "../helpers.js";

const throughAppRequest: SendToApp = (app, path, init, env) => app.request(path, init, env);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const demoMerchant = () => loadDemoMerchants().find((m) => m.merchant_id === "mch_demo")!;

const runtimes: Runtime[] = [];
afterEach(() => runtimes.splice(0).forEach((r) => r.stop()));

/** A sandbox with the demo merchant, its activity made through `send`, background work settled. */
async function demoBuilt(send?: SendToApp) {
  const runtime = createRuntime();
  runtimes.push(runtime);
  const h = harness({ runtime });
  await runDemoActivity(h.app, demoMerchant(), send);
  const demo = h.demo();
  await runtime.dispatcher.idle(demo.tenant);
  return { h, runtime, demo };
}

/**
 * `value` with what differs between any two runs set aside wherever it appears (log entries, the checks'
 * evidence, delivery attempts), once checked for its shape.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // A request id the sandbox made is a random UUID; a client's own is kept, and compared.
    if (key === "request_id" && typeof v === "string" && UUID.test(v)) continue;
    if (key === "latency_ms" && v !== null) expect(v).toBeGreaterThanOrEqual(0);
    else out[key] = comparable(v);
  }
  return out;
}

/** Everything of the merchant a later request, page or save could read. */
async function merchantOf(built: Awaited<ReturnType<typeof demoBuilt>>) {
  const { h, demo } = built;
  const t = demo.tenant;
  const checks = (await demo.call("GET", "/sandbox/v1/checks")).body;
  return comparable({
    snapshot: snapshotOf(t),
    clock: t.clock.settings(),
    log: t.requestLog.all(),
    logBytes: t.requestLog.bytes,
    requestTimes: [...t.requestTimes],
    deliveryLogBytes: t.deliveryLogBytes.bytes,
    creditReport: t.creditReport,
    checks,
    // The identifier source is where the activity left it: the next identifiers agree.
    nextIds: [t.ids.id("x"), t.ids.digits(10), t.ids.hex(8)],
    merchants: h.registry.list().map((m) => m.id),
  }) as { log: LoggedRequest[] };
}

describe("the demo merchant's sample activity, made in process", () => {
  it("leaves the merchant app.request leaves: state, identifiers, checks, and the request log entry by entry", async () => {
    const full = await merchantOf(await demoBuilt(throughAppRequest));
    const fast = await merchantOf(await demoBuilt());
    expect(fast.log.length).toBe(demoMerchant().requests.filter((r) => r.path.startsWith("/api/v1/")).length);
    expect(fast.log.every((e) => e.sample)).toBe(true);
    for (const [i, entry] of fast.log.entries()) expect(entry, `request log entry ${i + 1}`).toEqual(full.log[i]);
    expect(fast).toEqual(full);
  });

  it("answers any request as app.request does, and logs it alike", async () => {
    const activity = demoMerchant().requests;
    // The activity's paths, and paths a URL rewrites (spaces, dot segments, non-ASCII) or no route takes.
    const odd = ["/api/v1/virtual-cards/a b", "/api/v1/../v1/wallet/balance", "/api/v1/./wallet/balance", "/api/v1/virtual-cards/é/fund", "/api/v1/nowhere"];
    const paths = [...new Set(activity.map((r) => r.path.split("/$")[0]!)), "/api/v1/wallet/balance", "/api/v1/payout/transfer", ...odd];
    const request = fc.record({
      method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
      path: fc.constantFrom(...paths),
      contentType: fc.constantFrom("application/json", "text/plain", "application/vnd.api+json", undefined),
      // Names in any case, some the app reads (a client's X-Request-Id is kept when it is a sane token), values untrimmed.
      extra: fc.dictionary(fc.constantFrom("X-Request-Id", "x-request-id", "Accept", "X-Forwarded-For", "Content-Type", "X-API-KEY"), fc.stringMatching(/^[ -~]{0,24}$/), { maxKeys: 3 }),
      body: fc.option(fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 40 }), fc.constant(JSON.stringify(activity.find((r) => r.body)!.body))), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 4 }), async (requests) => {
        const sides = [await demoBuilt(throughAppRequest), await demoBuilt()];
        for (const r of requests) {
          const body = r.method === "GET" ? undefined : r.body;
          // Refused in process (it throws): a body under a blank Content-Type.
          const contentType = Object.entries(r.extra).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? r.contentType;
          if (body?.length && contentType?.trim() === "") continue;
          const init = (demo: (typeof sides)[number]["demo"]) => ({
            method: r.method,
            headers: { ...demo.keys, ...(r.contentType ? { "content-type": r.contentType } : {}), ...r.extra },
            body,
          });
          const env = { incoming: { socket: { remoteAddress: "127.0.0.1" } } };
          const [full, fast] = await Promise.all([
            sides[0]!.h.app.request(r.path, init(sides[0]!.demo), env),
            sides[1]!.h.app.fetch(inProcessRequest(r.path, init(sides[1]!.demo)), env),
          ]);
          expect(fast.status).toBe(full.status);
          const text = async (res: Response) => (await res.text()).replace(UUID_ANYWHERE, "<uuid>");
          expect(await text(fast)).toBe(await text(full));
        }
        await Promise.all(sides.map((s) => s.runtime.dispatcher.idle(s.demo.tenant)));
        const [full, fast] = await Promise.all(sides.map(merchantOf));
        expect(fast).toEqual(full);
      }),
      { numRuns: 25 },
    );
  });
});

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
