/** The real HTTP server and CLI: ephemeral ports only, every process stopped by its test. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { parseSettings } from "../src/config.js";
import { startServer, type RunningSandbox } from "../src/server.js";

const DEMO = { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" };
let running: RunningSandbox | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start() {
  const parsed = parseSettings(["--port", "0"], {});
  if ("error" in parsed) throw new Error(parsed.error);
  running = await startServer(parsed.settings);
  return running;
}

describe("HTTP server", () => {
  it("serves the demo merchant on 127.0.0.1 and reads the client IP from the socket", async () => {
    const s = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${s.url}/api/v1/wallet/balance`, { headers: DEMO });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.currency).toBe("NGN");

    const create = async (allow: string[]) => {
      const r = await fetch(`${s.url}/sandbox/v1/merchants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ip_allowlist: allow }) });
      const { data } = (await r.json()) as any;
      return { "x-api-key": data.api_key, "x-api-secret": data.api_secret };
    };
    const local = await create(["127.0.0.1"]);
    const remote = await create(["10.0.0.1"]);
    expect((await fetch(`${s.url}/api/v1/wallet/balance`, { headers: local })).status).toBe(200);
    const blocked = await fetch(`${s.url}/api/v1/wallet/balance`, { headers: { ...remote, "x-forwarded-for": "10.0.0.1" } });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as any).error_code).toBe("IP_NOT_WHITELISTED");
  });

  it("refuses a streamed body over 1 MB with 413 in the envelope", async () => {
    const s = await start();
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
      headers: { ...DEMO, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error_code: "PAYLOAD_TOO_LARGE" });
  });
});

describe("CLI", () => {
  it("`start --port 0` prints the URL and demo keys, serves, and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const banner = new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("Webhook secret")) resolve(out);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const text = await banner;
    expect(text).toContain("X-Api-Key:      pk_test_demo_4b1f0c9e7a2d46d1");
    expect(text).toContain("X-Api-Secret:   sk_test_demo_9f3e2a7c5b8d4e61a0c2");
    expect(text).toContain("Webhook secret: whsec_demo_2c7e9a1f4b6d8e03");
    const url = /listening on (http:\/\/\S+)/.exec(text)![1]!;
    expect((await fetch(`${url}/api/v1/wallet/balance`, { headers: DEMO })).status).toBe(200);
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("rejects a bad setting with a message naming the flag and the env variable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "abc"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(err).toContain("--port / MERCHANT_SANDBOX_PORT");
  });

  it("settings come from env MERCHANT_SANDBOX_* and flags win", () => {
    const env = { MERCHANT_SANDBOX_PORT: "5123", MERCHANT_SANDBOX_TRUST_PROXY: "true", MERCHANT_SANDBOX_HOST: "0.0.0.0" };
    const defaults = { scenario: [], shared: false, max_merchants: 20_000, snapshot_limit_mb: 5 };
    expect(parseSettings([], env)).toEqual({ settings: { ...defaults, host: "0.0.0.0", port: 5123, trust_proxy: true } });
    expect(parseSettings(["--port", "4999"], env)).toEqual({ settings: { ...defaults, host: "0.0.0.0", port: 4999, trust_proxy: true } });
    expect(parseSettings([], {})).toEqual({ settings: { ...defaults, host: "127.0.0.1", port: 4010, trust_proxy: false } });
    expect(parseSettings(["--nope"], {})).toHaveProperty("error");
  });
});

describe("start --scenario and --config", () => {
  it("loads a scenario at boot; its merchant and objects are there", async () => {
    const { mkdtempSync, writeFileSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "msb-scn-"));
    const file = join(dir, "boot.yaml");
    writeFileSync(file, readFileSync("scenarios/01-virtual-account-funding.yaml", "utf8").replace("webhook_capture: {}", "webhook_url: null"));
    const parsed = parseSettings(["--port", "0", "--scenario", file], {});
    if ("error" in parsed) throw new Error(parsed.error);
    const s = (running = await startServer(parsed.settings));
    expect(s.scenarioMerchants.map((m) => m.alias)).toEqual(["shop"]);
    const { api_key, api_secret } = s.scenarioMerchants[0]!.tenant.config;
    const res = await fetch(`${s.url}/api/v1/virtual-accounts`, { headers: { "x-api-key": api_key, "x-api-secret": api_secret } });
    expect(((await res.json()) as any).data).toHaveLength(1);
  });

  it("reads a YAML or JSON config file, below env and flags", () => {
    const files: Record<string, string> = { "sandbox.yaml": "port: 5001\nhost: 0.0.0.0\nseed: abc\n", "bad.yaml": "colour: blue\n" };
    const read = (path: string) => {
      if (!(path in files)) throw new Error(`ENOENT ${path}`);
      return files[path]!;
    };
    expect(parseSettings(["--config", "sandbox.yaml"], {}, read)).toEqual({
      settings: { host: "0.0.0.0", port: 5001, seed: "abc", trust_proxy: false, scenario: [], shared: false, max_merchants: 20_000, snapshot_limit_mb: 5 },
    });
    expect(parseSettings(["--config", "sandbox.yaml", "--port", "6000"], { MERCHANT_SANDBOX_SEED: "env" }, read)).toMatchObject({
      settings: { port: 6000, seed: "env" },
    });
    expect(parseSettings([], { MERCHANT_SANDBOX_CONFIG: "bad.yaml" }, read)).toEqual({ error: expect.stringContaining('unknown setting "colour"') });
    expect(parseSettings(["--config", "missing.yaml"], {}, read)).toEqual({ error: expect.stringContaining("missing.yaml cannot be read") });
    expect(parseSettings([], { MERCHANT_SANDBOX_SCENARIO: "a.yaml, b.yaml" })).toMatchObject({ settings: { scenario: ["a.yaml", "b.yaml"] } });
  });

  it("--help of each command", async () => {
    const help = async (...args: string[]) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      const [code] = await once(child, "exit");
      return { code, out };
    };
    const main = await help("--help");
    expect(main.code).toBe(0);
    for (const text of ["merchant-sandbox start", "merchant-sandbox run", "merchant-sandbox listen", "--data", "--scenario", "--config"]) expect(main.out).toContain(text);
    expect((await help("listen", "--help")).out).toContain("--secret");
    expect((await help("run", "--help")).out).toContain("scenarios/*.yaml");
  });
});
