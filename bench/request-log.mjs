// The request log's cost, measured so that a shared 2-core machine still gives a figure worth quoting:
// bench/run.mjs's request log rows, and standalone to compare builds.
//
//   node bench/request-log.mjs [--cli dist/cli.mjs] [--cli /tmp/base/dist/cli.mjs] [--processes 3] [--rounds 8] [--quick] [--raw]
//
// Two processes running the same code can differ by over 10% in CPU per request (a start's own heap
// and JIT), and this machine's load moves by the second: one pair of processes, log on and log off, in
// alternate bursts at full speed, measured both as much as the log. Here each build runs
// LOG_COST.processes sandboxes with the log on (the default), as many with it off (--request-log 0) and
// as many off again: the noise floor, off against off by the same method, shows how large a cost the
// measure can tell from nothing. All start at once. Each round loads triples of one process a side
// together, LOG_COST.seconds to each at the same time and the same request rate (LOG_COST.rates, below
// what one saturates at: at full speed, whichever process the machine serves less batches more requests
// per turn and so spends less per request), so that whatever else the machine does weighs on the three
// alike; the pairing and the order the load starts in change every round. The cost is the server's own
// CPU per request, 1 - off/on (the throughput lost when the server's CPU bounds it), the median of the
// triples' figures with their quartiles. Several --cli run one after the other, each with its own
// floor; --raw prints every burst's CPU per request.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { API_ROUTES, arg, cannon, cliArgs, cpuSecondsFine, log, median, pct, rotate, spread, startSandbox } from "./measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");

/** The method's sizes: processes per side, rounds, each burst's seconds and its requests per second by route. */
export const LOG_COST = {
  processes: 3,
  rounds: 8,
  seconds: 1,
  rates: { "GET /api/v1/wallet/balance": 4_000, "POST /api/v1/payout/transfer": 2_000, "POST /api/v1/vtu/airtime": 2_000 },
  quick: { processes: 2, rounds: 2 },
};
const SIDES = { on: [], off: ["--request-log", "0"], floor: ["--request-log", "0"] };

/**
 * One burst of `seconds` to each server of `triple` at once, so that whatever else the machine does
 * meanwhile weighs on all three alike: each server's CPU µs per request (schedstat, fine-grained), req/s
 * and failures.
 */
async function together(triple, route, seconds) {
  const before = triple.map((s) => cpuSecondsFine(s.server.pid));
  const results = await Promise.all(triple.map((s) => cannon({ ...route.make(s), duration: seconds, overallRate: LOG_COST.rates[route.what] })));
  return triple.map((s, i) => {
    const r = results[i];
    const cpu = cpuSecondsFine(s.server.pid) - before[i];
    return { server: s, cpuUs: (cpu * 1e6) / r.requests.total, rps: r.requests.total / r.duration, bad: r.non2xx + r.errors };
  });
}

/**
 * Round `round`'s triples: one process of each side, loaded together. The pairing changes every round,
 * so no process's own speed stays paired with another's, and so does the order the load starts in.
 */
function triples(sides, round) {
  const k = sides.on.length;
  return Array.from({ length: k }, (_, j) => rotate([sides.on[j], sides.off[(j + round) % k], sides.floor[(j + 2 * round) % k]], (round + j) % 3));
}

const cost = (off, on) => 1 - off / on;

/**
 * The log's cost on the build `cli`, by route: `{ what, on, off, ratio, non2xx }` (req/s, median burst of
 * each side; ratio = 1 - the cost) and the figures behind them: the cost (1 - off/on CPU per request)
 * and the noise floor (1 - off/floor), each the median of the triples' figures with their quartiles; CPU
 * µs per request each side (median process); how far one side's processes are apart. At a set rate, req/s only shows the load was delivered.
 */
