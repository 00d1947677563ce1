#!/usr/bin/env node
// The payout-to-webhook flow a new user runs first, end to end against a started sandbox: start,
// /health, a name enquiry then a payout with the demo keys the banner prints, the merchant's clock
// advanced through the control API until the payout completes, and its payout.completed webhook
// (captured by the sandbox: the demo merchant has no webhook_url) checked against its signature.
// CI runs it on each supported Node line, and test/install runs it under Node 22 and 24.
//
//   node tools/smoke.mjs                    starts this checkout's dist/cli.mjs with this Node
//   node tools/smoke.mjs -- CMD ARGS...     starts CMD ARGS instead (say: npx merchant-sandbox start --port 0)
//
// Plain JavaScript with Node's own modules only, so it runs wherever the CLI does, before or without
// an install of this repository's dependencies. Exits 0 when every step passed, 1 otherwise.
import { spawn } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { fileURLToPath } from "node:url";

const START_TIMEOUT_MS = 90_000;
// The account the README's first payout uses: GTBank, a valid NUBAN that the name enquiry resolves.
const ACCOUNT = { bank_code: "058", account_number: "0123456785", bank_name: "Guaranty Trust Bank" };
// Longer than a payout takes to settle on the demo merchant; the clock moves by this at most.
const ADVANCE_BY = "1m";

let output = "";
const separator = process.argv.indexOf("--");
const command =
  separator >= 0
    ? process.argv.slice(separator + 1)
    : [process.execPath, fileURLToPath(new URL("../dist/cli.mjs", import.meta.url)), "start", "--port", "0"];
if (command.length === 0) fail("nothing to start after --");

// The sandbox's defaults, whatever this shell sets: the in-memory demo merchant on 127.0.0.1.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("MERCHANT_SANDBOX_")));
// Detached: its own process group, so a wrapper such as npx (which forwards no signal) stops with it.
const child = spawn(command[0], command.slice(1), { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
// Never left running: this script ending any way (a failed step, a closed stdout) ends the sandbox too.
process.once("exit", () => child.exitCode === null && child.signalCode === null && signalGroup("SIGKILL"));
child.stdout.on("data", (d) => (output += d));
child.stderr.on("data", (d) => (output += d));
const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
child.once("error", (err) => fail(`could not start ${command.join(" ")}: ${err.message}`));

try {
  const banner = await started();
  step(`sandbox started at ${banner.url} (this script on Node ${process.version})`);
  const call = api(banner);

  const health = await fetch(`${banner.url}/health`);
  expect(health.status === 200, `GET /health answered ${health.status}`);
  step("GET /health: 200");

  const enquiry = await call("POST", "/api/v1/payout/verify-account", { bank_code: ACCOUNT.bank_code, account_number: ACCOUNT.account_number });
  const name = enquiry.data?.account_name;
  expect(typeof name === "string" && name.length > 0, `verify-account gave no account_name: ${JSON.stringify(enquiry)}`);
  step(`name enquiry: ${name}`);

  const reference = `smoke-${Date.now()}`;
  const payout = await call("POST", "/api/v1/payout/transfer", {
    amount: 5000,
    ...ACCOUNT,
    account_name: name,
    reference,
    narration: "Smoke test payout",
  });
  expect(payout.data?.status === "processing", `the payout is ${payout.data?.status}, not processing: ${JSON.stringify(payout)}`);
  step(`payout ${reference}: processing`);

  const advanced = await call("POST", "/sandbox/v1/clock/advance", { by: ADVANCE_BY });
  const status = (await call("GET", `/api/v1/payout/status?reference=${encodeURIComponent(reference)}`)).data?.status;
  expect(status === "completed", `after advancing the clock ${ADVANCE_BY} (to ${advanced.data?.now}) the payout is ${status}, not completed`);
  step(`clock advanced ${ADVANCE_BY}: payout completed`);

  const deliveries = (await call("GET", "/sandbox/v1/webhook-deliveries")).data ?? [];
  const delivery = deliveries.find((d) => d.event_type === "payout.completed" && JSON.parse(d.request_body).data?.reference === reference);
  expect(delivery, `no payout.completed delivery for ${reference} among ${deliveries.length} deliveries`);
  expect(delivery.status_code >= 200 && delivery.status_code < 300, `the delivery was answered ${delivery.status_code}`);
  // Checked as a receiver would, with Node's crypto: HMAC-SHA256 of the raw body, lowercase hex.
  const signature = String(delivery.request_headers["x-webhook-signature"] ?? "");
  const expected = createHmac("sha256", banner.webhookSecret).update(delivery.request_body).digest("hex");
  expect(signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected)), `the signature ${signature} does not verify with the banner's webhook secret`);
  step("payout.completed webhook delivered, signature verified");

  // A wrapper such as npx ends by the signal itself; the sandbox under it exits 0.
  const code = await stop();
  expect(code === 0 || code === "SIGTERM", `on SIGTERM the sandbox ended with ${code}`);
  step(`stopped on SIGTERM (${code === 0 ? "exit 0" : "its wrapper ended by the signal"})`);
  console.log("smoke: passed");
} catch (err) {
  await stop();
  fail(err instanceof Error ? err.message : String(err));
}

/** Resolves with the URL and demo keys once the banner is out; rejects on exit or timeout. */
function started() {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const look = () => {
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key = /X-Api-Key:\s+(\S+)/.exec(output)?.[1];
      const secret = /X-Api-Secret:\s+(\S+)/.exec(output)?.[1];
      const webhookSecret = /Webhook secret:\s+(\S+)\n/.exec(output)?.[1];
      if (url && key && secret && webhookSecret) {
        clearTimeout(timer);
        resolve({ url, key, secret, webhookSecret });
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before it was ready`));
    });
  });
}

/** JSON calls as the demo merchant; a non-2xx answer throws with its body. */
function api({ url, key, secret }) {
  return async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { "X-Api-Key": key, "X-Api-Secret": secret, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text);
  };
}

/** SIGTERM to the process group (SIGKILL after 10 s); resolves with the exit code, or the signal that ended it. */
async function stop() {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return child.exitCode ?? child.signalCode;
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

function signalGroup(name) {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, name);
  } catch {
    // gone already
  }
}

function step(text) {
  console.log(`smoke: ${text}`);
}

function expect(ok, message) {
  if (!ok) throw new Error(message);
}

function fail(message) {
  console.error(`smoke: FAILED: ${message}`);
  if (output) console.error(`--- the sandbox's output ---\n${output.trimEnd()}`);
  process.exit(1);
}
