/**
 * PostgreSQL lost while a node runs (`start --data postgres://…`, the server stopped under it): every
 * request answers 503 STORE_UNAVAILABLE (never another 5xx), nothing is applied in part, /health says
 * the store is failing; and once the database is back, service resumes by itself, with no restart.
 */
import { afterEach, describe, expect, it } from "vitest";
import { payoutBody } from "../client.js";
import { REPO_ROOT } from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";

const pg = usePostgres();
let node: StartedServer | undefined;
afterEach(async () => {
  await node?.kill();
  node = undefined;
});

async function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(SKIP_POSTGRES)("PostgreSQL lost under a running node", () => {
  it("answers 503 STORE_UNAVAILABLE meanwhile, applies nothing in part, and resumes by itself", async () => {
    node = await startServerProcess(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "0", "--data", pg.cluster.url, "--pg-statement-timeout-ms", "2000"], {
      cwd: REPO_ROOT,
      ready: "Webhook secret",
      timeoutMs: 60_000,
    });
    const base = node.url;
    const made = await send(base, "POST", "/sandbox/v1/merchants", {}, { wallet_balance: 50_000 });
    expect(made.status).toBe(201);
    const keys = { "x-api-key": made.body.data.api_key, "x-api-secret": made.body.data.api_secret };
    expect((await send(base, "POST", "/api/v1/payout/transfer", keys, payoutBody({ amount: 1_000, reference: "before" }))).status).toBe(201);

    await pg.cluster.pause();
    // An idle node notices by itself (its background work meets the closed database): balancers take it out.
    await expect.poll(async () => (await send(base, "GET", "/health")).status, { timeout: 10_000, interval: 100 }).toBe(503);
    const during = [
      await send(base, "POST", "/api/v1/payout/transfer", keys, payoutBody({ amount: 1_000, reference: "during" })),
      await send(base, "GET", "/api/v1/wallet/balance", keys),
      await send(base, "POST", "/sandbox/v1/wallet/fund", keys, { amount: 500 }),
    ];
    for (const res of during) expect(res, JSON.stringify(res.body)).toMatchObject({ status: 503, body: { success: false, error_code: "STORE_UNAVAILABLE" } });
    const health = await send(base, "GET", "/health");
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: "store_failing", store: { kind: "postgres", state: "failing" } });
    expect(JSON.stringify(health.body) + node.output()).not.toContain(new URL(pg.cluster.url).password);

    await pg.cluster.resume();
    // And comes back by itself, before any request: /health first, then the API.
    await expect.poll(async () => (await send(base, "GET", "/health")).status, { timeout: 20_000, interval: 200 }).toBe(200);
    await expect.poll(async () => (await send(base, "GET", "/api/v1/wallet/balance", keys)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    // Nothing of what was refused is there; what was acknowledged is; the balance is the one before.
    expect((await send(base, "GET", "/api/v1/payout/status?reference=during", keys)).status).toBe(404);
    expect((await send(base, "GET", "/api/v1/payout/status?reference=before", keys)).status).toBe(200);
    const ledger = await send(base, "GET", "/sandbox/v1/wallet/ledger", keys);
    expect(ledger.body.data.filter((e: { kind: string }) => e.kind === "wallet_funding")).toHaveLength(1); // the opening balance only
    expect((await send(base, "POST", "/api/v1/payout/transfer", keys, payoutBody({ amount: 1_000, reference: "after" }))).status).toBe(201);
  }, 120_000);
});
