// The cluster benchmark: payouts on one node in memory, with --data DIR and on PostgreSQL, then two and
// three nodes on the same database, side by side in one run against bare Hono's GET (bench/run.mjs's
// method), on a PostgreSQL with its durable defaults (fsync and synchronous_commit on); then the latency
// of a payout below saturation (payouts offered at a fixed rate, evenly spaced, to some of the rows);
// then pgbench on the same server, for what one database allows by itself.
//
//   node bench/cluster.mjs [--quick] [--json] [--write] [--from FIGURES.json]
//
// Prints the RESULTS.md section (bench/report.mjs); --json prints the figures as one JSON line instead
// (bench/run.mjs reads it); --write also puts the section into bench/RESULTS.md, in place of the one there.
// The figures are kept in the temp folder; --from renders a run's kept figures again without measuring.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { postgresBinDir, startTestCluster } from "../tools/postgres-test-cluster.mjs";
import { arg, burst, cannon, cpuSeconds, median, PAYOUT, quantile, rotate, spawnServer, unlimitedMerchant, waitOk } from "./measure.mjs";
import { clusterSection, writeClusterSection } from "./report.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const QUICK = process.argv.includes("--quick");
const JSON_OUT = process.argv.includes("--json");
const WRITE = process.argv.includes("--write");
const FROM = arg("--from");
// Progress on stderr: stdout carries the section or the JSON line.
const say = (...a) => console.error(...a);

/** bench/run.mjs's method, with fewer rounds so that the whole run stays near 3-4 minutes. */
const CLUSTER_METHOD = {
  connections: 20,
  burstSeconds: QUICK ? 1 : 2,
  warmupSeconds: 1,
  rounds: QUICK ? 2 : 5,
  pgbenchSeconds: QUICK ? 3 : 10,
  pgbenchClients: 8,
  pgbenchRows: 1000,
  // Payouts/s, below every row's saturation so far (the folder store's, the lowest, was 200-450): a node
  // that cannot keep it shows in the achieved rate.
  fixedRate: 200,
  fixedRateSeconds: QUICK ? 2 : 5,
  fixedRateRounds: 3,
};
/** The rows whose latency is also measured at CLUSTER_METHOD.fixedRate. */
const FIXED_RATE_ROWS = ["memory", "data", "pg1", "pg3"];

if (FROM) {
  report(JSON.parse(readFileSync(FROM, "utf8")));
  process.exit(0);
}
if (!postgresBinDir()) {
  const skipped = "PostgreSQL's server binaries are missing (/usr/lib/postgresql/<version>/bin): apt-get install postgresql";
  if (JSON_OUT) console.log(JSON.stringify({ skipped }));
  else console.log(`cluster benchmark skipped: ${skipped}`);
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), "msb-bench-cluster-"));
const pg = await startTestCluster({ durable: true });
const pgPort = Number(new URL(pg.url).port);
// Below the ephemeral range, apart from bench/run.mjs's ports and the database's.
let nextPort = 22100 + (process.pid % 40) * 100;
const port = () => {
  if (nextPort === pgPort) nextPort++;
  return nextPort++;
};
const servers = [];

async function start(args, path = "/health") {
  const p = port();
  const server = spawnServer(process.execPath, args(p), { cwd: ROOT });
  servers.push(server);
  const base = `http://127.0.0.1:${p}`;
  try {
    await waitOk(`${base}${path}`);
  } catch (err) {
    throw new Error(`${err.message}: ${server.stderr().slice(-500)}`);
  }
  return { server, base };
}
const sandbox = (extra) => start((p) => [join(ROOT, "dist/cli.mjs"), "start", "--port", String(p), ...extra]);
const postmasterPid = () => Number(readFileSync(join(pg.dir, "data/postmaster.pid"), "utf8").split("\n")[0]);

/**
 * CPU seconds used so far by the postmaster `pid` and its live children (every backend and helper): each
 * child runs in a session of its own, so each is its own process group for measure.mjs's cpuSeconds. The
 * nodes' pools stay open, so their backends live through a burst.
 */
function postgresCpuSeconds(pid) {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").filter(Boolean).map(Number);
  return [pid, ...children].reduce((sum, p) => sum + cpuSeconds(p), 0);
}

/** Connection i's request headers: a merchant of its own (signed up on `node`), or one merchant for all. */
async function merchants(node, distinct) {
  if (!distinct) return Array(CLUSTER_METHOD.connections).fill(await unlimitedMerchant(node.base));
  return Promise.all(Array.from({ length: CLUSTER_METHOD.connections }, () => unlimitedMerchant(node.base)));
}

