// Cold start alone, as `npm run bench` measures it (bench/measure.mjs `coldStarts`): spawn to the first
// 200 of the demo merchant's authenticated `GET /api/v1/wallet/balance`, beside bare Hono's first 200,
// every contender once per round in a rotated order; each ratio is taken against bare Hono of the same round.
//
//   node bench/cold-start.mjs [--rounds 15] [--cli dist/cli.mjs] [--cli /tmp/base/dist/cli.mjs ...]
//
// Each --cli is a built sandbox (default: this checkout's); several compare builds side by side.
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { arg, cliArgs, coldStarts, DEMO, spread } from "./measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const ROUNDS = Number(arg("--rounds", 15));
const clis = cliArgs(join(ROOT, "dist/cli.mjs"));
// Below this machine's ephemeral range (32768-60999), apart per process.
let nextPort = 21100 + (process.pid % 50) * 100;

const contenders = await coldStarts(
  [
    { name: "bare Hono", cmd: process.execPath, args: (p) => [join(HERE, "baseline.mjs"), String(p)], path: "/" },
    ...clis.map((cli, i) => ({
      name: `merchant-sandbox${clis.length > 1 ? ` [${i}]` : ""}`,
      cmd: process.execPath,
      args: (p) => [cli, "start", "--port", String(p)],
      path: "/api/v1/wallet/balance",
      headers: DEMO,
    })),
  ],
  { rounds: ROUNDS, port: () => nextPort++, cwd: ROOT },
);

const [bare] = contenders;
const ms = (x) => Math.round(x);
console.log(`\n${ROUNDS} rounds, order rotated; ratio per round against bare Hono of the same round`);
clis.forEach((cli, i) => console.log(`[${i}] ${cli}`));
console.log("| Server | median (ms) | Q1-Q3 (ms) | ratio to bare Hono, median (Q1-Q3) | CPU at first 200 (ms) |");
console.log("|---|---:|---:|---:|---:|");
for (const c of contenders) {
  if (c.failed) {
    console.log(`| ${c.name} | failed: ${c.failed} | | | |`);
    continue;
  }
  const t = spread(c.ms);
  const r = spread(c.ms.map((v, round) => v / bare.ms[round]));
  console.log(`| ${c.name} | ${ms(t.median)} | ${ms(t.q1)}-${ms(t.q3)} | ${r.median.toFixed(2)} (${r.q1.toFixed(2)}-${r.q3.toFixed(2)}) | ${ms(spread(c.cpuMs).median)} |`);
}
