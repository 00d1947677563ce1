// The API's fast path against a bare Hono app (issue 17), measured the way a shared machine allows: every
// server started at once, short bursts to each in turn with the order rotated every round, and the ratio
// of each round against the baseline burst taken seconds apart; the median and quartiles of those ratios
// are quoted. A second figure, the server's CPU time per request (from /proc), does not depend on how
// busy the other processes keep the cores.
//
//   node bench/fast-path.mjs [--rounds 9] [--burst 2] [--cli dist/cli.mjs] [--cli /tmp/base/dist/cli.mjs ...]
//
// Each --cli is a built sandbox (default: this checkout's); several compare builds side by side. Every
// sandbox runs with its defaults (the request log on). Needs `npm install --prefix bench` (autocannon).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const ROUNDS = Number(arg("--rounds", 9));
const BURST = Number(arg("--burst", 2));
const CONNECTIONS = 20;
const clis = process.argv.flatMap((a, i) => (a === "--cli" ? [resolve(process.argv[i + 1])] : []));
if (clis.length === 0) clis.push(join(ROOT, "dist/cli.mjs"));
let nextPort = 20400 + Math.floor(Math.random() * 400);

function start(args) {
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "ignore", "inherit"] });
  return { child, stop: () => { try { process.kill(-child.pid, "SIGKILL"); } catch {} } };
}

async function waitOk(url) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {}
  }
  throw new Error(`no 200 from ${url}`);
}

/** User + system CPU time of a process so far, in ms (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

const burst = (opts) =>
  new Promise((done, fail) => autocannon({ connections: CONNECTIONS, duration: BURST, ...opts }, (err, r) => (err ? fail(err) : done(r))));

async function sandbox(cli) {
  const port = nextPort++;
  const server = start([cli, "start", "--port", String(port)]);
  const base = `http://127.0.0.1:${port}`;
  await waitOk(`${base}/health`);
  const res = await fetch(`${base}/sandbox/v1/merchants`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      wallet_balance: 1e11,
      limits: { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0, payout_max: 1e11, payout_hourly_amount: 1e11, payout_daily_amount: 1e11, payout_review_threshold: 1e11 },
    }),
  });
  const { data } = await res.json();
  const headers = { "x-api-key": data.api_key, "x-api-secret": data.api_secret, "content-type": "application/json" };
  return { server, base, headers };
}

const PAYOUT = JSON.stringify({ amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank" });

const basePort = nextPort++;
const baseline = start([join(HERE, "baseline.mjs"), String(basePort)]);
const sandboxes = await Promise.all(clis.map(sandbox));
const stops = [baseline.stop, ...sandboxes.map((s) => s.server.stop)];
process.on("exit", () => stops.forEach((stop) => stop()));
await waitOk(`http://127.0.0.1:${basePort}/`);

const targets = [{ name: "bare Hono GET", pid: baseline.child.pid, req: { url: `http://127.0.0.1:${basePort}/api/v1/wallet/balance` } }];
sandboxes.forEach((s, i) => {
  const tag = clis.length > 1 ? ` [${i}]` : "";
  targets.push({ name: `GET /api/v1/wallet/balance${tag}`, pid: s.server.child.pid, req: { url: `${s.base}/api/v1/wallet/balance`, headers: s.headers } });
  targets.push({ name: `POST /api/v1/payout/transfer${tag}`, pid: s.server.child.pid, req: { url: `${s.base}/api/v1/payout/transfer`, method: "POST", headers: s.headers, body: PAYOUT } });
});

for (const t of targets) await burst({ ...t.req, duration: 1 }); // warm-up: JIT and caches
const results = targets.map(() => ({ ratios: [], rps: [], cpu: [], bad: 0 }));
for (let round = 0; round < ROUNDS; round++) {
  const order = targets.map((_, i) => (i + round) % targets.length); // rotated: no target always follows the same one
  const rps = [];
  for (const i of order) {
    const t = targets[i];
    const cpu0 = cpuMs(t.pid);
    const r = await burst(t.req);
    const cpu1 = cpuMs(t.pid);
    rps[i] = r.requests.average;
    results[i].rps.push(r.requests.average);
    results[i].cpu.push((cpu1 - cpu0) / Math.max(1, r.requests.total));
    results[i].bad += r.non2xx + r.errors;
  }
  targets.forEach((_, i) => results[i].ratios.push(rps[i] / rps[0]));
  process.stderr.write(`round ${round + 1}/${ROUNDS}: ${targets.map((t, i) => `${(rps[i] / rps[0]).toFixed(2)}`).join(" ")}\n`);
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * p;
  return s[Math.floor(at)] + (s[Math.ceil(at)] - s[Math.floor(at)]) * (at - Math.floor(at));
};
console.log(`\n${ROUNDS} rounds of ${BURST} s bursts, ${CONNECTIONS} connections; ratio per round against the bare Hono burst of the same round`);
console.log("| Route | ratio median | Q1-Q3 | req/s median | server CPU µs/request | non-2xx |");
console.log("|---|---:|---:|---:|---:|---:|");
targets.forEach((t, i) => {
  const r = results[i];
  console.log(`| ${t.name} | ${q(r.ratios, 0.5).toFixed(2)} | ${q(r.ratios, 0.25).toFixed(2)}-${q(r.ratios, 0.75).toFixed(2)} | ${Math.round(q(r.rps, 0.5)).toLocaleString("en-US")} | ${Math.round(q(r.cpu, 0.5) * 1000)} | ${r.bad} |`);
});
process.exit(0);
