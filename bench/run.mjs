// `npm run bench`: merchant-sandbox against a bare Hono app and the mocks users would pick instead
// (Prism, WireMock, Mockoon), all on this machine in one run, measured so that a shared, noisy machine
// still gives ratios worth quoting (see METHOD below). Writes bench/RESULTS.md.
//
//   node bench/run.mjs [--quick] [--soak MINUTES]     the whole benchmark (--quick: short, for trying it)
//   node bench/run.mjs --only request-log             just the request log's cost, printed
//   node bench/run.mjs --only soak [--soak MINUTES]   just the steady-load memory check, printed
//
// --soak sets the steady-load memory check's length: 1 minute by default (in the whole run too), 10
// for the check. RESULTS.md is written only by the whole benchmark.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { spawn } from "node:child_process";
import { API_ROUTES, arg, burst, cannon, coldStarts, DEMO, log, median, PAYOUT, rotate, rssBytes, spawnServer, startSandbox, tempWork, waitOk } from "./measure.mjs";
import { writeResults } from "./report.mjs";
import { describeRow, LOG_COST, requestLogCost as logCost } from "./request-log.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const QUICK = process.argv.includes("--quick");
const ONLY = arg("--only");
if (ONLY !== undefined && ONLY !== "request-log" && ONLY !== "soak") throw new Error(`--only takes request-log or soak, not ${ONLY}`);
const SOAK_MINUTES = Number(arg("--soak") ?? 1);
if (!(SOAK_MINUTES > 0 && SOAK_MINUTES <= 60)) throw new Error("--soak takes minutes, more than 0 and at most 60");

/**
 * The method, for a 2-core machine shared with other work, where absolute req/s drift by tens of
 * percent from one minute to the next: every server is started before any is measured; each round
 * gives every contender one short burst, each paired with a burst to the bare Hono baseline right
 * before or after it (alternating), so each ratio compares two figures taken seconds apart; the order
 * of contenders rotates every round; what is quoted is the median and quartiles of those per-round
 * ratios, with the server's CPU time per request beside them.
 */
export const METHOD = {
  connections: 20,
  burstSeconds: QUICK ? 1 : 2,
  warmupSeconds: 1,
  rounds: QUICK ? 3 : 7,
  coldRounds: QUICK ? 3 : 11,
  dataSeconds: QUICK ? 1 : 3,
  profileSeconds: QUICK ? 1 : 3,
  soakMinutes: SOAK_MINUTES,
  soakRates: { get: 1_000, payout: 200 },
};

const work = tempWork("msb-bench-");
// Below this machine's ephemeral range (32768-60999); apart per process, so that two runs (a soak and
// the rest) can share the machine.
let nextPort = 20100 + (process.pid % 50) * 200;
const port = () => nextPort++;

// ---- the contenders ---------------------------------------------------------------------------------

const sandboxArgs = (p, extra) => [join(ROOT, "dist/cli.mjs"), "start", "--port", String(p), ...extra];
const baselineArgs = (p) => [join(HERE, "baseline.mjs"), String(p)];

/** This checkout's built sandbox with one merchant whose limits never refuse the load; its base URL and keys. */
const builtSandbox = (extraArgs = []) => startSandbox(join(ROOT, "dist/cli.mjs"), port(), extraArgs, ROOT);

async function startBaseline() {
  const p = port();
  const server = spawnServer(process.execPath, baselineArgs(p), { cwd: ROOT });
  const base = `http://127.0.0.1:${p}`;
  await waitOk(`${base}/`);
  return { server, base, headers: {} };
}