export async function requestLogCost({ cli = join(ROOT, "dist/cli.mjs"), port, processes = LOG_COST.processes, rounds = LOG_COST.rounds } = {}) {
  const started = await Promise.all(
    Object.entries(SIDES).flatMap(([side, extra]) => Array.from({ length: processes }, () => startSandbox(cli, port(), extra, ROOT).then((s) => ({ ...s, side })))),
  );
  const sides = Object.fromEntries(Object.keys(SIDES).map((side) => [side, started.filter((s) => s.side === side)]));
  try {
    const routes = API_ROUTES.map(([what, make]) => ({ what, make, bursts: new Map(started.map((s) => [s, []])), costs: [], floors: [], bad: 0 }));
    // JIT, caches, the log full.
    for (const route of routes) await Promise.all(started.map((s) => cannon({ ...route.make(s), duration: LOG_COST.seconds })));
    for (let round = 0; round < rounds; round++) {
      for (const route of rotate(routes, round % routes.length)) {
        for (const triple of triples(sides, round)) {
          const got = {};
          for (const b of await together(triple, route, LOG_COST.seconds)) {
            route.bursts.get(b.server).push(b);
            route.bad += b.bad;
            got[b.server.side] = b;
          }
          route.costs.push(cost(got.off.cpuUs, got.on.cpuUs));
          route.floors.push(cost(got.off.cpuUs, got.floor.cpuUs));
        }
      }
      log(`request log cost: round ${round + 1}/${rounds}`);
    }
    // The log really held the traffic (and the others really had none).
    for (const s of started) {
      const { log: held } = await (await fetch(`${s.base}/sandbox/v1/requests?per_page=1`, { headers: s.headers })).json();
      if (s.side === "on" ? held.size !== held.capacity : held.enabled) throw new Error(`request log bench: the log ${s.side} held ${JSON.stringify(held)}`);
    }
    return { cli, processes, rounds, seconds: LOG_COST.seconds, rows: routes.map((route) => summarise(route, sides)) };
  } finally {
    await Promise.all(started.map((s) => s.server.stop()));
  }
}

function summarise(route, sides) {
  const each = (side, f) => sides[side].map((s) => median(route.bursts.get(s).map(f)));
  const cpu = (side) => median(each(side, (b) => b.cpuUs));
  const rps = (side) => median(each(side, (b) => b.rps));
  const apart = (side) => {
    const xs = each(side, (b) => b.cpuUs);
    return Math.max(...xs) / Math.min(...xs) - 1;
  };
  const costs = spread(route.costs);
  const raw = Object.fromEntries(Object.keys(sides).map((side) => [side, sides[side].map((s) => route.bursts.get(s).map((b) => Math.round(b.cpuUs * 10) / 10))]));
  return {
    raw,
    what: route.what,
    on: rps("on"),
    off: rps("off"),
    ratio: 1 - costs.median,
    non2xx: route.bad,
    cost: costs,
    floor: spread(route.floors),
    cpu: { on: cpu("on"), off: cpu("off"), floor: cpu("floor") },
    apart: Math.max(apart("on"), apart("off"), apart("floor")),
  };
}

/** A row as printed: the cost with its quartiles over the triples, the noise floor likewise, and the figures behind them. */
export const describeRow = (r) =>
  `${r.what}: cost ${pct(r.cost.median)} (quartiles ${pct(r.cost.q1)} to ${pct(r.cost.q3)}), noise floor ${pct(r.floor.median)} (${pct(r.floor.q1)} to ${pct(r.floor.q3)}); ` +
  `CPU µs/request on ${r.cpu.on.toFixed(1)}, off ${r.cpu.off.toFixed(1)}, floor ${r.cpu.floor.toFixed(1)}; req/s on ${Math.round(r.on)}, off ${Math.round(r.off)}; ` +
  `processes of one side up to ${pct(r.apart)} apart; non-2xx ${r.non2xx}`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick");
  const processes = Number(arg("--processes", quick ? LOG_COST.quick.processes : LOG_COST.processes));
  const rounds = Number(arg("--rounds", quick ? LOG_COST.quick.rounds : LOG_COST.rounds));
  // Below this machine's ephemeral range (32768-60999), apart per process.
  let nextPort = 24100 + (process.pid % 40) * 100;
  const port = () => nextPort++;
  for (const cli of cliArgs(join(ROOT, "dist/cli.mjs"))) {
    log(`\n${cli}: ${processes} processes a side (log on, off, off again), ${rounds} rounds`);
    const result = await requestLogCost({ cli, port, processes, rounds });
    for (const row of result.rows) log(describeRow(row));
    if (process.argv.includes("--raw")) for (const row of result.rows) log(row.what, "CPU µs/request by side, process and round:", JSON.stringify(row.raw));
  }
  process.exit(0);
}
