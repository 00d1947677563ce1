// What the answer a sandbox GET must send costs bare Hono itself (issue 17): bare Hono's GET beside the
// same app answering, step by step, the way the sandbox's GET /api/v1/wallet/balance answers (its body
// with an ISO time, an async handler, the X-Request-Id, Content-Security-Policy and
// X-Content-Type-Options headers every answer carries), each in a process of its own, in alternating
// bursts. The last row is the ceiling of the GET's ratio to bare Hono before auth, the request log or
// any lookup.
//
//   node bench/response-shape.mjs [--rounds 5] [--burst 2]        (needs `npm install --prefix bench`)
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { arg, burst, rotate, spawnServer, spread, waitOk } from "./measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(arg("--rounds", 5));
const BURST = Number(arg("--burst", 2));

/** Each variant's handler, as source for a server process of its own (cumulative). */
const BODY = `JSON.stringify({ success: true, data: { balance: 100000000000, currency: "NGN", updated_at: new Date().toISOString() } })`;
const HEADERS = `{ "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "content-type": "application/json", "x-content-type-options": "nosniff", "x-request-id": crypto.randomUUID() }`;
const VARIANTS = [
  ["bare Hono's GET (bench/baseline.mjs)", null],
  ["+ the balance body (an ISO time), a Response object", `(c) => new Response(${BODY}, { headers: { "content-type": "application/json" } })`],
  ["+ an async handler", `async (c) => new Response(${BODY}, { headers: { "content-type": "application/json" } })`],
  ["+ the request id, CSP and nosniff headers", `async (c) => new Response(${BODY}, { headers: ${HEADERS} })`],
];

const serverSource = (handler) => `
import { serve } from "@hono/node-server";
import { Hono } from "hono";
const app = new Hono().get("*", ${handler});
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.argv[1]) }, () => console.log("listening"));
`;

let nextPort = 20600 + Math.floor(Math.random() * 100);
const servers = await Promise.all(
  VARIANTS.map(async ([name, handler]) => {
    const port = nextPort++;
    const server = handler
      ? spawnServer(process.execPath, ["--input-type=module", "-e", serverSource(handler), String(port)], { cwd: HERE })
      : spawnServer(process.execPath, [join(HERE, "baseline.mjs"), String(port)], { cwd: HERE });
    await waitOk(`http://127.0.0.1:${port}/`);
    return { name, server, request: { url: `http://127.0.0.1:${port}/api/v1/wallet/balance` }, cpu: [], ratio: [] };
  }),
);
process.on("exit", () => servers.forEach((s) => s.server.stop()));
for (const s of servers) await burst(s.server, s.request, 1);
for (let round = 0; round < ROUNDS; round++) {
  const rps = [];
  for (const i of rotate(servers.map((_, i) => i), round)) {
    const r = await burst(servers[i].server, servers[i].request, BURST);
    servers[i].cpu.push(r.cpuUsPerRequest);
    rps[i] = r.rps;
  }
  servers.forEach((s, i) => s.ratio.push(rps[i] / rps[0]));
}
console.log(`${ROUNDS} rounds of ${BURST} s bursts, 20 connections, alternating`);
console.log("| Server | CPU µs per request (median) | ceiling: bare Hono's CPU over this one |\n|---|---:|---:|");
const bare = spread(servers[0].cpu).median;
for (const s of servers) {
  const cpu = spread(s.cpu).median;
  console.log(`| ${s.name} | ${cpu.toFixed(1)} | ${(bare / cpu).toFixed(2)} |`);
}
process.exit(0);
