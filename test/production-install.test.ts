/**
 * What the Docker image runs, without Docker (no engine on these machines): the runtime stage's files
 * (package.json, lock, dist, fixtures, scenarios), `npm ci --omit=dev`, then the image's start command.
 * A runtime dependency left in devDependencies fails here.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "msb-prod-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("production-only install (the Docker runtime stage)", () => {
  it("starts with the image's command and serves the demo merchant", async () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    expect(dockerfile).toContain("npm ci --omit=dev --ignore-scripts");
    expect(dockerfile).toContain('ENTRYPOINT ["node", "dist/cli.mjs"]');
    for (const item of ["package.json", "package-lock.json", "dist", "fixtures", "scenarios"]) cpSync(item, join(dir, item), { recursive: true });
    execFileSync("npm", ["ci", "--omit=dev", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, stdio: "ignore" });

    const child = spawn(process.execPath, ["dist/cli.mjs", "start"], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: "production", MERCHANT_SANDBOX_HOST: "127.0.0.1", MERCHANT_SANDBOX_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    try {
      let out = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m && out.includes("Webhook secret")) resolve(m[1]!);
        });
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ success: true, status: "ok" });
      const balance = await fetch(`${url}/api/v1/wallet/balance`, {
        headers: { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" },
      });
      expect(balance.status).toBe(200);
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    }
  }, 180_000);
});