function writePeerFiles(openapi) {
  const dir = join(work, "peers");
  mkdirSync(join(dir, "wiremock/mappings"), { recursive: true });
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(openapi));
  const body = { success: true, data: { balance: 1000, currency: "NGN", updated_at: "2026-01-05T09:00:00.000Z" } };
  writeFileSync(
    join(dir, "wiremock/mappings/balance.json"),
    JSON.stringify({ request: { method: "GET", url: "/api/v1/wallet/balance" }, response: { status: 200, jsonBody: body, headers: { "Content-Type": "application/json" } } }),
  );
  const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  writeFileSync(
    join(dir, "mockoon.json"),
    JSON.stringify({
      uuid: uuid(1), lastMigration: 32, name: "bench", endpointPrefix: "", latency: 0, port: 3000, hostname: "127.0.0.1", folders: [],
      routes: [{
        uuid: uuid(2), type: "http", documentation: "", method: "get", endpoint: "api/v1/wallet/balance",
        responses: [{
          uuid: uuid(3), body: JSON.stringify(body), latency: 0, statusCode: 200, label: "", headers: [{ key: "Content-Type", value: "application/json" }],
          bodyType: "INLINE", filePath: "", databucketID: "", sendFileAsBody: false, rules: [], rulesOperator: "OR", disableTemplating: true,
          fallbackTo404: false, default: true, crudKey: "id", callbacks: [],
        }],
        responseMode: null, streamingMode: null, streamingInterval: 0,
      }],
      rootChildren: [{ type: "route", uuid: uuid(2) }], proxyMode: false, proxyHost: "", proxyRemovePrefix: false,
      tlsOptions: { enabled: false, type: "CERT", pfxPath: "", certPath: "", keyPath: "", caPath: "", passphrase: "" },
      cors: true, headers: [], proxyReqHeaders: [], proxyResHeaders: [], data: [], callbacks: [],
    }),
  );
  return dir;
}

/**
 * The request log's cost (bench/request-log.mjs): several processes a side, the log on, off and off
 * again (the noise floor), in rotated rounds; CPU per request on against off.
 */
const requestLogCost = () => logCost({ port, ...(QUICK ? LOG_COST.quick : {}) });


const bin = (name) => join(HERE, "node_modules/.bin", name);
const PEERS = (dir) => [
  { name: "Stoplight Prism (-v silent)", cmd: bin("prism"), args: (p) => ["mock", join(dir, "openapi.json"), "-h", "127.0.0.1", "-p", String(p), "-v", "silent"] },
  { name: "WireMock (--no-request-journal)", cmd: bin("wiremock"), args: (p) => ["--port", String(p), "--bind-address", "127.0.0.1", "--no-request-journal", "--disable-banner", "--root-dir", join(dir, "wiremock")] },
  { name: "Mockoon CLI", cmd: bin("mockoon-cli"), args: (p) => ["start", "--data", join(dir, "mockoon.json"), "--port", String(p)] },
];

async function startPeer(peer) {
  const p = port();
  const server = spawnServer(peer.cmd, peer.args(p), { cwd: ROOT });
  const base = `http://127.0.0.1:${p}`;
  try {
    await waitOk(`${base}/api/v1/wallet/balance`, DEMO, 90_000);
  } catch (err) {
    await server.stop();
    throw new Error(`${err.message} ${server.stderr().slice(-300)}`);
  }
  return { server, base, headers: DEMO };
}

/** Runs a node script to its end and parses the JSON lines it prints. */
/** A node script's JSON lines. */
const runNode = async (args) =>
  (await runText(args))
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));

/** A node script's standard output. */
function runText(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.once("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${args.join(" ")}: exit ${code}`))));
  });
}

// ---- throughput -------------------------------------------------------------------------------------

/**
 * Every contender (a server and a request) against the baseline, in METHOD.rounds rounds; returns
 * each contender's bursts with their paired ratios, and the baseline's own bursts.
 */
async function throughput(baseline, contenders) {
  const baseRequest = { url: `${baseline.base}/api/v1/wallet/balance` };
  for (const c of contenders) await cannon({ ...c.request, duration: METHOD.warmupSeconds });
  await cannon({ ...baseRequest, duration: METHOD.warmupSeconds });
  const baseBursts = [];
  for (const c of contenders) c.bursts = [];
  for (let round = 0; round < METHOD.rounds; round++) {
    for (const c of rotate(contenders, round % contenders.length)) {
      const pair = {};
      for (const which of round % 2 === 0 ? ["base", "it"] : ["it", "base"]) {
        pair[which] = which === "base" ? await burst(baseline.server, baseRequest, METHOD.burstSeconds) : await burst(c.server, c.request, METHOD.burstSeconds);
      }
      baseBursts.push(pair.base);
      c.bursts.push({ ...pair.it, round, ratio: pair.it.rps / pair.base.rps });
    }
    log(`round ${round + 1}/${METHOD.rounds}:`, contenders.map((c) => `${c.name} ${c.bursts.at(-1).ratio.toFixed(2)}`).join("; "));
  }
  return { baseBursts, contenders };
}

