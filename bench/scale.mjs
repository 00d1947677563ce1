// Scale probes run in their own process (fresh heap), printing one JSON line:
//   node bench/scale.mjs timers   -> ms to advance over 100,000 pending timers
//   node bench/scale.mjs memory   -> RSS with 1,000 merchants and 100,000 ledger entries
// Only the package's public API (dist/index.js) and HTTP: state is built by restoring snapshots
// (PUT /sandbox/v1/snapshot), as a user could, never through the sandbox's internals.
import { performance } from "node:perf_hooks";
import { buildRegistry, createApp } from "../dist/index.js";

const mode = process.argv[2];
const { registry } = buildRegistry({});
const app = createApp({ registry, snapshotLimitBytes: 256 * 1024 * 1024 });

async function call(method, path, keys, body) {
  const headers = { ...keys, ...(body === undefined ? {} : { "content-type": "application/json" }) };
  const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** A new merchant (manual clock, empty wallet) and its keys. */
async function merchant() {
  const { data } = await call("POST", "/sandbox/v1/merchants", undefined, { wallet_balance: 0 });
  return { "x-api-key": data.api_key, "x-api-secret": data.api_secret };
}

/** The merchant's snapshot, changed by `edit`, restored into it. */
async function restoreEdited(keys, edit) {
  const { data } = await call("GET", "/sandbox/v1/snapshot", keys);
  edit(data);
  await call("PUT", "/sandbox/v1/snapshot", keys, data);
}

if (mode === "timers") {
  const keys = await merchant();
  await restoreEdited(keys, (snap) => {
    const now = snap.clock.now;
    // KYC timers naming no cardholder: each fires and does nothing, so this measures the clock itself.
    snap.state.timers = Array.from({ length: 100_000 }, (_, i) => ({ at: now + 1000 + (i % 3600) * 1000, seq: i + 1, kind: "kyc.approve", merchantId: snap.merchant.merchant_id, ref: String(i) }))
      .sort((a, b) => a.at - b.at || a.seq - b.seq);
    snap.state.sequences.timer = 100_000;
  });
  const started = performance.now();
  const body = await call("POST", "/sandbox/v1/clock/advance", keys, { by: "2h" });
  const ms = performance.now() - started;
  console.log(JSON.stringify({ timers: 100_000, fired: body.data.fired, ms: Math.round(ms) }));
} else if (mode === "memory") {
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 1_000; i++) {
    const keys = await merchant();
    await restoreEdited(keys, (snap) => {
      const at = snap.clock.now;
      snap.state.ledger = Array.from({ length: 100 }, (_, n) => ({
        entry_id: n + 1,
        at,
        kind: "wallet_funding",
        amount: 10_000,
        balance_after: (n + 1) * 10_000,
        transaction_id: `TXN_BENCH${String(i).padStart(4, "0")}${String(n).padStart(3, "0")}`,
        description: "Wallet funding (sandbox)",
      }));
    });
  }
  globalThis.gc?.();
  const rss = process.memoryUsage().rss;
  console.log(JSON.stringify({ merchants: 1_000, ledger_entries: 100_000, rss_mb: Math.round(rss / 1e6), rss_before_mb: Math.round(before / 1e6) }));
}
