/**
 * `merchant-sandbox logs`: the request log of a running sandbox (a real server on port 0, in
 * process), one line per request, oldest first, or JSON lines; `--follow` prints new requests as they
 * come until stopped; keys from flags or the environment; a clear message and exit 1 when the sandbox
 * refuses, cannot be reached, or has its log off. The command itself, with SIGINT, through the CLI.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { formatRequest, logs, parseLogsArgs, type LogsOptions } from "../../src/cli/logs.js";
import { DEMO_LOG } from "../../src/http/demo-examples.js";
import { payoutBody } from "../client.js";
import { DEMO_KEYS, REPO_ROOT, runCli, signUpAtStart, startFromArgs, stopServers, until, type ServerMerchant } from "../helpers.js";

afterEach(stopServers);

/** The requests the demo merchant's sample activity logs at start. */
const SAMPLE_REQUESTS = DEMO_LOG.length;

/** The demo merchant, by its keys alone. */
const DEMO: ServerMerchant = { id: "mch_demo", keys: { ...DEMO_KEYS }, call: () => Promise.reject(new Error("unused")) };

/** A sandbox with a merchant whose log holds a payout (201), a refused payout (422) and a status read. */
async function withTraffic(args: string[] = []) {
  const s = await startFromArgs(args);
  const m = await signUpAtStart(s.url, { wallet_balance: 1_000_000 });
  expect((await m.call("POST", "/api/v1/payout/transfer", { body: payoutBody({ reference: "cli-1" }) })).status).toBe(201);
  expect((await m.call("POST", "/api/v1/payout/transfer", { body: payoutBody({ amount: 1.005 }) })).status).toBe(422);
  expect((await m.call("GET", "/api/v1/payout/status?reference=cli-1")).status).toBe(200);
  return { s, m };
}

const optionsFor = (url: string, m: ServerMerchant, over: Partial<LogsOptions> = {}): LogsOptions => ({
  url,
  key: m.keys["x-api-key"],
  secret: m.keys["x-api-secret"],
  follow: false,
  json: false,
  interval: 0.05,
  filters: {},
  ...over,
});

/** Runs `logs` with its output collected. */
function run(o: LogsOptions, signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const done = logs(o, { out: (l) => out.push(l), err: (l) => err.push(l), signal });
  return { out, err, done };
}

