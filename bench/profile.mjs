// Where a request's time goes, the profile behind each miss named in bench/FAST-PATH.md (issue 17): a
// built server, GC tracing on, under one burst of load measured as is, then one more with V8's CPU
// profiler on, in the same process.
//
//   node bench/profile.mjs [--route get|post|airtime|bare] [--seconds 4] [--data] [--cli dist/cli.mjs] [--top 15] [-- sandbox options]
//
// `bare` profiles bench/baseline.mjs (bare Hono) the same way, for comparison. `--data` starts the
// sandbox with a fresh `--data` folder. Prints, for the burst:
// - req/s and the server's CPU µs per request (from /proc, over the burst without the profiler);
// - the busy time (idle excluded) split by where it ran: the socket write (writev, which every server
//   pays), the garbage collector, Node's own modules, and each bundled package or source file (found
//   from the `// path` comments esbuild puts before each module in dist/cli.mjs);
// - the functions with the most self time;
// - GC: scavenges per 1,000 requests, their mean pause, and what survived and was promoted per
//   scavenge (--trace-gc-nvp): mid-lived data (kept for tens of milliseconds) is what makes them cost.
// The profiler slows the server; compare shares, not absolute times, and profile on a quiet machine.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AIRTIME, arg, bundleModules, burst, PAYOUT, spawnServer, INSPECTOR_SESSION, tempWork, unlimitedMerchant, waitOk } from "./measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const ROUTE = arg("--route", "get");
const SECONDS = Number(arg("--seconds", 4));
const CLI = resolve(arg("--cli", join(ROOT, "dist/cli.mjs")));
const TOP = Number(arg("--top", 15));
// The bundle the CLI runs: dist/cli.cjs beside the loader dist/cli.mjs (tools/cli-loader.mjs), or the CLI itself.
const BUNDLE = existsSync(CLI.replace(/\.mjs$/, ".cjs")) ? CLI.replace(/\.mjs$/, ".cjs") : CLI;
const BUNDLE_URL = pathToFileURL(BUNDLE).href;
const DATA = process.argv.includes("--data");
const NODE_FLAGS = (arg("--node", "") || "").split(" ").filter(Boolean); // e.g. --node "--no-parallel-scavenge"
const EXTRA = process.argv.includes("--") ? process.argv.slice(process.argv.indexOf("--") + 1) : []; // e.g. -- --request-log 0
if (!["get", "post", "airtime", "bare"].includes(ROUTE)) throw new Error("--route takes get, post, airtime or bare");

const work = tempWork("msb-profile-");
let nextPort = 20700 + Math.floor(Math.random() * 200);
// Loaded into the server with --import: SIGUSR2 starts V8's CPU profiler, the next SIGUSR2 writes the
// profile to the file named by MSB_PROFILE_OUT and exits. So one process gives the burst without the
// profiler, its GC trace and the profile: a process's GC can settle into one of two regimes (FAST-PATH.md).
const PROFILER = `data:text/javascript,${encodeURIComponent(`
${INSPECTOR_SESSION}
import { writeFileSync } from "node:fs";
let on = false;
process.on("SIGUSR2", async () => {
  if (!on) { on = true; await post("Profiler.enable"); await post("Profiler.start"); process.stdout.write("PROFILER ON\\n"); return; }
  const { profile } = await post("Profiler.stop");
  writeFileSync(process.env.MSB_PROFILE_OUT, JSON.stringify(profile));
  process.exit(0);
});`)}`;

/** The server, started with the profiler hook and GC tracing, and the request to load it with. */
async function start() {
  const port = nextPort++;
  const bare = ROUTE === "bare";
  const data = DATA ? ["--data", mkdtempSync(join(work, "data-"))] : [];
  const flags = ["--trace-gc-nvp", "--import", PROFILER, ...NODE_FLAGS];
  const args = bare ? [...flags, join(HERE, "baseline.mjs"), String(port)] : [...flags, CLI, "start", "--port", String(port), ...data, ...EXTRA];
  const out = join(work, "cpu.json");
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, MSB_PROFILE_OUT: out } });
  let text = "";
  child.stdout.on("data", (d) => (text += d));
  child.stderr.on("data", () => undefined);
  const base = `http://127.0.0.1:${port}`;
  await waitOk(bare ? `${base}/` : `${base}/health`);
  const headers = bare ? {} : await unlimitedMerchant(base);
  const request =
    ROUTE === "post"
      ? { url: `${base}/api/v1/payout/transfer`, method: "POST", headers, body: PAYOUT }
      : ROUTE === "airtime"
        ? { url: `${base}/api/v1/vtu/airtime`, method: "POST", headers, body: AIRTIME }
        : { url: `${base}/api/v1/wallet/balance`, headers };
  const exited = new Promise((done) => child.once("exit", done));
  return {
    server: { pid: child.pid },
    request,
    output: () => text,
    startProfiler: async () => {
      process.kill(child.pid, "SIGUSR2");
      while (!text.includes("PROFILER ON")) await new Promise((r) => setTimeout(r, 20));
    },
    /** Stops the profiler, and with it the server; the profile. */
    profile: async () => {
      process.kill(child.pid, "SIGUSR2");
      await exited;
      return JSON.parse(readFileSync(out, "utf8"));
    },
  };
}

// ---- where each line of the bundle comes from ---------------------------------------------------------

