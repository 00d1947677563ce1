/** The real HTTP server and CLI: ephemeral ports only, every process stopped by its test. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config.js";
import { closedAfterEach, configFiles, DEMO_KEYS, REPO_ROOT, runCli, signUpAt, startFromArgs, stopServers, tempDirs } from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";

const tempDir = tempDirs("msb-scn-");
afterEach(stopServers); // registered after tempDirs, so it runs first: servers stop before their folders go
const stopAfter = closedAfterEach((p: StartedServer) => p.stop());

describe("HTTP server", () => {
  it("serves the demo merchant on 127.0.0.1 and reads the client IP from the socket", async () => {
    const s = await startFromArgs([]);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${s.url}/api/v1/wallet/balance`, { headers: DEMO_KEYS });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.currency).toBe("NGN");

    const local = (await signUpAt(s.url, { ip_allowlist: ["127.0.0.1"] })).keys;
    const remote = (await signUpAt(s.url, { ip_allowlist: ["10.0.0.1"] })).keys;
    expect((await fetch(`${s.url}/api/v1/wallet/balance`, { headers: local })).status).toBe(200);
    const blocked = await fetch(`${s.url}/api/v1/wallet/balance`, { headers: { ...remote, "x-forwarded-for": "10.0.0.1" } });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as any).error_code).toBe("IP_NOT_WHITELISTED");
  });

  it("refuses a streamed body over 1 MB with 413 in the envelope", async () => {
    const s = await startFromArgs([]);
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${s.url}/api/v1/payout/transfer`, {
      method: "POST",
      headers: { ...DEMO_KEYS, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error_code: "PAYLOAD_TOO_LARGE" });
  });
});

describe("CLI", () => {
  it("`start --port 0` prints the URL and demo keys, serves, and stops cleanly on SIGTERM", async () => {
    const server = stopAfter(await startServerProcess(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "0"], { cwd: REPO_ROOT, ready: "Webhook secret" }));
    const text = server.output();
    expect(text).toContain(`X-Api-Key:      ${DEMO_KEYS["x-api-key"]}`);
    expect(text).toContain(`X-Api-Secret:   ${DEMO_KEYS["x-api-secret"]}`);
    expect(text).toContain("Webhook secret: whsec_demo_2c7e9a1f4b6d8e03");
    expect(server.url).toBe(/listening on (http:\/\/\S+)/.exec(text)![1]!);
    expect((await fetch(`${server.url}/api/v1/wallet/balance`, { headers: DEMO_KEYS })).status).toBe(200);
    expect(await server.stop()).toBe(0); // SIGTERM
  });

  it("rejects a bad setting with a message naming the flag and the env variable", async () => {
    const { code, stderr } = await runCli(["start", "--port", "abc"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--port / MERCHANT_SANDBOX_PORT");
  });

  it("settings come from env MERCHANT_SANDBOX_* and flags win", () => {
    const env = { MERCHANT_SANDBOX_PORT: "5123", MERCHANT_SANDBOX_TRUST_PROXY: "true", MERCHANT_SANDBOX_HOST: "0.0.0.0" };
    const defaults = { scenario: [], shared: false, max_merchants: 20_000, snapshot_limit_mb: 5, request_log: 500, log_budget_mb: 256, pg_pool_size: 10, pg_statement_timeout_ms: 5000 };
    expect(parseSettings([], env)).toEqual({ settings: { ...defaults, host: "0.0.0.0", port: 5123, trust_proxy: true } });
    expect(parseSettings(["--port", "4999"], env)).toEqual({ settings: { ...defaults, host: "0.0.0.0", port: 4999, trust_proxy: true } });
    expect(parseSettings([], {})).toEqual({ settings: { ...defaults, host: "127.0.0.1", port: 4010, trust_proxy: false } });
    expect(parseSettings(["--nope"], {})).toHaveProperty("error");
  });
});

describe("start --scenario and --config", () => {
  it("loads a scenario at boot; its merchant and objects are there", async () => {
    const file = join(await tempDir(), "boot.yaml");
    writeFileSync(file, readFileSync("scenarios/01-virtual-account-funding.yaml", "utf8").replace("webhook_capture: {}", "webhook_url: null"));
    const s = await startFromArgs(["--scenario", file]);
    expect(s.scenarioMerchants.map((m) => m.alias)).toEqual(["shop"]);
    const { api_key, api_secret } = s.scenarioMerchants[0]!.tenant.config;
    const res = await fetch(`${s.url}/api/v1/virtual-accounts`, { headers: { "x-api-key": api_key, "x-api-secret": api_secret } });
    expect(((await res.json()) as any).data).toHaveLength(1);
  });

  it("reads a YAML or JSON config file, below env and flags", () => {
    const read = configFiles({ "sandbox.yaml": "port: 5001\nhost: 0.0.0.0\nseed: abc\n", "bad.yaml": "colour: blue\n" });
    expect(parseSettings(["--config", "sandbox.yaml"], {}, read)).toEqual({
      settings: { host: "0.0.0.0", port: 5001, seed: "abc", trust_proxy: false, scenario: [], shared: false, max_merchants: 20_000, snapshot_limit_mb: 5, request_log: 500, log_budget_mb: 256, pg_pool_size: 10, pg_statement_timeout_ms: 5000 },
    });
    expect(parseSettings(["--config", "sandbox.yaml", "--port", "6000"], { MERCHANT_SANDBOX_SEED: "env" }, read)).toMatchObject({
      settings: { port: 6000, seed: "env" },
    });
    expect(parseSettings([], { MERCHANT_SANDBOX_CONFIG: "bad.yaml" }, read)).toEqual({ error: expect.stringContaining('unknown setting "colour"') });
    expect(parseSettings(["--config", "missing.yaml"], {}, read)).toEqual({ error: expect.stringContaining("missing.yaml cannot be read") });
    expect(parseSettings([], { MERCHANT_SANDBOX_SCENARIO: "a.yaml, b.yaml" })).toMatchObject({ settings: { scenario: ["a.yaml", "b.yaml"] } });
  });

  it("--help of each command", async () => {
    const main = await runCli(["--help"]);
    expect(main.code).toBe(0);
    for (const text of ["merchant-sandbox start", "merchant-sandbox run", "merchant-sandbox listen", "--data", "--scenario", "--config"]) expect(main.stdout).toContain(text);
    expect((await runCli(["listen", "--help"])).stdout).toContain("--secret");
    expect((await runCli(["run", "--help"])).stdout).toContain("scenarios/*.yaml");
  });
});