/** The connections' headers dealt to `nodes`, as evenly as they go (the first nodes take one more): [{ node, headers }]. */
function shares(nodes, headers) {
  let from = 0;
  return nodes.map((node, i) => {
    const count = Math.floor(headers.length / nodes.length) + (i < headers.length % nodes.length ? 1 : 0);
    return { node, headers: headers.slice(from, (from += count)) };
  });
}

/**
 * One burst of payouts spread over `nodes`: autocannon against each node at once, node i taking its
 * share of the connections, each connection with its own headers (its merchant). Sums the requests,
 * and takes p50 and p99 from every response's latency, across the nodes.
 */
async function payoutBurst(nodes, headers, seconds, pgPid) {
  const latencies = [];
  const statuses = {};
  const cpuBefore = nodes.map((n) => cpuSeconds(n.server.pid));
  const pgBefore = pgPid ? postgresCpuSeconds(pgPid) : NaN;
  const results = await Promise.all(
    shares(nodes, headers).map(({ node, headers: mine }) => {
      let next = 0;
      return new Promise((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${node.base}/api/v1/payout/transfer`, method: "POST", body: PAYOUT, headers: mine[0], connections: mine.length, duration: seconds,
            setupClient: (client) => client.setHeaders(mine[next++ % mine.length]),
          },
          (err, r) => (err ? reject(err) : resolve(r)),
        );
        instance.on("response", (_client, status, _bytes, ms) => {
          latencies.push(ms);
          if (status !== 201) statuses[status] = (statuses[status] ?? 0) + 1;
        });
      });
    }),
  );
  const cpu = nodes.reduce((sum, n, i) => sum + cpuSeconds(n.server.pid) - cpuBefore[i], 0);
  const pgCpu = pgPid ? postgresCpuSeconds(pgPid) - pgBefore : NaN;
  const answered = latencies.length;
  const duration = Math.max(...results.map((r) => r.duration || seconds));
  return {
    rps: answered / duration,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
    statuses,
    errors: results.reduce((n, r) => n + r.errors, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
    cpuUsPerRequest: answered > 0 ? (cpu * 1e6) / answered : NaN,
    pgCpuUsPerRequest: answered > 0 ? (pgCpu * 1e6) / answered : NaN,
  };
}

/**
 * Payouts offered at `rate` a second for `seconds`, evenly spaced: payout k leaves at k / rate s on
 * connection k mod the connections (one keep-alive socket each, with its merchant, dealt to the nodes as
 * in payoutBurst). Not autocannon's overallRate: it sends each connection's quota back to back at the
 * start of every second, so its latencies are a burst's at full concurrency. A latency runs from the
 * send to the answer's end, a wait behind the same connection's previous payout included: a node that
 * falls behind shows it in the latencies and in the achieved rate (answers over the time to the last one).
 */
async function fixedRateBurst(nodes, headers, rate, seconds) {
  const length = String(Buffer.byteLength(PAYOUT));
  const connections = shares(nodes, headers).flatMap(({ node, headers: mine }) =>
    mine.map((h) => ({ url: `${node.base}/api/v1/payout/transfer`, headers: { ...h, "content-length": length }, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) })),
  );
  const latencies = [];
  const statuses = {};
  let errors = 0;
  let timeouts = 0;
  const payout = (c) =>
    new Promise((resolve) => {
      const sent = performance.now();
      const req = http.request(c.url, { method: "POST", headers: c.headers, agent: c.agent }, (res) => {
        res.resume();
        res.on("end", () => {
          latencies.push(performance.now() - sent);
          if (res.statusCode !== 201) statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          resolve();
        });
      });
      // autocannon's default timeout, so that a stuck answer cannot hold the run.
      req.setTimeout(10_000, () => {
        timeouts++;
        req.destroy(new Error("timeout"));
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end(PAYOUT);
    });
  const pending = [];
  const start = performance.now();
  for (let k = 0; k < Math.round(rate * seconds); k++) {
    const wait = start + (k * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(payout(connections[k % connections.length]));
  }
  await Promise.all(pending);
  const elapsed = Math.max(seconds, (performance.now() - start) / 1000);
  for (const c of connections) c.agent.destroy();
  return {
    offered: rate,
    answered: latencies.length,
    achieved: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p90: quantile(latencies, 0.9),
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
    statuses,
    errors: errors - timeouts,
    timeouts,
  };
}

/** Runs a PostgreSQL client tool (psql, pgbench) over TCP as the test role; resolves with its stdout. */
function client(tool, args) {
  const url = new URL(pg.url);
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(url.password) };
  const conn = ["-h", url.hostname, "-p", url.port, "-U", decodeURIComponent(url.username)];
  return new Promise((resolve, reject) =>
    execFile(join(postgresBinDir(), tool), [...conn, ...args, url.pathname.slice(1)], { env, encoding: "utf8" }, (err, out, stderr) =>
      err ? reject(new Error(`${tool}: ${stderr || err.message}`)) : resolve(out),
    ),
  );
}
const commits = async () => Number((await client("psql", ["-X", "-A", "-t", "-c", "select xact_commit from pg_stat_database where datname = current_database()"])).trim());

/**
 * pgbench on the same server: a payout's shape in SQL (lock the wallet row, append a journal row, update
 * the wallet, commit) on one row shared by every client, then on rows spread over many, then one client
 * alone (one commit at a time: the commit's own latency, fsync included).
 */
async function pgbench() {
  const { pgbenchRows: rows, pgbenchClients: clients, pgbenchSeconds: seconds } = CLUSTER_METHOD;
  await client("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
    `create table bench_wallet (id int primary key, balance bigint not null);
     create table bench_journal (id bigserial primary key, merchant int not null, amount bigint not null, at timestamptz not null default now());
     insert into bench_wallet select g, 1e11 from generate_series(1, ${rows}) g;`]);
  const body = `BEGIN;
SELECT balance FROM bench_wallet WHERE id = :m FOR UPDATE;
INSERT INTO bench_journal (merchant, amount) VALUES (:m, 5050);
UPDATE bench_wallet SET balance = balance - 5050 WHERE id = :m;
COMMIT;
`;
  const script = (name, pick) => {
    const file = join(work, `${name}.sql`);
    writeFileSync(file, `\\set m ${pick}\n${body}`);
    return file;
  };
  const runs = [
    { name: `one row, ${clients} clients`, clients, file: script("one", "1") },
    { name: `${rows.toLocaleString("en-US")} rows, ${clients} clients`, clients, file: script("many", `random(1, ${rows})`) },
    { name: `${rows.toLocaleString("en-US")} rows, 1 client`, clients: 1, file: script("many", `random(1, ${rows})`) },
  ];
  const out = [];
  for (const run of runs) {
    const text = await client("pgbench", ["-n", "-c", String(run.clients), "-j", String(Math.min(run.clients, 2)), "-T", String(seconds), "-f", run.file]);
    const tps = Number(/tps = ([\d.]+)/.exec(text)?.[1]);
    const latency = Number(/latency average = ([\d.]+) ms/.exec(text)?.[1]);
    out.push({ name: run.name, clients: run.clients, tps, latency_ms: latency });
    say("pgbench", run.name, `${Math.round(tps)} tps, ${latency} ms average`);
  }
  return { command: `pgbench -n -c C -j 2 -T ${seconds} -f SCRIPT`, script: body, runs: out };
}

let figures;
try {
  say(`cluster benchmark${QUICK ? " (--quick)" : ""}: PostgreSQL ${pg.version} (fsync on), ${JSON.stringify(CLUSTER_METHOD)}`);
  // Every server up before any is measured.
  const dataDir = mkdtempSync(join(work, "data-"));
  const [baseline, memory, data, ...pgNodes] = await Promise.all([
    start((p) => [join(HERE, "baseline.mjs"), String(p)], "/"),
    sandbox([]),
    sandbox(["--data", dataDir]),
    ...["node-1", "node-2", "node-3"].map((id) => sandbox(["--data", pg.url, "--node-id", id])),
  ]);
  const pgPid = postmasterPid();
  const contenders = [
    { name: "one node, in memory", key: "memory", nodes: [memory] },
    { name: "one node, --data DIR (folder store)", key: "data", nodes: [data] },
    { name: "one node, PostgreSQL", key: "pg1", nodes: pgNodes.slice(0, 1), pg: true },
    { name: "two nodes, one PostgreSQL", key: "pg2", nodes: pgNodes.slice(0, 2), pg: true },
    { name: "three nodes, one PostgreSQL", key: "pg3", nodes: pgNodes, pg: true },
    { name: "one merchant, one node, PostgreSQL", key: "pg1-one-merchant", nodes: pgNodes.slice(0, 1), pg: true, oneMerchant: true },
  ];
  for (const c of contenders) c.headers = await merchants(c.nodes[0], !c.oneMerchant);
  const baseRequest = { url: `${baseline.base}/api/v1/wallet/balance`, connections: CLUSTER_METHOD.connections };
  // Warm-up: each node of a row loads its merchants from the database (the first request of each).
  for (const c of contenders) await payoutBurst(c.nodes, c.headers, CLUSTER_METHOD.warmupSeconds);
  await cannon({ ...baseRequest, duration: CLUSTER_METHOD.warmupSeconds });

  const commitsBefore = await commits();
  let pgPayouts = 0;
  const baseBursts = [];
  for (const c of contenders) c.bursts = [];
  for (let round = 0; round < CLUSTER_METHOD.rounds; round++) {
    for (const c of rotate(contenders, round % contenders.length)) {
      const pair = {};
      for (const which of round % 2 === 0 ? ["base", "it"] : ["it", "base"]) {
        pair[which] =
          which === "base"
            ? await burst(baseline.server, baseRequest, CLUSTER_METHOD.burstSeconds)
            : await payoutBurst(c.nodes, c.headers, CLUSTER_METHOD.burstSeconds, c.pg ? pgPid : undefined);
      }
      baseBursts.push(pair.base);
      c.bursts.push({ ...pair.it, round, ratio: pair.it.rps / pair.base.rps });
      if (c.pg) pgPayouts += pair.it.rps * CLUSTER_METHOD.burstSeconds;
    }
    say(`round ${round + 1}/${CLUSTER_METHOD.rounds}:`, contenders.map((c) => `${c.key} ${Math.round(c.bursts.at(-1).rps)} req/s p99 ${c.bursts.at(-1).p99.toFixed(1)} ms`).join("; "));
  }
  // Below saturation: the latency of a payout, not of a queue of 20.
  const fixedRows = FIXED_RATE_ROWS.map((key) => contenders.find((c) => c.key === key));
  for (const c of fixedRows) c.fixedRate = [];
  for (let round = 0; round < CLUSTER_METHOD.fixedRateRounds; round++) {
    for (const c of rotate(fixedRows, round % fixedRows.length)) {
      const b = await fixedRateBurst(c.nodes, c.headers, CLUSTER_METHOD.fixedRate, CLUSTER_METHOD.fixedRateSeconds);
      c.fixedRate.push({ ...b, round });
      // Their commits are counted too (commitsPerPayout).
      if (c.pg) pgPayouts += b.answered;
    }
    const last = (c) => c.fixedRate.at(-1);
    say(`fixed rate ${CLUSTER_METHOD.fixedRate}/s, round ${round + 1}/${CLUSTER_METHOD.fixedRateRounds}:`, fixedRows.map((c) => `${c.key} ${Math.round(last(c).achieved)}/s p50 ${last(c).p50.toFixed(1)} p90 ${last(c).p90.toFixed(1)} p99 ${last(c).p99.toFixed(1)} ms`).join("; "));
  }
  // A node that died under load, and what each PostgreSQL node says of itself afterwards.
  const health = [];
  for (const [i, n] of pgNodes.entries()) {
    const res = await fetch(`${n.base}/health`).catch((err) => ({ status: 0, text: async () => err.message }));
    health.push({ node: `node-${i + 1}`, status: res.status, body: (await res.text()).slice(0, 300) });
  }
  const crashed = [memory, data, ...pgNodes].filter((n) => n.server.child.exitCode !== null || n.server.child.signalCode !== null).map((n) => ({ base: n.base, stderr: n.server.stderr().slice(-1000) }));
  await Promise.all(servers.map((s) => s.stop()));
  // Backends flush their statistics as they end: read once the nodes' connections are gone.
  await new Promise((r) => setTimeout(r, 1500));
  const commitsAfter = await commits();
  const bench = await pgbench();
  figures = {
    method: CLUSTER_METHOD,
    quick: QUICK,
    postgres: pg.version,
    baseBursts,
    contenders: contenders.map(({ name, key, bursts, pg: onPg, oneMerchant, nodes }) => ({ name, key, bursts, pg: !!onPg, oneMerchant: !!oneMerchant, nodes: nodes.length })),
    fixedRate: fixedRows.map(({ name, key, fixedRate, nodes }) => ({ name, key, nodes: nodes.length, bursts: fixedRate })),
    commitsPerPayout: (commitsAfter - commitsBefore) / pgPayouts,
    health,
    crashed,
    pgbench: bench,
  };
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await pg.stop();
  rmSync(work, { recursive: true, force: true });
}

const kept = join(tmpdir(), `msb-bench-cluster-${process.pid}.json`);
writeFileSync(kept, JSON.stringify(figures));
say(`figures: ${kept}`);
report(figures);

function report(figures) {
  if (JSON_OUT) console.log(JSON.stringify(figures));
  else console.log(clusterSection(figures).join("\n"));
  if (WRITE) {
    const file = join(HERE, "RESULTS.md");
    writeClusterSection(file, figures);
    say(`wrote the "PostgreSQL cluster" section of ${file}`);
  }
}