/** Line number -> module, from esbuild's `// node_modules/x/y.js` and `// src/x.ts` comments. */
const moduleLines = (file) => bundleModules(readFileSync(file, "utf8").split("\n"));

/** A module named for the table: a package (node_modules/@scope/name) or a source file. */
function groupOf(url, line, bundled) {
  if (url.startsWith("node:") || url === "") return "node (http, streams, ...)";
  if (url === BUNDLE_URL) {
    const path = bundled(line);
    const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    return pkg ? pkg[1] : path;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? pkg[1] : url.replace(/^file:\/\//, "");
}

// ---- one process: a burst measured, then a burst profiled ------------------------------------------

function summarise(profile) {
  const bundled = ROUTE === "bare" ? () => "" : moduleLines(BUNDLE);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const groups = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === "(idle)") return;
    busy += dt;
    const group =
      functionName === "writev" || functionName === "writeUtf8String" || functionName === "writeBuffer"
        ? "socket write (writev)"
        : functionName === "(garbage collector)"
          ? "garbage collector"
          : functionName === "(program)"
            ? "(program: V8 and native)"
            : groupOf(url, lineNumber, bundled);
    groups.set(group, (groups.get(group) ?? 0) + dt);
    const where = url === BUNDLE_URL ? bundled(lineNumber) : url.replace(/^.*node_modules\//, "");
    const key = `${functionName || "(anonymous)"}  ${where}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return { busy, groups, self };
}

const nvp = (line) => Object.fromEntries(line.trim().split(/\s+/).map((kv) => kv.split("=")).filter((kv) => kv.length === 2).map(([k, v]) => [k, Number(v)]));
const sum = (xs, k) => xs.reduce((a, x) => a + (x[k] ?? 0), 0);

const s = await start();
await burst(s.server, s.request, 1); // warm-up: JIT and caches
const from = s.output().length;
const measured = await burst(s.server, s.request, SECONDS);
const traced = s.output().slice(from).split("\n");
await s.startProfiler();
await burst(s.server, s.request, SECONDS);
const cpu = summarise(await s.profile());
const gc = {
  requests: measured.rps * SECONDS,
  cpuUs: measured.cpuUsPerRequest,
  scavenges: traced.filter((l) => /\bgc=s\b/.test(l)).map(nvp),
  marks: traced.filter((l) => /\bgc=(mc|mmc)\b/.test(l)).map(nvp),
  sum,
};
const pct = (x) => `${((100 * x) / cpu.busy).toFixed(1)}%`;
const label = ROUTE === "bare" ? "bare Hono GET" : `${ROUTE}${DATA ? " --data" : ""}${EXTRA.length ? ` ${EXTRA.join(" ")}` : ""}`;
console.log(`# ${label}: ${Math.round(gc.requests / SECONDS).toLocaleString("en-US")} req/s, ${gc.cpuUs.toFixed(1)} µs of server CPU per request (a burst without the profiler; the shares below are from the next burst, profiled, in the same process)\n`);
console.log("Busy time (idle excluded), by where it ran:\n");
console.log("| Where | share |\n|---|---:|");
for (const [g, t] of [...cpu.groups].sort((a, b) => b[1] - a[1]).slice(0, TOP + 5)) console.log(`| ${g} | ${pct(t)} |`);
console.log(`\nFunctions with the most self time:\n`);
console.log("| Function  module | share |\n|---|---:|");
for (const [k, t] of [...cpu.self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`| ${k} | ${pct(t)} |`);
const n = gc.scavenges.length;
console.log(
  `\nGC over ${Math.round(gc.requests).toLocaleString("en-US")} requests: ${((1000 * n) / gc.requests).toFixed(2)} scavenges per 1,000 requests, ` +
    `mean pause ${(gc.sum(gc.scavenges, "pause") / Math.max(1, n)).toFixed(2)} ms, ` +
    `survived ${Math.round(gc.sum(gc.scavenges, "new_space_survived") / Math.max(1, n) / 1024)} KB and promoted ${Math.round(gc.sum(gc.scavenges, "promoted") / Math.max(1, n) / 1024)} KB per scavenge; ` +
    `${gc.marks.length} mark-compacts (${gc.sum(gc.marks, "pause").toFixed(1)} ms). ` +
    `GC pauses per request: ${((1000 * (gc.sum(gc.scavenges, "pause") + gc.sum(gc.marks, "pause"))) / gc.requests).toFixed(2)} µs.`,
);
// The figures as one JSON line, for bench/report.mjs: µs per request of each group (CPU per request x share).
const usOf = (t) => Number(((gc.cpuUs * t) / cpu.busy).toFixed(2));
console.log(
  JSON.stringify({
    route: ROUTE,
    data: DATA,
    cpu_us: Number(gc.cpuUs.toFixed(2)),
    us: Object.fromEntries([...cpu.groups].map(([g, t]) => [g, usOf(t)])),
    gc_pause_us: Number(((1000 * (gc.sum(gc.scavenges, "pause") + gc.sum(gc.marks, "pause"))) / gc.requests).toFixed(2)),
    survived_kb: Math.round(gc.sum(gc.scavenges, "new_space_survived") / Math.max(1, n) / 1024),
    promoted_kb: Math.round(gc.sum(gc.scavenges, "promoted") / Math.max(1, n) / 1024),
  }),
);
process.exit(0);
