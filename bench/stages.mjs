// A request's cost by stage, the "profile first" of bench/FAST-PATH.md: for one route of a built
// sandbox, the server's CPU per request split by stage (parse, auth, validation, name check, caps,
// ledger, records, event and timer, request log, integration-check bookkeeping, response, routing,
// node's HTTP, GC, ...), the bytes it allocates by the same stages, and the bytes it keeps.
//
//   node bench/stages.mjs [--route post|airtime|get] [--cli dist/cli.mjs]... [--seconds 4] [--rounds 3]
//                         [--kept 5000] [--interval 250] [--heap-interval 512] [--top 0] [--dump DIR]
//                         [--uninlined-alloc] [--node "flags"]
//   node bench/stages.mjs --route post --cli /tmp/base/dist/cli.mjs --cli dist/cli.mjs   (before, after)
//
// Each --cli is a column: all are started at once, then measured in turn, phase by phase, so each sees
// the same schedule (a payout settles delays.payout_settlement_seconds of sim time after it is made,
// within later phases).
// The merchant is bench/measure.mjs's unlimitedMerchant; the load autocannon's, 20 connections. Per server:
// - warm-up: a 2 s burst, which also fills the merchant's request log, a ring of DEFAULT_REQUEST_LOG_SIZE
//   entries (it goes on until it has sent more requests than that), so from then on each new entry drops
//   the oldest and the log keeps nothing net per request;
// - bytes kept: a full GC (the inspector's HeapProfiler.collectGarbage), the V8 heap in use
//   (Runtime.getHeapUsage), exactly --kept requests, a full GC, the heap again; the difference over the
//   requests. Meanwhile V8's sampling heap profiler, keeping only what is still alive at its stop,
//   tells which stage allocated what stays;
// - CPU: --rounds rounds, each a burst of --seconds with no profiler on, then one under V8's CPU
//   profiler (the main thread, a sample every --interval µs, idle excluded). The CPU per request is
//   the median of the unprofiled bursts' (user + system time of the server's process group from
//   /proc, all of its threads, over the requests answered). Each profile sample goes to the innermost
//   frame of its stack (parents walked up to the root; V8 reports inlined functions as frames of
//   their own) that a stage of STAGES below claims, so the stages partition the busy time and add up
//   to 100%; a stage's share of the rounds' profiles, pooled, times the CPU per request gives its µs.
//   The garbage collector's samples carry no stack: GC is a row of its own (who makes the garbage is
//   the allocation table's);
// - bytes allocated by stage: one more burst under the sampling heap profiler (HeapProfiler
//   .startSampling every --heap-interval bytes, with includeObjectsCollectedByMajorGC and ...MinorGC,
//   so it counts all that was allocated, not what survives; Node 20's V8 has both: on the payout it
//   gives 42.5 KB a request where --trace-gc-nvp's `allocated` gives 41.7), each node's bytes to the
//   innermost stage of its stack, over the requests of that burst. This profiler sees real frames
//   only: what a function inlined into its caller allocates is the caller's (--uninlined-alloc: see
//   below).
// A frame is placed by the module it comes from: esbuild writes `// src/x.ts` and `// node_modules/...`
// before each module of dist/cli.cjs (as bench/profile.mjs reads them). The profilers run inside the
// server (an `--import` hook that obeys SIGUSR2 and a command file), so one process gives every
// figure. They slow it: the shares are read from the profiled bursts, the µs from the unprofiled ones.
// `--top N` prints each stage's N largest functions, to check what STAGES assigns (and what "other"
// is left with); `--dump DIR` keeps the raw profiles. Prints markdown tables (a column per --cli) and
// one JSON line with every figure.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AIRTIME, arg, bundleModules, burst, cannon, median, PAYOUT, INSPECTOR_SESSION, tempWork, unlimitedMerchant, waitOk } from "./measure.mjs";

// ---- the stages -------------------------------------------------------------------------------------