// ---- memory under steady load -------------------------------------------------------------------------

/**
 * RSS of a sandbox under a steady, rate-limited mix of GETs and payouts for `minutes`, sampled every
 * 10 s. The merchant is reset after each sample, so the records it holds stay bounded (a few thousand
 * payouts) and any growth across the run is memory the sandbox fails to give back, not data it keeps.
 */
async function soak(minutes) {
  const sandbox = await builtSandbox([]);
  const samples = [];
  const seconds = Math.round(minutes * 60);
  const started = performance.now();
  try {
    const get = cannon({ url: `${sandbox.base}/api/v1/wallet/balance`, headers: sandbox.headers, connections: 4, overallRate: METHOD.soakRates.get, duration: seconds });
    const pay = cannon({ url: `${sandbox.base}/api/v1/payout/transfer`, method: "POST", headers: sandbox.headers, body: PAYOUT, connections: 4, overallRate: METHOD.soakRates.payout, duration: seconds });
    for (let at = 10; at <= seconds; at += 10) {
      await new Promise((r) => setTimeout(r, Math.max(0, started + at * 1000 - performance.now())));
      samples.push({ at, rss_mb: Math.round(rssBytes(sandbox.server.pid) / 1e5) / 10 });
      const reset = await fetch(`${sandbox.base}/sandbox/v1/reset`, { method: "POST", headers: sandbox.headers, body: JSON.stringify({ wallet_balance: 1e11 }) });
      await reset.arrayBuffer();
      log(`soak ${at} s: RSS ${samples.at(-1).rss_mb} MB`);
    }
    const [g, p] = await Promise.all([get, pay]);
    const settledAt = Math.min(60, Math.floor(seconds / 2)); // the first minute (or half a short run) warms up
    const settled = samples.filter((s) => s.at >= settledAt);
    const first = median(settled.slice(0, 3).map((s) => s.rss_mb));
    const last = median(settled.slice(-3).map((s) => s.rss_mb));
    return {
      minutes,
      samples,
      requests: g.requests.total + p.requests.total,
      non2xx: g.non2xx + p.non2xx,
      settledAt,
      first_mb: first,
      last_mb: last,
      max_mb: Math.max(...samples.map((s) => s.rss_mb)),
      growth_mb: Math.round((last - first) * 10) / 10,
    };
  } finally {
    await sandbox.server.stop();
  }
}

// ---- run --------------------------------------------------------------------------------------------

if (ONLY === "request-log") {
  log(`request log cost: ${METHOD.connections} connections, ${QUICK ? LOG_COST.quick.processes : LOG_COST.processes} processes a side, rotated rounds`);
  const cost = await requestLogCost();
  for (const r of cost.rows) log(describeRow(r));
  process.exit(0);
}
if (ONLY === "soak") {
  log(`steady load for ${SOAK_MINUTES} min: ${METHOD.soakRates.get} GET/s + ${METHOD.soakRates.payout} payouts/s, RSS every 10 s`);
  const s = await soak(SOAK_MINUTES);
  log(`RSS from ${s.settledAt} s: ${s.first_mb} MB -> ${s.last_mb} MB at the end (growth ${s.growth_mb} MB, max ${s.max_mb} MB); ${s.requests} requests, ${s.non2xx} non-2xx`);
  process.exit(0);
}

const results = {};
log(`merchant-sandbox benchmark${QUICK ? " (--quick)" : ""}: ${JSON.stringify(METHOD)}`);

