// The `--data` store's whole rewrites: a small merchant (under the 256 KB below which each write
// rewrites the file whole, through lowdb's atomic writer) saved after each of `writes` changes, one
// write at a time, straight on the store (no HTTP). bench/data-store.mjs grows its merchant past that
// size at once, so its writes are journal appends; this measures the other path.
//
//   node bench/data-store-whole.mjs [dist folder] [sync] [writes] [opening ledger entries]   (default: ./dist, os, 1000, 100)
//
// One JSON line: the write latency's mean, p50, p99 and max, and the file's final size. Compare builds
// side by side on the same machine, alternating which runs first.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const dist = resolve(process.argv[2] ?? "dist");
const sync = process.argv[3] ?? "os";
const writes = Number(process.argv[4] ?? 1000);
const opening = Number(process.argv[5] ?? 100);
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { FileStore } = await load("store/file-store.js");
const { buildRegistry } = await load("server.js");
const { snapshotOf, liveOf, contextOf } = await load("engine/tenant.js");
const { fundWallet } = await load("domain/wallet.js");

const { registry } = buildRegistry({});
const tenant = registry.create({ wallet_balance: 1000 });
for (let i = 0; i < opening; i++) fundWallet(contextOf(tenant), tenant.state, 100);
const dir = mkdtempSync(join(tmpdir(), "msb-bench-whole-"));
const store = new FileStore(dir, { revert: () => undefined, sync });
const latencies = [];
try {
  for (let i = 0; i < writes; i++) {
    fundWallet(contextOf(tenant), tenant.state, 1);
    const started = performance.now();
    await store.persist(tenant.id, () => snapshotOf(tenant), () => liveOf(tenant));
    latencies.push(performance.now() - started);
  }
  const file_kb = Math.round(statSync(join(dir, `${tenant.id}.json`)).size / 1024);
  await store.close();
  latencies.sort((a, b) => a - b);
  const q = (p) => +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(2);
  const mean = +(latencies.reduce((a, b) => a + b, 0) / latencies.length).toFixed(2);
  console.log(JSON.stringify({ sync, writes, file_kb, mean, p50: q(0.5), p99: q(0.99), max: q(1) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
