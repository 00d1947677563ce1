// Where a cold start's time goes, phase by phase, for one or more builds side by side: a copy of each
// build's dist/ with marks (`performance.now()` from process start) written into its loader and bundle,
// its code cache made again for the marked bundle, then started `--runs` times in turn (order rotated),
// each until its first answer to the demo merchant's GET; medians per phase.
//
//   node bench/cold-phases.mjs [--runs 9] [--modules] [--cli dist/cli.mjs] [--cli /tmp/base/dist/cli.mjs ...]
//
// --modules also marks the start of every module in the bundle and prints the slowest ones' times.
// A phase whose place a build's bundle does not have (the code moved) shows "-".
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { arg, cliArgs, DEMO, median, rotate, spawnServer, waitOk } from "./measure.mjs";

const RUNS = Number(arg("--runs", 9));
const MODULES = process.argv.includes("--modules");
const clis = cliArgs(resolve("dist/cli.mjs"));
let nextPort = 21600 + (process.pid % 50) * 100;

// Wall time from process start, and the process's CPU time (user + system, every thread) by then.
const MARK = (name) => `process._rawDebug("@mark " + ${JSON.stringify(name)} + " " + performance.now() + " " + (() => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; })());`;
/** [phase that ends here, where in the loader] */
const LOADER = [
  ["Node's start, to the loader's first line", /^const bundle = /m],
  ["reading the bundle and the cache, SHA-256", /^\/\/ The bundle as Node would wrap/m],
  ["decoding the source, deserialising the cache", /^const \[command = "start"\]/m],
];
/** [phase that ends here, where in the bundle]: the mark goes before the first match. */
const BUNDLE = [
  ["loading the bundle's modules (its top level)", /^async function main\(argv\) \{\n/m, "after"],
  ["settings, fixtures, demo merchant, createApp", /^\s*for \(const m of demo\)/m],
  ["the demo merchant's sample activity", /^\s*return \{ restored: restored2/m],
  ["listening", /^\s*const \{ port \} = server\.address\(\);\n/m, "after"],
];
const FIRST = "first GET answered";

function insert(text, re, code, where = "before") {
  const m = re.exec(text);
  if (!m) return text;
  const at = where === "after" ? m.index + m[0].length : m.index;
  return text.slice(0, at) + code + "\n" + text.slice(at);
}

/** A copy of the build at `cli` with the marks written in, and its code cache made for them. */
async function marked(cli) {
  // Beside links to the rest of its checkout: the bundle finds its fixtures, assets and package.json by walking up.
  const root = mkdtempSync(join(tmpdir(), "msb-phases-"));
  const from = dirname(dirname(cli));
  for (const name of readdirSync(from)) if (name !== "dist") symlinkSync(join(from, name), join(root, name));
  const dist = join(root, "dist");
  cpSync(dirname(cli), dist, { recursive: true });
  rmSync(join(dist, "cli.cjs.cache"), { force: true });
  let loader = readFileSync(join(dist, "cli.mjs"), "utf8");
  for (const [name, re] of LOADER) loader = insert(loader, re, MARK(name));
  writeFileSync(join(dist, "cli.mjs"), loader);
  let bundle = readFileSync(join(dist, "cli.cjs"), "utf8");
  for (const [name, re, where] of BUNDLE) bundle = insert(bundle, re, MARK(name), where);
  bundle = bundle.replace(/^(\s*)const \{ port \} = server\.address\(\);\n/m, (line, indent) => `${line}${indent}server.once("request", (q, s) => s.once("finish", () => { ${MARK(FIRST)} }));\n`);
  if (MODULES) bundle = bundle.replace(/^\/\/ ((?:src|\.\.\/)[^\n]*\.[cm]?[jt]sx?)\n/gm, (line, path) => `${line}${MARK(`module ${path.replace(/^(\.\.\/)+work\/main\//, "")}`)}\n`);
  writeFileSync(join(dist, "cli.cjs"), bundle);
  await once(join(dist, "cli.mjs")); // the loader writes the cache on this first start
  return join(dist, "cli.mjs");
}

/** One start until its first 200: its marks, in order. */
async function once(cli) {
  const port = nextPort++;
  const server = spawnServer(process.execPath, [cli, "start", "--port", String(port)]);
  let marks = "";
  server.child.stderr.on("data", (d) => (marks += d)); // all of it: spawnServer keeps only the end
  try {
    await waitOk(`http://127.0.0.1:${port}/api/v1/wallet/balance`, DEMO, 60_000);
    await new Promise((r) => setTimeout(r, 50));
    return parseMarks(marks);
  } finally {
    await server.stop();
  }
}

/** [name, wall ms, CPU ms] of each mark, in order. */
function parseMarks(text) {
  return [...text.matchAll(/^@mark (.+) ([\d.]+) ([\d.]+)$/gm)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
}

const builds = [];
for (const cli of clis) builds.push({ cli, marked: await marked(cli), runs: [] });
for (let run = 0; run < RUNS; run++) for (const b of rotate(builds, run % builds.length)) b.runs.push(await once(b.marked));

/** Each phase's length in one run, [wall, CPU]: from the mark before it (0 for the first) to its own. */
function phases(marks) {
  const out = new Map();
  let last = [0, 0];
  for (const [name, at, cpu] of marks) {
    if (!name.startsWith("module ")) {
      out.set(name, [at - last[0], cpu - last[1]]);
      last = [at, cpu];
    }
  }
  const first = marks.find(([n]) => n === FIRST);
  if (first) out.set("total, spawn to first GET answered", [first[1], first[2]]);
  return out;
}

const names = [...LOADER.map(([n]) => n), ...BUNDLE.map(([n]) => n), FIRST, "total, spawn to first GET answered"];
console.log(`\nmedians of ${RUNS} starts, order rotated: wall ms / CPU ms (the process's, all threads; Node's start: CPU before the loader)`);
clis.forEach((cli, i) => console.log(`[${i}] ${cli}`));
console.log(`| Phase | ${builds.map((_, i) => `[${i}]`).join(" | ")} |`);
console.log(`|---|${builds.map(() => "---:").join("|")}|`);
const table = builds.map((b) => b.runs.map(phases));
for (const name of names) {
  const cells = table.map((runs) => {
    const xs = runs.map((p) => p.get(name)).filter((v) => v !== undefined);
    return xs.length ? `${median(xs.map(([w]) => w)).toFixed(1)} / ${median(xs.map(([, c]) => c)).toFixed(1)}` : "-";
  });
  console.log(`| ${name === FIRST ? "listening to the first GET answered" : name} | ${cells.join(" | ")} |`);
}

if (MODULES) {
  builds.forEach((b, i) => {
    const per = new Map();
    for (const marks of b.runs) {
      const mods = marks.filter(([n]) => n.startsWith("module ") || n === BUNDLE[0][0]);
      for (let j = 0; j + 1 < mods.length; j++) {
        const [name, , cpu] = mods[j];
        if (!per.has(name)) per.set(name, []);
        per.get(name).push(mods[j + 1][2] - cpu);
      }
    }
    const top = [...per].map(([n, xs]) => [n, median(xs)]).sort((a, b) => b[1] - a[1]).slice(0, 25);
    console.log(`\n[${i}] slowest modules (median CPU ms, from its first line to the next module's)`);
    for (const [n, ms] of top) console.log(`  ${ms.toFixed(2).padStart(6)}  ${n.slice("module ".length)}`);
  });
}
for (const b of builds) rmSync(dirname(dirname(b.marked)), { recursive: true, force: true });
