// What bench/run.mjs measures with: servers in their own process groups, the load tool, the server's
// CPU time and memory from /proc, and the statistics quoted in RESULTS.md.
import { spawn, execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";

export const log = (...a) => console.log(...a);
/** A fraction as a percentage with one decimal. */
export const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** The value after `--name` on the command line, or `fallback`. */
export const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);

/** Every `--cli PATH` of the command line, resolved; `fallback` when there is none. */
export function cliArgs(fallback) {
  const clis = process.argv.flatMap((a, i) => (a === "--cli" ? [resolve(process.argv[i + 1])] : []));
  return clis.length > 0 ? clis : [fallback];
}

/** The demo merchant's keys (fixtures/merchants.json). */
export const DEMO = { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" };

// ---- statistics -------------------------------------------------------------------------------------

/** The `p` quantile (0..1) of `xs`, linearly interpolated. */
export function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * p;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}
export const median = (xs) => quantile(xs, 0.5);
/** Median and quartiles of `xs`. */
export const spread = (xs) => ({ median: median(xs), q1: quantile(xs, 0.25), q3: quantile(xs, 0.75), n: xs.length });
/** `xs` rotated left by `by`: round r of a run starts with a different contender. */
export const rotate = (xs, by) => xs.map((_, i) => xs[(i + by) % xs.length]);

// ---- processes --------------------------------------------------------------------------------------

/**
 * Spawns a server detached: its own process group, so wrappers (the wiremock bin starts java, the
 * Prism and Mockoon bins may fork) are killed with it and their CPU time counted with it.
 */
export function spawnServer(cmd, args, { cwd, env = {} } = {}) {
  const child = spawn(cmd, args, { cwd, detached: true, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  return {
    child,
    pid: child.pid,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          resolve();
        }
      }),
  };
}

export async function waitOk(url, headers = {}, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`no 200 from ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The /proc/<pid>/stat fields (from field 3 on) of every live process of the process group `pgid`, by
 * pid (field 5 is pgrp). Linux only; undefined elsewhere.
 */
function groupStats(pgid) {
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const stats = new Map();
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid) stats.set(name, fields);
  }
  return stats;
}

/**
 * CPU seconds (user + system) used so far by every live process of the process group `pgid`, from
 * /proc/<pid>/stat (fields 14 utime, 15 stime, in clock ticks). Linux only; NaN elsewhere.
 */
export function cpuSeconds(pgid) {
  const stats = groupStats(pgid);
  if (stats === undefined) return NaN;
  let ticks = 0;
  for (const fields of stats.values()) ticks += Number(fields[11]) + Number(fields[12]);
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds used so far by the live threads of the process group `pgid`, in nanoseconds' resolution:
 * the first field of /proc/<pid>/task/<tid>/schedstat. cpuSeconds counts 10 ms ticks, too coarse for
 * a one-second burst's few percent; a thread's time leaves with it (Node's threads live as long as the
 * process). NaN where schedstat is missing.
 */
export function cpuSecondsFine(pgid) {
  const stats = groupStats(pgid);
  if (stats === undefined) return NaN;
  let ns = 0;
  for (const pid of stats.keys()) {
    let tasks;
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const tid of tasks) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // a thread gone meanwhile, or no schedstat
      }
    }
  }
  return ns > 0 ? ns / 1e9 : NaN;
}

/** Resident set size of process `pid` in bytes, from /proc/<pid>/status; NaN where /proc is missing. */
export function rssBytes(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

// ---- cold start -------------------------------------------------------------------------------------

/**
 * Spawn to first 200, each contender once per round in a rotated order, so a busy moment of the
 * machine falls on all of them alike (compare them per round). A contender is `{ name, cmd, args(port),
 * path, headers? }`; it gains `ms` (spawn to first 200, per round) and `cpuMs` (its process group's
 * user + system time by then, from /proc in 10 ms ticks), or `failed`. `port()` gives each start a port.
 */
export async function coldStarts(contenders, { rounds, port, cwd }) {
  for (const c of contenders) Object.assign(c, { ms: [], cpuMs: [] });
  for (let round = 0; round < rounds; round++) {
    for (const c of rotate(contenders, round % contenders.length)) {
      if (c.failed) continue;
      const p = port();
      const t0 = performance.now();
      const server = spawnServer(c.cmd, c.args(p), { cwd });
      try {
        await waitOk(`http://127.0.0.1:${p}${c.path}`, c.headers ?? {}, 90_000);
        c.ms.push(performance.now() - t0);
        c.cpuMs.push(cpuSeconds(server.pid) * 1000);
      } catch (err) {
        c.failed = err.message;
      } finally {
        await server.stop();
      }
    }
  }
  return contenders;
}