// Every server up before any is measured.
const [baseline, memory, data] = await Promise.all([startBaseline(), builtSandbox([]), builtSandbox(["--data", mkdtempSync(join(work, "data-"))])]);
const openapi = await (await fetch(`${memory.base}/openapi.json`)).json();
const peerDir = writePeerFiles(openapi);
const peers = await Promise.all(PEERS(peerDir).map((peer) => startPeer(peer).then((s) => ({ peer, ...s }), (err) => ({ peer, failed: err.message }))));
const running = [baseline, memory, data, ...peers.filter((p) => !p.failed)];
try {
  const contenders = [
    ...API_ROUTES.map(([what, make]) => ({ name: `merchant-sandbox (in memory): ${what}`, key: `memory ${what}`, server: memory.server, request: make(memory) })),
    ...API_ROUTES.map(([what, make]) => ({ name: `merchant-sandbox (--data): ${what}`, key: `data ${what}`, server: data.server, request: make(data) })),
    ...peers.filter((p) => !p.failed).map((p) => ({ name: `${p.peer.name}: GET /api/v1/wallet/balance`, peer: p.peer.name, server: p.server, request: { url: `${p.base}/api/v1/wallet/balance`, headers: DEMO } })),
  ];
  results.throughput = await throughput(baseline, contenders);
  results.peerFailures = peers.filter((p) => p.failed).map((p) => ({ name: p.peer.name, failed: p.failed }));
} finally {
  await Promise.all(running.map((s) => s.server.stop()));
}

// Where the time goes, the cause behind each throughput miss: bench/profile.mjs, a process of its own per route.
results.profiles = [];
for (const [route, ...extra] of [["bare"], ["get"], ["post"], ["airtime"], ["post", "--data"]]) {
  const args = ["--route", route, "--seconds", String(METHOD.profileSeconds), "--top", "12", ...extra];
  results.profiles.push({ command: `node bench/profile.mjs ${args.join(" ")}`, text: await runText([join(HERE, "profile.mjs"), ...args]) });
  log("profiled", route, ...extra);
}

results.requestLog = await requestLogCost();

results.cold = await coldStarts([
  { name: "Bare Hono (built)", cmd: process.execPath, args: baselineArgs, path: "/" },
  { name: "merchant-sandbox (built)", cmd: process.execPath, args: (p) => sandboxArgs(p, []), path: "/api/v1/wallet/balance", headers: DEMO },
  ...PEERS(peerDir).map((peer) => ({ name: peer.name, cmd: peer.cmd, args: peer.args, path: "/api/v1/wallet/balance", headers: DEMO })),
], { rounds: METHOD.coldRounds, port, cwd: ROOT });
for (const c of results.cold) log("cold start", c.name, c.failed ?? `${Math.round(median(c.ms))} ms`);

[results.timers] = await runNode([join(HERE, "scale.mjs"), "timers"]);
[results.memory] = await runNode(["--expose-gc", join(HERE, "scale.mjs"), "memory"]);
log("timers", results.timers, "memory", results.memory);

// The --data store as one merchant grows (bench/data-store.mjs: in memory and --data side by side).
results.dataStore = await runNode([join(HERE, "data-store.mjs"), join(ROOT, "dist"), String(METHOD.dataSeconds), "os"]);
for (const r of results.dataStore) log("data store", JSON.stringify(r));

results.soak = await soak(SOAK_MINUTES);

// Nodes on one PostgreSQL beside memory and --data (bench/cluster.mjs); it says so and is skipped when
// PostgreSQL's server binaries are missing.
[results.cluster] = await runNode([join(HERE, "cluster.mjs"), "--json", ...(QUICK ? ["--quick"] : [])]);
if (results.cluster.skipped) log(`cluster benchmark skipped: ${results.cluster.skipped}`);

// Kept beside RESULTS.md's making, so a report can be rewritten without measuring again.
const raw = join(tmpdir(), `msb-bench-results-${process.pid}.json`);
writeFileSync(raw, JSON.stringify({ method: METHOD, quick: QUICK, ...results }));
log(`figures: ${raw}`);
writeResults(join(HERE, "RESULTS.md"), { method: METHOD, quick: QUICK, ...results });
log(`\nwrote ${join(HERE, "RESULTS.md")}`);
