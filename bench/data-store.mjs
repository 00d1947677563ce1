// The `--data` store under payout load, as one merchant grows: p99 latency and requests per second of
// POST /api/v1/payout/transfer at 1k, 10k and 100k records (payouts + ledger entries), in memory and
// with --data side by side, and the longest event-loop stall while it ran (the server runs in this
// process, so perf_hooks sees its loop; compactions run during the load).
//
//   node bench/data-store.mjs [dist folder] [seconds per run] [sync]   (default: ./dist, 3, os)
//
// Pass another build's dist folder to compare (e.g. the main branch built in a scratch copy). One JSON
// line per run. The client is in the same process (keep-alive node:http, 10 connections): absolute
// numbers carry its cost too, so compare runs side by side on the same machine.
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const dist = resolve(process.argv[2] ?? "dist");
const seconds = Number(process.argv[3] ?? 3);
const sync = process.argv[4] ?? "os";
const { startServer, parseSettings } = await import(pathToFileURL(join(dist, "index.js")).href);
const CONNECTIONS = 10;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function request(url, method, headers, body) {
  return new Promise((done, fail) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", fail);
    req.end(body);
  });
}

const PAYOUT = JSON.stringify({ amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank" });

async function merchant(base) {
  const res = await request(`${base}/sandbox/v1/merchants`, "POST", { "content-type": "application/json" }, JSON.stringify({
    wallet_balance: 1e11,
    limits: {
      requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0,
      payout_max: 1e11, payout_hourly_amount: 1e11, payout_daily_amount: 1e11, payout_review_threshold: 1e11,
    },
  }));
  const { data } = JSON.parse(res.text);
  return { id: data.merchant_id, headers: { "x-api-key": data.api_key, "x-api-secret": data.api_secret, "content-type": "application/json" } };
}

/** `n` completed payouts and their ledger entries, through PUT /sandbox/v1/snapshot (as bench/run.mjs grows one). */
async function grow(base, headers, n) {
  const snapshot = JSON.parse((await request(`${base}/sandbox/v1/snapshot`, "GET", headers)).text).data;
  const now = snapshot.clock.now;
  let balance = 1e13;
  snapshot.state.ledger = [{ entry_id: 1, at: now, kind: "wallet_funding", amount: balance, balance_after: balance, transaction_id: "TXN_SEED", description: "seed" }];
  snapshot.state.payouts = [];
  for (let i = 0; i < n; i++) {
    snapshot.state.payouts.push({
      reference: `seed-${i}`, order_no: `PO_SEED${i}`, amount: 100000, fee: 1000, total_deducted: 101000, status: "completed", bank_code: "058", bank_name: "Guaranty Trust Bank",
      account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", narration: null, source: "api", client_ip: "127.0.0.1", created_at: now - 172800000,
      processed_at: now - 172700000, error: null, plan: { outcome: "completed", delay_ms: 30000, error: null },
    });
    balance -= 101000;
    snapshot.state.ledger.push({ entry_id: i + 2, at: now - 172800000, kind: "payout", amount: -101000, balance_after: balance, transaction_id: `PO_SEED${i}`, description: "seed" });
  }
  snapshot.state.timers = [];
  const res = await request(`${base}/sandbox/v1/snapshot`, "PUT", headers, JSON.stringify(snapshot));
  if (res.status !== 200) throw new Error(`snapshot load failed: ${res.status} ${res.text.slice(0, 300)}`);
}

async function load(base, headers, ms) {
  const latencies = [];
  let failed = 0;
  const until = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      const res = await request(`${base}/api/v1/payout/transfer`, "POST", headers, PAYOUT);
      latencies.push(performance.now() - t);
      if (res.status !== 201) failed += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return { requests: latencies.length, rps: Math.round(latencies.length / (elapsed / 1000)), p50: +q(0.5).toFixed(1), p99: +q(0.99).toFixed(1), max: +q(1).toFixed(1), failed };
}

for (const n of [1_000, 10_000, 100_000]) {
  for (const mode of ["memory", "data"]) {
    const dir = mode === "data" ? mkdtempSync(join(tmpdir(), "msb-bench-data-")) : undefined;
    const args = ["--port", "0", "--snapshot-limit-mb", "256", ...(dir ? ["--data", dir] : [])];
    // Older builds have no --data-sync: only passed when asked for.
    if (dir && sync !== "os") args.push("--data-sync", sync);
    const parsed = parseSettings(args, {});
    if ("error" in parsed) throw new Error(parsed.error);
    const sandbox = await startServer(parsed.settings);
    try {
      const { id, headers } = await merchant(sandbox.url);
      await grow(sandbox.url, headers, n);
      await load(sandbox.url, headers, 500); // warm-up
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const r = await load(sandbox.url, headers, seconds * 1000);
      delay.disable();
      const writes = sandbox.store?.writeCount;
      const compactions = sandbox.store?.compactions;
      console.log(JSON.stringify({ records: n, mode, sync: dir ? sync : undefined, ...r, loop_max_ms: +(delay.max / 1e6).toFixed(1), writes, compactions }));
      if (dir && sandbox.store?.compact) {
        // A compaction of everything journaled so far, under the same load: how long the loop stalls.
        const stall = monitorEventLoopDelay({ resolution: 5 });
        stall.enable();
        const started = performance.now();
        let took = 0;
        const folded = sandbox.store.compact(id).then(() => (took = performance.now() - started));
        const during = await load(sandbox.url, headers, Math.max(seconds * 1000, 2000));
        await folded;
        stall.disable();
        console.log(JSON.stringify({ records: n, mode: "data, compacting", sync, ...during, loop_max_ms: +(stall.max / 1e6).toFixed(1), compaction_ms: Math.round(took) }));
      }
    } finally {
      await sandbox.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
}
agent.destroy();
