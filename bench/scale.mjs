// Scale probes run in their own process (fresh heap), printing one JSON line:
//   node bench/scale.mjs timers   -> ms to advance over 100,000 pending timers
//   node bench/scale.mjs memory   -> RSS with 1,000 merchants and 100,000 ledger entries
import { performance } from "node:perf_hooks";
import { createApp } from "../dist/app.js";
import { buildRegistry } from "../dist/server.js";
import { schedule } from "../dist/domain/timers.js";
import { fundWallet } from "../dist/domain/wallet.js";
import { contextOf } from "../dist/store/tenant.js";

const mode = process.argv[2];
const { registry } = buildRegistry({});
const app = createApp({ registry });

if (mode === "timers") {
  const tenant = registry.create({ wallet_balance: 0 }, { defaultClockMode: "manual" });
  const ctx = contextOf(tenant);
  for (let i = 0; i < 100_000; i++) schedule(ctx, tenant.state, ctx.now + 1000 + (i % 3600) * 1000, "kyc.approve", String(i));
  const headers = { "x-api-key": tenant.config.api_key, "x-api-secret": tenant.config.api_secret, "content-type": "application/json" };
  const started = performance.now();
  const res = await app.request("/sandbox/v1/clock/advance", { method: "POST", headers, body: JSON.stringify({ by: "2h" }) });
  const ms = performance.now() - started;
  const body = await res.json();
  console.log(JSON.stringify({ timers: 100_000, fired: body.data.fired, ms: Math.round(ms) }));
} else if (mode === "memory") {
  const before = process.memoryUsage().rss;
  const tenants = [];
  for (let i = 0; i < 1_000; i++) tenants.push(registry.create({ wallet_balance: 0 }, { defaultClockMode: "manual" }));
  for (let i = 0; i < 100_000; i++) {
    const t = tenants[i % tenants.length];
    fundWallet(contextOf(t), t.state, 100);
  }
  globalThis.gc?.();
  const rss = process.memoryUsage().rss;
  console.log(JSON.stringify({ merchants: 1_000, ledger_entries: 100_000, rss_mb: Math.round(rss / 1e6), rss_before_mb: Math.round(before / 1e6) }));
}