describe("merchant-sandbox logs", () => {
  it("prints the log oldest first, one line per request: seq, time, method, path, status and error code, latency, request id", async () => {
    const { s, m } = await withTraffic();
    const { out, err, done } = run(optionsFor(s.url, m));
    expect(await done).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^#1 {2}2026-03-02T09:00:00\.000Z {2}POST {3}\/api\/v1\/payout\/transfer {2}201 {2}[\d.]+ ms {2}[0-9a-f-]{36}$/);
    expect(out[1]).toMatch(/^#2 .* POST {3}\/api\/v1\/payout\/transfer {2}422 VALIDATION_ERROR {2}/);
    expect(out[2]).toMatch(/^#3 .* GET {4}\/api\/v1\/payout\/status\?reference=cli-1 {2}200 {2}/);
  });

  it("--json prints one JSON object per line, the list's fields; filters narrow it", async () => {
    const { s, m } = await withTraffic();
    const all = run(optionsFor(s.url, m, { json: true }));
    expect(await all.done).toBe(0);
    const items = all.out.map((l) => JSON.parse(l));
    expect(items.map((i) => [i.seq, i.status, i.error_code, i.operation])).toEqual([
      [1, 201, null, "createPayout"],
      [2, 422, "VALIDATION_ERROR", "createPayout"],
      [3, 200, null, "getPayoutStatus"],
    ]);
    const listed = await m.call("GET", "/sandbox/v1/requests?after=0");
    expect(items).toEqual(listed.body.data);

    const refusals = run(optionsFor(s.url, m, { filters: { status: "4xx" } }));
    expect(await refusals.done).toBe(0);
    expect(refusals.out.map((l) => l.split(" ")[0])).toEqual(["#2"]);
  });

  it("pages through a log longer than one page", async () => {
    const s = await startFromArgs([]);
    const m = await signUpAtStart(s.url);
    for (let i = 0; i < 105; i++) await m.call("GET", "/api/v1/wallet/balance");
    const { out, done } = run(optionsFor(s.url, m));
    expect(await done).toBe(0);
    expect(out.map((l) => Number(l.split(" ")[0]!.slice(1)))).toEqual(Array.from({ length: 105 }, (_, i) => i + 1));
  });

  it("--follow prints new requests as they come, through a clear, until stopped", async () => {
    const { s, m } = await withTraffic();
    const stop = new AbortController();
    const { out, err, done } = run(optionsFor(s.url, m, { follow: true }), stop.signal);
    await until(() => out.length === 3, "the log so far");
    await m.call("GET", "/api/v1/wallet/balance");
    await until(() => out.length === 4, "the new request");
    expect(out[3]).toMatch(/^#4 .* GET {4}\/api\/v1\/wallet\/balance {2}200 /);
    expect((await m.call("DELETE", "/sandbox/v1/requests")).status).toBe(200);
    await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 500 } });
    await until(() => out.length === 5, "the request after the clear");
    expect(out[4]).toMatch(/^#5 .* POST {3}\/api\/v1\/vtu\/airtime {2}200 /);
    stop.abort();
    expect(await done).toBe(0);
    expect(err).toEqual([`merchant-sandbox logs: waiting for new requests to ${s.url} (Ctrl-C to stop)`]);
  });

  it("--follow rides out a restart of the sandbox: says it lost it, then follows the new log from its start", async () => {
    const first = await startFromArgs([]);
    const port = new URL(first.url).port;
    await fetch(`${first.url}/api/v1/wallet/balance`, { headers: DEMO_KEYS }); // the request after the demo's sample activity
    const stop = new AbortController();
    const { out, err, done } = run(optionsFor(first.url, DEMO, { follow: true }), stop.signal);
    await until(() => out.length === SAMPLE_REQUESTS + 1, "the first sandbox's log");
    await first.close();
    await until(() => err.some((l) => l.includes("still trying")), "the lost sandbox noticed");
    await startFromArgs(["--port", port]);
    await until(() => out.length === 2 * SAMPLE_REQUESTS + 1, "the new sandbox's log, from its start");
    stop.abort();
    expect(await done).toBe(0);
    expect(out.slice(SAMPLE_REQUESTS + 1).map((l) => l.split(" ")[0])).toEqual(Array.from({ length: SAMPLE_REQUESTS }, (_, i) => `#${i + 1}`));
    expect(err).toEqual([
      `merchant-sandbox logs: waiting for new requests to ${first.url} (Ctrl-C to stop)`,
      expect.stringMatching(/cannot reach the sandbox at .*; still trying$/),
      expect.stringContaining("the sandbox was restarted and its log is new"),
      expect.stringContaining("reached the sandbox at"),
    ]);
  });

  it("a reset connection shows as reset", () => {
    const line = formatRequest({
      seq: 9, request_id: "r", method: "POST", path: "/api/v1/payout/transfer", query: "", operation: "createPayout", status: null, error_code: null,
      latency_ms: 3.5, client_ip: "127.0.0.1", at: "2026-03-02T09:00:00.000Z", wall_at: "2026-03-02T09:00:00.000Z", delivery: "connection_reset", objects: [], events: [], sample: false,
    });
    expect(line).toBe("#9  2026-03-02T09:00:00.000Z  POST   /api/v1/payout/transfer  reset  3.5 ms  r");
  });

  it("the demo's sample activity is labelled as such", async () => {
    const s = await startFromArgs([]);
    const { out, done } = run(optionsFor(s.url, DEMO));
    expect(await done).toBe(0);
    expect(out).toHaveLength(SAMPLE_REQUESTS);
    for (const line of out) expect(line).toMatch(/ {2}\(sample\)$/);
  });

  it("exits 1 with a clear message on wrong keys, an unreachable sandbox, or a log turned off", async () => {
    const { s, m } = await withTraffic();
    const wrong = run({ ...optionsFor(s.url, m), secret: "sk_wrong" });
    expect(await wrong.done).toBe(1);
    expect(wrong.err.join("\n")).toMatch(/refused to list the request log \(INVALID_CREDENTIALS: /);

    const gone = await startFromArgs([]);
    const url = gone.url;
    await gone.close();
    const down = run(optionsFor(url, m));
    expect(await down.done).toBe(1);
    expect(down.err.join("\n")).toMatch(/cannot reach the sandbox at http:\/\/127\.0\.0\.1:\d+ .*is it running\?/);

    const off = await startFromArgs(["--request-log", "0"]);
    const offMerchant = await signUpAtStart(off.url);
    const quiet = run(optionsFor(off.url, offMerchant));
    expect(await quiet.done).toBe(1);
    expect(quiet.err.join("\n")).toContain("--request-log 0");
  });
});

describe("its arguments", () => {
  it("takes the keys and URL from flags or the environment, flags first; refuses what it cannot use", () => {
    const env = { MERCHANT_SANDBOX_API_KEY: "pk_env", MERCHANT_SANDBOX_API_SECRET: "sk_env", MERCHANT_SANDBOX_URL: "http://sandbox.test:4010/" };
    expect(parseLogsArgs([], env)).toEqual({
      options: { url: "http://sandbox.test:4010", key: "pk_env", secret: "sk_env", follow: false, json: false, interval: 1, filters: {} },
    });
    expect(parseLogsArgs(["-f", "--json", "--key", "pk_flag", "--url", "http://127.0.0.1:5000", "--status", "5xx", "--error-code", "GATEWAY_TIMEOUT"], env)).toMatchObject({
      options: { url: "http://127.0.0.1:5000", key: "pk_flag", secret: "sk_env", follow: true, json: true, filters: { status: "5xx", error_code: "GATEWAY_TIMEOUT" } },
    });
    expect(parseLogsArgs([], {})).toEqual({ error: expect.stringContaining("MERCHANT_SANDBOX_API_KEY") });
    expect(parseLogsArgs(["--interval", "0"], env)).toEqual({ error: expect.stringContaining("--interval") });
    expect(parseLogsArgs(["--url", "sandbox:4010"], env)).toEqual({ error: expect.stringContaining("--url") });
    expect(parseLogsArgs(["--tail"], env)).toEqual({ error: expect.stringContaining("--tail") });
  });
});

describe("the command", () => {
  it("logs --help prints its usage; without keys it exits 2 and says which", async () => {
    const help = await runCli(["logs", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--follow");
    const keyless = await runCli(["logs", "--url", "http://127.0.0.1:9"]);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain("--key and --secret");
  }, 30_000);

  it("logs --follow tails a running sandbox and stops on SIGINT with exit 0", async () => {
    const { s, m } = await withTraffic();
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "logs", "--follow", "--interval", "0.05", "--url", s.url], {
      cwd: REPO_ROOT,
      env: { ...process.env, MERCHANT_SANDBOX_API_KEY: m.keys["x-api-key"], MERCHANT_SANDBOX_API_SECRET: m.keys["x-api-secret"] },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    try {
      await until(() => stdout.split("\n").length > 3, "the log so far", 20_000);
      await m.call("GET", "/api/v1/wallet/balance");
      await until(() => stdout.includes("#4 "), "the new request", 10_000);
      process.kill(-child.pid!, "SIGINT");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    }
    expect(stdout.trim().split("\n").map((l) => l.split(" ")[0])).toEqual(["#1", "#2", "#3", "#4"]);
  }, 30_000);
});
