// What the answer a sandbox GET must send costs bare Hono itself (issue 17): bare Hono's GET beside the
// same app answering, step by step, the way the sandbox's GET /api/v1/wallet/balance answers (its body
// with an ISO time, an async handler, the X-Request-Id, Content-Security-Policy and
// X-Content-Type-Options headers every answer carries), each in a process of its own, in alternating
// bursts. The last row is the ceiling of the GET's ratio to bare Hono before auth, the request log or
// any lookup. The POST rows do the same for the payout and the airtime purchase: bare Hono reading the
// request's JSON body and answering 201 with the body those routes answer, with the same headers: the
// ceiling of a POST's ratio before auth, validation, the domain or the request log.
//
//   node bench/response-shape.mjs [--rounds 5] [--burst 2]        (needs `npm install --prefix bench`)
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AIRTIME, arg, burst, PAYOUT, rotate, spawnServer, spread, waitOk } from "./measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(arg("--rounds", 5));
const BURST = Number(arg("--burst", 2));

/** Each variant's handler, as source for a server process of its own (cumulative). */
const BODY = `JSON.stringify({ success: true, data: { balance: 100000000000, currency: "NGN", updated_at: new Date().toISOString() } })`;
const HEADERS = `{ "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "content-type": "application/json", "x-content-type-options": "nosniff", "x-request-id": crypto.randomUUID() }`;
// The answers of a payout and an airtime purchase, as the sandbox sends them (the times made per request).
const PAYOUT_ANSWER = `JSON.stringify({ success: true, message: "Transfer is processing", data: { reference: "PAYOUT_" + crypto.randomUUID().slice(0, 21), amount: 5000, fee: 25, total_deducted: 5025, net_amount: 5000, order_no: "PO_V1StGXR8_Z5jdHi6B-myT", transaction_id: "PO_V1StGXR8_Z5jdHi6B-myT", status: "processing", account: "****0018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", narration: null, created_at: new Date().toISOString() } })`;
const AIRTIME_ANSWER = `JSON.stringify({ success: true, message: "Airtime purchase successful", data: { transaction_id: "VTU_" + crypto.randomUUID().slice(0, 21), reference: null, service: "airtime", network: "mtn", phone: "08031234567", amount: 100, fee: 0, total_deducted: 100, status: "completed", created_at: new Date().toISOString() } })`;
const posting = (answer) => `async (c) => { if (c.req.method === "GET") return c.text("ready"); const body = await c.req.json(); if (typeof body !== "object") throw new Error("no body"); return new Response(${answer}, { status: 201, headers: ${HEADERS} }); }`;
const VARIANTS = [
  ["bare Hono's GET (bench/baseline.mjs)", null],
  ["+ the balance body (an ISO time), a Response object", `(c) => new Response(${BODY}, { headers: { "content-type": "application/json" } })`],
  ["+ an async handler", `async (c) => new Response(${BODY}, { headers: { "content-type": "application/json" } })`],
  ["+ the request id, CSP and nosniff headers", `async (c) => new Response(${BODY}, { headers: ${HEADERS} })`],
  ["bare Hono's POST: the payout's body read, its 201 answer with those headers", posting(PAYOUT_ANSWER), PAYOUT],
  ["bare Hono's POST: the airtime body read, its 201 answer with those headers", posting(AIRTIME_ANSWER), AIRTIME],
];

const serverSource = (handler) => `
import { serve } from "@hono/node-server";
import { Hono } from "hono";
const app = new Hono().all("*", ${handler});
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.argv[1]) }, () => console.log("listening"));
`;

let nextPort = 20600 + Math.floor(Math.random() * 100);
const servers = await Promise.all(
  VARIANTS.map(async ([name, handler, body]) => {
    const port = nextPort++;
    const server = handler
      ? spawnServer(process.execPath, ["--input-type=module", "-e", serverSource(handler), String(port)], { cwd: HERE })
      : spawnServer(process.execPath, [join(HERE, "baseline.mjs"), String(port)], { cwd: HERE });
    await waitOk(`http://127.0.0.1:${port}/`);
    const request = body
      ? { url: `http://127.0.0.1:${port}/api/v1/payout/transfer`, method: "POST", headers: { "content-type": "application/json" }, body }
      : { url: `http://127.0.0.1:${port}/api/v1/wallet/balance` };
    return { name, server, request, cpu: [], ratio: [] };
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