// ---- load -------------------------------------------------------------------------------------------

export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 20, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * One burst of `seconds` against `request` on `server`: requests per second, p99 latency, and the
 * server's CPU time per request (its process group's utime + stime over the burst, divided by the
 * requests it answered), a figure the other load on a shared machine moves far less than req/s.
 */
export async function burst(server, request, seconds) {
  const cpuBefore = cpuSeconds(server.pid);
  const r = await cannon({ ...request, duration: seconds });
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const answered = r.requests.total;
  return {
    rps: answered / (r.duration || seconds),
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    cpuUsPerRequest: answered > 0 ? (cpu * 1e6) / answered : NaN,
  };
}

// ---- the sandbox under load -------------------------------------------------------------------------

/** The payout every load sends (a destination name enquiry knows, so it is accepted). */
export const PAYOUT = JSON.stringify({ amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank" });
/** The airtime purchase every load sends. */
export const AIRTIME = JSON.stringify({ network: "mtn", phone: "08031234567", amount: 100 });

/** The sandbox's routes under load, each a request of the sandbox `s` (its base URL and merchant's headers). */
export const API_ROUTES = [
  ["GET /api/v1/wallet/balance", (s) => ({ url: `${s.base}/api/v1/wallet/balance`, headers: s.headers })],
  ["POST /api/v1/payout/transfer", (s) => ({ url: `${s.base}/api/v1/payout/transfer`, method: "POST", headers: s.headers, body: PAYOUT })],
  ["POST /api/v1/vtu/airtime", (s) => ({ url: `${s.base}/api/v1/vtu/airtime`, method: "POST", headers: s.headers, body: AIRTIME })],
];

/** The built sandbox `cli` started on `port` with `extraArgs`, and a merchant whose limits never refuse the load: its server, base URL and headers. */
export async function startSandbox(cli, port, extraArgs, cwd) {
  const server = spawnServer(process.execPath, [cli, "start", "--port", String(port), ...extraArgs], { cwd });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitOk(`${base}/health`);
    return { server, base, headers: await unlimitedMerchant(base) };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/** Signs up a merchant whose balance and limits never refuse the load on the sandbox at `base`; its request headers. */
export async function unlimitedMerchant(base) {
  const res = await fetch(`${base}/sandbox/v1/merchants`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      wallet_balance: 1e11,
      limits: {
        requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0,
        payout_max: 1e11, payout_hourly_amount: 1e11, payout_daily_amount: 1e11, payout_review_threshold: 1e11,
      },
    }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`sign-up refused: ${res.status} ${JSON.stringify(body)}`);
  return { "x-api-key": body.data.api_key, "x-api-secret": body.data.api_secret, "content-type": "application/json" };
}

// ---- the built bundle ---------------------------------------------------------------------------------

/**
 * Line number (0-based) of a bundle -> the module it comes from, read from the `// src/x.ts` and
 * `// node_modules/x/y.js` comments esbuild writes before each module. A build whose node_modules is a
 * link names them by the path it leads to (`// ../../x/node_modules/...`): cut to `node_modules/...`.
 */
export function bundleModules(lines) {
  const starts = [];
  lines.forEach((line, i) => {
    const m = /^\/\/ (?:\S*?\/)?((?:node_modules|src)\/\S+)$/.exec(line);
    if (m) starts.push([i, m[1]]);
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "(bundle)";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) (found = starts[mid][1]), (lo = mid + 1);
      else hi = mid - 1;
    }
    return found;
  };
}

// ---- profiling a server from inside ---------------------------------------------------------------

/** The start of an `--import` hook's source: an inspector session on the server's own isolate, and `post(method, params)`. */
export const INSPECTOR_SESSION = `import { Session } from "node:inspector";
const s = new Session(); s.connect();
const post = (m, p = {}) => new Promise((ok, fail) => s.post(m, p, (e, r) => (e ? fail(e) : ok(r))));`;

/** A temporary folder for one benchmark's files, removed when the process exits. */
export function tempWork(prefix) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  process.on("exit", () => rmSync(work, { recursive: true, force: true }));
  return work;
}
