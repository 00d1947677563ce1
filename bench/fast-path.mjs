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
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AIRTIME, arg, burst, PAYOUT, rotate, spawnServer, spread, unlimitedMerchant, waitOk } from "./measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const ROUNDS = Number(arg("--rounds", 9));
const BURST = Number(arg("--burst", 2));
const clis = process.argv.flatMap((a, i) => (a === "--cli" ? [resolve(process.argv[i + 1])] : []));
if (clis.length === 0) clis.push(join(ROOT, "dist/cli.mjs"));
let nextPort = 20400 + Math.floor(Math.random() * 400);

async function sandbox(cli) {
  const port = nextPort++;
  const server = spawnServer(process.execPath, [cli, "start", "--port", String(port)], { cwd: ROOT });
  const base = `http://127.0.0.1:${port}`;
  await waitOk(`${base}/health`);
  return { server, base, headers: await unlimitedMerchant(base) };
}

const basePort = nextPort++;
const baseline = spawnServer(process.execPath, [join(HERE, "baseline.mjs"), String(basePort)], { cwd: ROOT });
const sandboxes = await Promise.all(clis.map(sandbox));
const stops = [baseline.stop, ...sandboxes.map((s) => s.server.stop)];
process.on("exit", () => stops.forEach((stop) => stop()));
await waitOk(`http://127.0.0.1:${basePort}/`);

const targets = [{ name: "bare Hono GET", server: baseline, req: { url: `http://127.0.0.1:${basePort}/api/v1/wallet/balance` } }];
sandboxes.forEach((s, i) => {
  const tag = clis.length > 1 ? ` [${i}]` : "";
  targets.push({ name: `GET /api/v1/wallet/balance${tag}`, server: s.server, req: { url: `${s.base}/api/v1/wallet/balance`, headers: s.headers } });
  targets.push({ name: `POST /api/v1/payout/transfer${tag}`, server: s.server, req: { url: `${s.base}/api/v1/payout/transfer`, method: "POST", headers: s.headers, body: PAYOUT } });
  targets.push({ name: `POST /api/v1/vtu/airtime${tag}`, server: s.server, req: { url: `${s.base}/api/v1/vtu/airtime`, method: "POST", headers: s.headers, body: AIRTIME } });
});

for (const t of targets) await burst(t.server, t.req, 1); // warm-up: JIT and caches
const results = targets.map(() => ({ ratios: [], rps: [], cpu: [], bad: 0 }));
for (let round = 0; round < ROUNDS; round++) {
  const rps = [];
  // Rotated: no target always follows the same one.
  for (const i of rotate(targets.map((_, i) => i), round)) {
    const r = await burst(targets[i].server, targets[i].req, BURST);
    rps[i] = r.rps;
    results[i].rps.push(r.rps);
    results[i].cpu.push(r.cpuUsPerRequest);
    results[i].bad += r.non2xx + r.errors;
  }
  targets.forEach((_, i) => results[i].ratios.push(rps[i] / rps[0]));
  process.stderr.write(`round ${round + 1}/${ROUNDS}: ${targets.map((t, i) => `${(rps[i] / rps[0]).toFixed(2)}`).join(" ")}\n`);
}

console.log(`\n${ROUNDS} rounds of ${BURST} s bursts, 20 connections; ratio per round against the bare Hono burst of the same round`);
console.log("| Route | ratio median | Q1-Q3 | req/s median | server CPU µs/request | non-2xx |");
console.log("|---|---:|---:|---:|---:|---:|");
targets.forEach((t, i) => {
  const r = results[i];
  const ratio = spread(r.ratios);
  console.log(`| ${t.name} | ${ratio.median.toFixed(2)} | ${ratio.q1.toFixed(2)}-${ratio.q3.toFixed(2)} | ${Math.round(spread(r.rps).median).toLocaleString("en-US")} | ${Math.round(spread(r.cpu).median)} | ${r.bad} |`);
});
process.exit(0);