// Stage -> matchers. A matcher holds `file` (the frame's module: `src/...`, `node_modules/...` or a
// `node:` module), `fn` (its function name, without the digits esbuild appends to a renamed one) and
// `code` (the bundle's text on the line the function starts), regular expressions that must all fit.
// A frame belongs to the first stage, in this order, with a matcher it fits. A sample goes to the
// innermost frame that belongs to a stage through a strong matcher; only when its stack has none, to
// the innermost weak one. Weak matchers are for helpers every stage calls (hono's `c.req`/`c.get`,
// node's streams): called from auth they count for auth. A frame no stage claims (money.ts, fields.ts,
// outcomes.ts, changes.ts, ...) counts for the stage of the code that called it.
const SRC = (...files) => ({ file: new RegExp(`^src/(${files.join("|")})\\.tsx?$`) });
const PKG = (path, more = {}) => ({ file: new RegExp(`^node_modules/${path}`), ...more });
const IN = (files, fn) => ({ file: new RegExp(`^src/(${files.join("|")})\\.tsx?$`), fn });
const WEAK = (m) => ({ ...m, weak: true });
const NODE_SERVER = "@hono/node-server/";
const STAGES = [
  ["GC", [{ fn: /^\(garbage collector\)$/ }]],
  ["V8 and native (program)", [{ fn: /^\(program\)$/ }]],
  // Reading the request body and parsing it (the pipeline's JSON checks, the body limit, hono's body cache).
  ["parse", [
    SRC("http/json-only", "http/body-limit", "domain/json-depth"),
    PKG("hono/dist/utils/body\\.js"),
    PKG("hono/dist/middleware/body-limit/"),
    PKG("hono/dist/request\\.js", { fn: /^(json|text|arrayBuffer|blob|formData|parseBody|#?cachedBody)$/ }),
    PKG("hono/dist/request\\.js", { code: /JSON\.parse|#cachedBody|bodyCache/ }),
    PKG(NODE_SERVER, { fn: /^(readBody\w*|consumeBody\w*|readRawBody\w*|enqueueBufferedBody|recordBodyBuffered\w*|onData|onEnd|finish|cleanup|text|json|arrayBuffer|blob|toArrayBuffer)$/ }),
  ]],
  // The key and secret, the merchant looked up, the client's address.
  ["auth", [SRC("http/auth", "http/control-auth", "http/client-ip")]],
  // zod and the validator middleware (@hono/zod-openapi's media type gate, hono's validator), and the hook that shapes a 422.
  ["validation", [SRC("http/validation"), PKG("zod/"), PKG("@hono/zod-validator/"), PKG("hono/dist/validator/"), PKG("@hono/zod-openapi/")]],
  ["name check", [SRC("domain/name-check", "domain/name-enquiry", "domain/names", "domain/nuban", "scenarios/closest-name")]],
  // Attempt caps, the payout volume window, the limits, the capability and per-IP quotas.
  ["caps", [SRC("domain/attempt-caps", "domain/volume", "domain/limits", "engine/attempt-leases", "http/capability", "http/quotas"), IN(["api/v1/payouts/routes"], /^payoutAttempts$/)]],
  ["ledger", [SRC("domain/ledger"), IN(["domain/wallet"], /^fundWallet$/)]],
  // The record made and stored: its ids and references (nanoid), its price and outcome plan (outcomes.ts,
  // claimed by no stage, counts for its caller), the domain call's own code.
  ["records", [
    SRC("engine/ids"),
    PKG("nanoid/"),
    IN(["domain/payouts"], /^(createPayout|uniqueReference|scheduleSettlement)$/),
    IN(["domain/vtu"], /^(purchase|price\w+|uniqueReference|meterToken|examPins)$/),
  ]],
  // Events, timers and their settlement, the webhook dispatcher, the clock driver.
  ["event and timer", [
    SRC("domain/events", "domain/event-records", "domain/timers", "domain/timer-dispatch", "domain/delivery-log", "domain/webhook-policy", "engine/clock-driver", "engine/clock", "webhooks/dispatcher", "webhooks/sign", "webhooks/transport"),
    IN(["domain/payouts", "domain/vtu"], /^(settle\w*|complete\w*|fail\w*)$/),
  ]],
  // What the request log keeps per request for the integration checks (domain/checks*.ts evaluate the
  // log only when read): the objects the request touched, found in its answer and path.
  ["integration-check bookkeeping", [IN(["domain/request-log"], /^(touchedObjects|read)$/), IN(["http/request-log"], /^touched$/), SRC("domain/checks", "domain/checks-requests", "domain/checks-webhooks", "domain/check-rule", "engine/integration-checks")]],
  ["request log", [SRC("http/request-log", "domain/request-log", "engine/log-budget"), IN(["engine/tenant-store"], /^logRequest$/)]],
  // The route's handler: its own code and the domain context it makes (tenantOf).
  ["handler", [{ file: /^src\/(api\/.+|sandbox\/.+\/index)\.ts$/ }, SRC("http/route", "engine/tenant")]],
  // The handler's answer made into fields (views: amounts in naira, masked account, ISO times).
  ["view (record -> answer fields)", [IN(["domain/payouts", "domain/vtu", "domain/wallet"], /[Vv]iew$/), IN(["domain/context"], /^iso/)]],
  // The answer's JSON (the sandbox's c.json), its headers and @hono/node-server writing it to node.
  ["response", [
    SRC("http/response-headers", "http/security-headers", "http/errors"),
    PKG("hono/dist/context\\.js", { fn: /^(#newResponse|newResponse|body|text|json|html|set res)$/ }),
    PKG(NODE_SERVER, { fn: /^(responseVia\w*|writeFromReadableStream\w*|buildOutgoingHttpHeaders|flushHeaders|trySetContentLength|writeDefaultHeaders|isImmediateCacheableResponse|handleResponseError|Response|_Response)$/ }),
  ]],
  // A response spoiled on purpose (outcome rules' `response`): decided on every money-moving POST.
  ["fault decision", [SRC("http/response-faults")]],
  // The change a write runs in (the merchant's lock and the store's commit).
  ["store change (commit)", [SRC("engine/tenant-store", "engine/lanes", "persistence/.+", "store/.+")]],
  // Routing and the middleware chain: hono's dispatch and router, the sandbox's router memo and its API
  // pipeline frame, @hono/node-server's listener and request object; hono's c.req and c.get, weakly.
  ["hono routing/dispatch", [
    PKG("hono/dist/(hono-base|compose|hono|router|helper/route|utils/url)"),
    PKG(NODE_SERVER, { fn: /^(getRequestListener|newRequest\w*|buildUrl|Request|_Request)$/ }),
    SRC("http/memo-router", "http/pipeline", "http/connection-limits", "app", "routes", "server"),
    WEAK(PKG("hono/")),
    WEAK(PKG(NODE_SERVER)),
  ]],
  // Node's HTTP server: parsing the request, the response's head, the socket write.
  ["node http + socket write", [
    { fn: /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString)$/ },
    { file: /^node:(_http_\w+|net|internal\/stream_base_commons|internal\/http)$/ },
    WEAK({ file: /^node:(internal\/streams\/.+|internal\/webstreams\/.+|stream)$/ }),
    // Objects made from C++ (the HTTP parser's header strings) with no JS frame above them.
    WEAK({ fn: /^\(V8 API\)$/ }),
  ]],
  // Resuming awaits and running callbacks: V8's microtask loop and node's tick queue, when nothing above claims them.
  ["microtask and tick queues", [WEAK({ fn: /^(runMicrotasks|runMicrotask|processTicksAndRejections|processPromiseRejections|runNextTicks)$/ }), WEAK({ file: /^node:internal\/(process\/task_queues|process\/promises|async_hooks)$/ })]],
];
const OTHER_SRC = "other sandbox code";
const OTHER = "other (node, V8)";
const STAGE_NAMES = [...STAGES.map(([name]) => name), OTHER_SRC, OTHER];

// ---- the command line ---------------------------------------------------------------------------------

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const ROUTE = arg("--route", "post");
if (!["get", "post", "airtime"].includes(ROUTE)) throw new Error("--route takes post, airtime or get");
const CLIS = process.argv.flatMap((a, i) => (a === "--cli" ? [resolve(process.argv[i + 1])] : []));
if (CLIS.length === 0) CLIS.push(join(ROOT, "dist/cli.mjs"));
const SECONDS = Number(arg("--seconds", 4));
const ROUNDS = Number(arg("--rounds", 3));
const KEPT = Number(arg("--kept", 5000));
const INTERVAL_US = Number(arg("--interval", 250));
const HEAP_INTERVAL = Number(arg("--heap-interval", 512));
const TOP = Number(arg("--top", 0));
const DUMP = arg("--dump", undefined);
const UNINLINED_ALLOC = process.argv.includes("--uninlined-alloc");
const NODE_FLAGS = (arg("--node", "") || "").split(" ").filter(Boolean); // e.g. --node "--no-turbo-inlining"
const WARM_SECONDS = 2;
// Read from the first server's build (its dist/domain, beside dist/cli.mjs), as it runs them.
const domainOf = (file) => import(pathToFileURL(join(dirname(CLIS[0]), "domain", file)).href);
const REQUEST_LOG_RING = (await domainOf("request-log.js")).DEFAULT_REQUEST_LOG_SIZE;
const SETTLE_SECONDS = (await domainOf("merchant.js")).DEFAULTS.delays[ROUTE === "airtime" ? "vtu_settlement_seconds" : "payout_settlement_seconds"];

const work = tempWork("msb-stages-");
let nextPort = 20900 + Math.floor(Math.random() * 100);

// Loaded into the server with --import. On SIGUSR2 it reads "<command> <out file>" from the file named
// MSB_STAGES_DIR/command-<its pid>, does it, and writes its answer (JSON) to the out file through a rename.
const HOOK = `data:text/javascript,${encodeURIComponent(`
${INSPECTOR_SESSION}
import { readFileSync, renameSync, writeFileSync } from "node:fs";
const usage = async () => { await post("HeapProfiler.collectGarbage"); await post("HeapProfiler.collectGarbage"); return post("Runtime.getHeapUsage"); };
const sample = async (collected) => {
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: ${HEAP_INTERVAL}, includeObjectsCollectedByMajorGC: collected, includeObjectsCollectedByMinorGC: collected });
  return {};
};
const run = {
  "cpu-start": async () => { await post("Profiler.enable"); await post("Profiler.setSamplingInterval", { interval: ${INTERVAL_US} }); await post("Profiler.start"); return {}; },
  "cpu-stop": async () => (await post("Profiler.stop")).profile,
  // All that is allocated (the samples of collected objects kept), or only what is still alive at the stop.
  "alloc-start": () => sample(true),
  "live-start": () => sample(false),
  "alloc-stop": async () => (await post("HeapProfiler.stopSampling")).profile,
  "live-stop": async () => { await usage(); return (await post("HeapProfiler.stopSampling")).profile; },
  "usage": usage,
};
process.on("SIGUSR2", async () => {
  const [command, out] = readFileSync(process.env.MSB_STAGES_DIR + "/command-" + process.pid, "utf8").split(" ");
  let answer;
  try { answer = await run[command](); } catch (e) { answer = { error: String(e && e.message || e) }; }
  writeFileSync(out + ".tmp", JSON.stringify(answer)); renameSync(out + ".tmp", out);
});`)}`;

let commands = 0;
/** Has the server's hook run `command`; its answer. */
async function tell(server, command) {
  const out = join(work, `answer-${++commands}.json`);
  const file = join(work, `command-${server.child.pid}`);
  writeFileSync(file, `${command} ${out}`);
  process.kill(server.child.pid, "SIGUSR2");
  const deadline = Date.now() + 120_000;
  while (!existsSync(out)) {
    if (Date.now() > deadline || server.child.exitCode !== null) throw new Error(`no answer to ${command} from ${server.cli}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const answer = JSON.parse(readFileSync(out, "utf8"));
  if (answer?.error) throw new Error(`${command}: ${answer.error}`);
  return answer;
}

/** A server started with the hook, its merchant, the request to load it with, and the bundle it runs. */
async function start(cli, flags = [], tries = 5) {
  const port = nextPort++;
  // The bundle the CLI runs (dist/cli.cjs beside the loader), read now: a rebuild while the server runs
  // would move the lines under its profiles.
  const bundle = existsSync(cli.replace(/\.mjs$/, ".cjs")) ? cli.replace(/\.mjs$/, ".cjs") : cli;
  const lines = readFileSync(bundle, "utf8").split("\n");
  const env = { ...process.env, MSB_STAGES_DIR: work };
  const child = spawn(process.execPath, [...NODE_FLAGS, ...flags, "--import", HOOK, cli, "start", "--port", String(port)], { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout = (stdout + d).slice(-2000)));
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  const base = `http://127.0.0.1:${port}`;
  // Its own banner, not just a 200: the port may be another process's (then this one exits: next port).
  const deadline = Date.now() + 60_000;
  while (!stdout.includes(`listening on ${base}`)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      stop();
      if (tries > 1 && child.exitCode !== null) return start(cli, flags, tries - 1);
      throw new Error(`${cli} did not start on port ${port}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await waitOk(`${base}/health`);
  const headers = await unlimitedMerchant(base);
  const request =
    ROUTE === "post"
      ? { url: `${base}/api/v1/payout/transfer`, method: "POST", headers, body: PAYOUT }
      : ROUTE === "airtime"
        ? { url: `${base}/api/v1/vtu/airtime`, method: "POST", headers, body: AIRTIME }
        : { url: `${base}/api/v1/wallet/balance`, headers };
  return { cli, child, pid: child.pid, request, bundle, lines, stop };
}

// ---- frames to stages -----------------------------------------------------------------------------------

/** Places one server's frames: a frame's module, and the stage its matchers give it (strong, weak or none). */
function placer(server) {
  const { lines } = server;
  const bundled = bundleModules(lines);
  const urls = new Set([server.bundle, pathToFileURL(server.bundle).href]);
  return ({ functionName, url, lineNumber }) => {
    const fn = functionName || "(anonymous)";
    const inBundle = urls.has(url);
    let file;
    if (inBundle) file = bundled(lineNumber);
    else if (url === "" || url.startsWith("node:")) file = url;
    else if (url.startsWith("data:")) file = "(this tool's hook)";
    else file = /node_modules\/.*$/.exec(url)?.[0] ?? relative(ROOT, url.replace(/^file:\/\//, ""));
    const name = fn.replace(/\d+$/, ""); // esbuild's renames: record3, logRequests2
    for (const [stage, matchers] of STAGES) {
      for (const m of matchers) {
        if (m.file && !m.file.test(file)) continue;
        if (m.fn && !m.fn.test(name)) continue;
        if (m.code && !(inBundle && m.code.test(lines[lineNumber] ?? ""))) continue;
        return { fn, file, stage, weak: m.weak === true };
      }
    }
    return { fn, file, stage: undefined, weak: false };
  };
}

/**
 * A profile tree's nodes (CPU: `nodes` with `children` ids; heap: nested `children`) placed: each one's
 * frame, and the stage of its stack, the innermost frame with a strong stage, else the innermost with
 * a weak one, else "other sandbox code" when a frame of src/ is on it, else "other (node, V8)".
 */
function classify(nodes, parentOf, server) {
  const place = placer(server);
  const info = new Map();
  const infoOf = (node) => {
    let known = info.get(node);
    if (known) return known;
    const own = place(node.callFrame);
    const parent = parentOf(node);
    const up = parent ? infoOf(parent) : undefined;
    known = {
      fn: own.fn,
      file: own.file,
      strong: own.stage && !own.weak ? own.stage : up?.strong,
      weak: own.stage && own.weak ? own.stage : up?.weak,
      src: own.file.startsWith("src/") ? `${own.fn}  ${own.file}` : up?.src, // the innermost src/ frame
    };
    info.set(node, known);
    return known;
  };
  return (node) => {
    const i = infoOf(node);
    return { ...i, stage: i.strong ?? i.weak ?? (i.src ? OTHER_SRC : OTHER) };
  };
}

/** Busy time (µs, idle excluded) by stage, and by stage and leaf function, from a CPU profile. */
function cpuByStage(profile, server) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n);
  const of = classify(profile.nodes, (n) => parents.get(n.id), server);
  const stages = new Map();
  const leaves = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (node.callFrame.functionName === "(idle)") return;
    // The time until the next sample is this one's (as Chrome's DevTools counts it).
    const dt = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    const { stage, fn, file, src } = of(node);
    busy += dt;
    stages.set(stage, (stages.get(stage) ?? 0) + dt);
    const key = `${stage}\t${fn}  ${file}${stage === OTHER_SRC || stage === OTHER ? (src ? `  (in ${src})` : "") : ""}`;
    leaves.set(key, (leaves.get(key) ?? 0) + dt);
  });
  return { total: busy, stages, leaves };
}

/** Bytes allocated by stage, and by stage and allocating function, from a sampling heap profile. */
function heapByStage(profile, server) {
  const nodes = [];
  const parents = new Map();
  const walk = (node, parent) => {
    nodes.push(node);
    if (parent) parents.set(node, parent);
    for (const c of node.children ?? []) walk(c, node);
  };
  walk(profile.head, undefined);
  const of = classify(nodes, (n) => parents.get(n), server);
  const stages = new Map();
  const leaves = new Map();
  let total = 0;
  for (const node of nodes) {
    if (!node.selfSize) continue;
    const { stage, fn, file, src } = of(node);
    total += node.selfSize;
    stages.set(stage, (stages.get(stage) ?? 0) + node.selfSize);
    const key = `${stage}\t${fn}  ${file}${stage === OTHER_SRC || stage === OTHER ? (src ? `  (in ${src})` : "") : ""}`;
    leaves.set(key, (leaves.get(key) ?? 0) + node.selfSize);
  }
  return { total, stages, leaves };
}

// ---- one server, phase by phase -----------------------------------------------------------------------

const servers = [];
process.on("exit", () => servers.forEach((s) => s.stop()));
for (const cli of CLIS) servers.push(await start(cli));
const results = servers.map((s) => ({ cli: s.cli, cpu: [], rps: [], non2xx: 0, errors: 0 }));
const note = (r, b) => ((r.non2xx += b.non2xx ?? 0), (r.errors += b.errors ?? 0));
const dump = (s, name, data) => {
  if (!DUMP) return;
  mkdirSync(DUMP, { recursive: true });
  writeFileSync(join(DUMP, `${ROUTE}-${servers.indexOf(s)}-${basename(dirname(dirname(s.cli)))}-${name}.json`), JSON.stringify(data));
};

for (const [i, s] of servers.entries()) {
  // Warm until the request log is full (a very busy machine may need more than one burst).
  for (let sent = 0, tries = 0; sent <= REQUEST_LOG_RING; tries++) {
    if (tries === 5) throw new Error(`the warm-up sent ${sent} requests: too few to fill the request log`);
    const warm = await cannon({ ...s.request, duration: WARM_SECONDS });
    note(results[i], warm);
    sent += warm.requests.total;
  }
  const before = await tell(s, "usage");
  await tell(s, "live-start");
  const kept = await cannon({ ...s.request, amount: KEPT });
  note(results[i], kept);
  const live = await tell(s, "live-stop");
  dump(s, "live", live);
  const after = await tell(s, "usage");
  results[i].keptBytes = (after.usedSize - before.usedSize) / kept.requests.total;
  results[i].keptRequests = kept.requests.total;
  results[i].live = heapByStage(live, s);
}
// Each round: a burst measured as is, then one under the CPU profiler, per server. The profiles are
// pooled: the load on a shared machine drifts, and each round's profile sits beside its own measure.
const pool = (into, from) => {
  if (!into) return from;
  into.total += from.total;
  for (const key of ["stages", "leaves"]) for (const [k, v] of from[key]) into[key].set(k, (into[key].get(k) ?? 0) + v);
  return into;
};
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, s] of servers.entries()) {
    const b = await burst({ pid: s.pid }, s.request, SECONDS);
    note(results[i], b);
    results[i].cpu.push(b.cpuUsPerRequest);
    results[i].rps.push(b.rps);
    await tell(s, "cpu-start");
    note(results[i], await cannon({ ...s.request, duration: SECONDS }));
    const profile = await tell(s, "cpu-stop");
    dump(s, `cpu-${round}`, profile);
    results[i].cpuStages = pool(results[i].cpuStages, cpuByStage(profile, s));
  }
}
// The sampling heap profiler names real frames only: what an inlined callee allocates counts for its
// caller, and which calls V8 inlines differs from one process to the next (hono's `next()` inlined into
// a middleware moves ~1 KB between stages). --uninlined-alloc takes this table from a second process of
// each build, run with --no-turbo-inlining and warmed up the same way: every allocation then counts for
// the function that made it (the total comes out a few percent higher: less escape analysis).
for (const [i, main] of [...servers.entries()]) {
  const s = UNINLINED_ALLOC ? await start(main.cli, ["--no-turbo-inlining"]) : main;
  if (s !== main) {
    servers.push(s); // stopped on exit too
    note(results[i], await cannon({ ...s.request, duration: WARM_SECONDS }));
  }
  await tell(s, "alloc-start");
  const b = await cannon({ ...s.request, duration: SECONDS });
  note(results[i], b);
  const profile = await tell(s, "alloc-stop");
  dump(main, "heap", profile);
  results[i].heap = heapByStage(profile, s);
  results[i].heapRequests = b.requests.total;
  if (s !== main) s.stop();
}
servers.forEach((s) => s.stop());

// ---- the tables -----------------------------------------------------------------------------------------

const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "-");
const labelOf = (cli) => (cli.startsWith(`${ROOT}/`) ? relative(ROOT, cli) : cli);
// The rows in the order a request meets them; GC, V8 and what no stage claims last.
const ROWS = [...STAGE_NAMES.slice(2, STAGES.length), ...STAGE_NAMES.slice(0, 2), OTHER_SRC, OTHER];
for (const r of results) {
  r.cpuUs = median(r.cpu);
  r.stageUs = Object.fromEntries(ROWS.map((n) => [n, (r.cpuUs * (r.cpuStages.stages.get(n) ?? 0)) / r.cpuStages.total]));
  r.allocPerRequest = r.heap.total / r.heapRequests;
  r.stageBytes = Object.fromEntries(ROWS.map((n) => [n, (r.heap.stages.get(n) ?? 0) / r.heapRequests]));
  r.liveBytes = Object.fromEntries(ROWS.map((n) => [n, (r.live.stages.get(n) ?? 0) / r.keptRequests]));
}
const path = ROUTE === "post" ? "POST /api/v1/payout/transfer" : ROUTE === "airtime" ? "POST /api/v1/vtu/airtime" : "GET /api/v1/wallet/balance";
console.log(`## ${path}: where a request's CPU and memory go\n`);
console.log(
  `Command: \`node bench/stages.mjs ${process.argv.slice(2).join(" ")}\`: per server (autocannon, 20 connections) ` +
    `${ROUNDS} rounds of a ${SECONDS} s burst measured as is and one under the CPU profiler (a sample every ${INTERVAL_US} µs), then one ` +
    `under the sampling heap profiler (every ${HEAP_INTERVAL} bytes). Node ${process.version}.\n`,
);
for (const [i, r] of results.entries()) {
  console.log(`- [${i}] \`${labelOf(r.cli)}\`: ${fmt(median(r.rps), 0)} req/s, ${fmt(r.cpuUs)} µs of CPU per request (median of ${r.cpu.map((x) => fmt(x)).join(", ")}); non-2xx ${r.non2xx}, errors ${r.errors}`);
}
const table = (title, unit, rows, totals, shares = true) => {
  const digits = unit === "µs" ? 1 : 0;
  console.log(`\n${title}\n`);
  console.log(`| Stage | ${results.map((_, i) => `[${i}] ${unit}${shares ? ` | [${i}] share` : ""}`).join(" | ")} |`);
  console.log(`|---|${results.map(() => (shares ? "---:|---:" : "---:")).join("|")}|`);
  for (const n of ROWS) {
    if (rows.every((r) => Math.abs(r[n]) < 0.05)) continue;
    console.log(`| ${n} | ${rows.map((r, i) => `${fmt(r[n], digits)}${shares ? ` | ${fmt((100 * r[n]) / totals[i], 1)}%` : ""}`).join(" | ")} |`);
  }
  console.log(`| **total** | ${totals.map((t) => `**${fmt(t, digits)}**${shares ? " | 100%" : ""}`).join(" | ")} |`);
};
table(
  "Server CPU per request by stage (µs: the stage's share of the profiled burst's busy main thread times the CPU per request of the unprofiled bursts, user + system from /proc):",
  "µs",
  results.map((r) => r.stageUs),
  results.map((r) => r.cpuUs),
);
table(
  `Bytes allocated per request by stage (V8's sampling heap profiler, the objects the GCs collected included; ${UNINLINED_ALLOC ? "from a second process run with --no-turbo-inlining, so that each allocation counts for the function that made it" : "an inlined function's allocations count for its caller, whose stage may differ: --uninlined-alloc splits them exactly"}):`,
  "B",
  results.map((r) => r.stageBytes),
  results.map((r) => r.allocPerRequest),
);
console.log(
  `\nBytes kept per request: the V8 heap in use after a full GC, before and after ${fmt(KEPT, 0)} requests, over the requests. ` +
    `The request log is a ring of ${REQUEST_LOG_RING} entries per merchant, filled by the warm-up, so it keeps nothing net` +
    `${ROUTE === "get" ? "." : `; a ${ROUTE === "post" ? "payout" : "purchase"} settles ${SETTLE_SECONDS} s of sim time after it is made, after this window, so its settlement (event, delivery) is not in it.`}\n`,
);
console.log(`| | ${results.map((_, i) => `[${i}]`).join(" | ")} |\n|---|${results.map(() => "---:").join("|")}|`);
console.log(`| bytes kept per request | ${results.map((r) => fmt(r.keptBytes, 0)).join(" | ")} |`);
table(
  `What was allocated in that window and is still alive after a full GC, by stage, per request (sampled). Part of it is the request log's ring ` +
    `turning over: its ${REQUEST_LOG_RING} newest entries, and the texts other stages made for them (the body, the answer's JSON), freed as many older ones made before the window:`,
  "B",
  results.map((r) => r.liveBytes),
  results.map((r) => r.live.total / r.keptRequests),
  false,
);

if (TOP > 0) {
  for (const [i, r] of results.entries()) {
    for (const [what, data, per, unit] of [["CPU", r.cpuStages, r.cpuUs / r.cpuStages.total, "µs"], ["allocated", r.heap, 1 / r.heapRequests, "B"], ["kept (alive at the end of the window)", r.live, 1 / r.keptRequests, "B"]]) {
      console.log(`\n[${i}] each stage's largest ${what} (leaf function, module; ${unit} per request)\n`);
      const byStage = new Map();
      for (const [key, v] of data.leaves) {
        const [stage, name] = key.split("\t");
        if (!byStage.has(stage)) byStage.set(stage, []);
        byStage.get(stage).push([name, v]);
      }
      for (const [stage, list] of [...byStage].sort((a, b) => (data.stages.get(b[0]) ?? 0) - (data.stages.get(a[0]) ?? 0))) {
        const top = list.sort((a, b) => b[1] - a[1]).slice(0, stage === OTHER_SRC || stage === OTHER ? TOP * 2 : TOP);
        const digits = unit === "µs" ? 1 : 0;
        console.log(`- ${stage} (${fmt((data.stages.get(stage) ?? 0) * per, digits)}): ${top.map(([n, v]) => `${n} ${fmt(v * per, digits)}`).join("; ")}`);
      }
    }
  }
}

const round1 = (x) => Math.round(x * 10) / 10;
const nonZero = (o, f) => Object.fromEntries(Object.entries(o).filter(([, v]) => Math.abs(v) >= 0.05).map(([k, v]) => [k, f(v)]));
console.log(
  `\n${JSON.stringify({
    route: ROUTE,
    node: process.version,
    alloc_from: UNINLINED_ALLOC ? "a second process, --no-turbo-inlining" : "the same process",
    runs: results.map((r) => ({
      cli: labelOf(r.cli),
      rps: Math.round(median(r.rps)),
      cpu_us: round1(r.cpuUs),
      cpu_us_rounds: r.cpu.map(round1),
      stage_us: nonZero(r.stageUs, round1),
      alloc_bytes: Math.round(r.allocPerRequest),
      stage_alloc_bytes: nonZero(r.stageBytes, Math.round),
      kept_bytes: Math.round(r.keptBytes),
      stage_live_bytes: nonZero(r.liveBytes, Math.round),
      non2xx: r.non2xx,
      errors: r.errors,
    })),
  })}`,
);
process.exit(0);
