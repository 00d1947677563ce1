/**
 * `logs --status 4xx` with no match printed nothing and exited 0, and `logs --follow` said nothing
 * while it waited: an empty terminal either way. Now stderr says "no requests match" (naming the
 * filters) or that it is waiting; stdout carries only requests, so `--json` stays JSON lines.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT, runProcess, signUpAtStart, startFromArgs, stopServers, until } from "../helpers.js";

afterEach(stopServers);

/** A sandbox whose merchant made two successful requests (no 4xx, no 5xx), and that merchant's keys as flags. */
async function quietMerchant() {
  const s = await startFromArgs([]);
  const m = await signUpAtStart(s.url);
  for (let i = 0; i < 2; i++) expect((await m.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
  return { s, m, flags: ["--url", s.url, "--key", m.keys["x-api-key"], "--secret", m.keys["x-api-secret"]] };
}

const logs = (args: string[]) => runProcess(process.execPath, ["dist/cli.mjs", "logs", ...args], { timeoutMs: 30_000 });

describe("logs that find nothing", () => {
  it("filters that match nothing: one line on stderr naming them and the log's size, exit 0; --json keeps stdout empty", async () => {
    const { flags } = await quietMerchant();
    for (const json of [[], ["--json"]]) {
      const run = await logs([...flags, "--status", "4xx", "--path", "/api/v1/payout", ...json]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe("merchant-sandbox logs: no requests match --status 4xx --path /api/v1/payout (the log holds 2 request(s))\n");
    }
  }, 30_000);

  it("an empty log says so", async () => {
    const s = await startFromArgs([]);
    const m = await signUpAtStart(s.url);
    const run = await logs(["--url", s.url, "--key", m.keys["x-api-key"], "--secret", m.keys["x-api-secret"]]);
    expect(run).toEqual({ code: 0, stdout: "", stderr: "merchant-sandbox logs: no requests in the log yet\n" });
  }, 30_000);

  it("--follow says on stderr that it waits, with the filters; stdout gets the requests only", async () => {
    const { s, m, flags } = await quietMerchant();
    const child = spawn(process.execPath, ["dist/cli.mjs", "logs", ...flags, "--follow", "--json", "--status", "4xx", "--interval", "0.05"], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    try {
      await until(() => stderr.includes("\n"), "the waiting line", 20_000);
      expect(stderr).toBe(`merchant-sandbox logs: waiting for new requests to ${s.url} matching --status 4xx (Ctrl-C to stop)\n`);
      expect((await m.call("GET", "/api/v1/payout/status?reference=none")).status).toBe(404);
      await until(() => stdout.includes("\n"), "the refused request", 10_000);
      expect(JSON.parse(stdout)).toMatchObject({ seq: 3, status: 404 });
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 30_000);
});
