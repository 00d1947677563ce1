/**
 * `npm ci` failed with npm 10, the npm of stock Node 20 and 22 and of the
 * node:20-slim image (`Missing: typescript@5.9.3 from lock file`, an optional peer that npm 11 leaves
 * out of the lockfile). No Docker engine runs here, so this test runs the Dockerfile itself, stage by
 * stage, with npm 10 on the PATH: its COPY lines (from this checkout, or from the build stage), its
 * npm commands, its ENV, then its ENTRYPOINT + CMD, its HEALTHCHECK, and the README's `--scenario`
 * run. The build stage's `npm ci` (with `prepare`, the build) is also the Quick start's first step.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess } from "../support/processes.js";

const root = mkdtempSync(join(tmpdir(), "msb-docker-"));
// Removing a whole node_modules can take longer than the default 10 s hook time on a busy machine.
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(" ") };
    });
}

/** `A=1 B="x y"` -> { A: "1", B: "x y" } */
function envPairs(args: string): Record<string, string> {
  return Object.fromEntries([...args.matchAll(/(\w+)=("([^"]*)"|\S+)/g)].map((m) => [m[1]!, m[3] ?? m[2]!]));
}

describe("the Dockerfile with npm 10 (node:20-slim's npm)", () => {
  it("builds, installs the runtime stage, starts, passes its HEALTHCHECK and loads a bundled scenario", async () => {
    // npm 10 on the PATH, as in the image.
    const npm10 = join(root, "npm10");
    execFileSync("npm", ["install", "--prefix", npm10, "npm@10", "--no-audit", "--no-fund", "--loglevel=error"], { stdio: "ignore" });
    // The image's own npm cache, as in a container: the Dockerfile's `npm cache clean --force` must
    // not touch (and race with) this machine's cache.
    const env = {
      ...process.env,
      PATH: `${join(npm10, "node_modules", ".bin")}:${process.env.PATH}`,
      npm_config_update_notifier: "false",
      npm_config_cache: join(root, "npm-cache"),
    };
    expect(execFileSync("npm", ["--version"], { env, encoding: "utf8" })).toMatch(/^10\./);

    const stages = new Map<string, string>();
    let dir = "";
    let imageEnv: Record<string, string> = {};
    let entrypoint: string[] = [];
    let cmd: string[] = [];
    let healthcheck = "";
    const skipped: string[] = [];
    for (const { op, args } of instructions(readFileSync("Dockerfile", "utf8"))) {
      if (op === "FROM") {
        expect(args).toMatch(/^node:20-slim\b/);
        dir = join(root, `stage-${stages.size}`);
        mkdirSync(dir);
        stages.set(/\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.size), dir);
        imageEnv = {};
      } else if (op === "WORKDIR") {
        expect(args).toBe("/app");
      } else if (op === "ENV") {
        Object.assign(imageEnv, envPairs(args));
      } else if (op === "COPY") {
        const parts = args.split(/\s+/);
        const from = parts[0]!.startsWith("--from=") ? stages.get(parts.shift()!.slice("--from=".length)) : undefined;
        const dest = join(dir, parts.pop()!);
        for (const src of parts) {
          const source = from ? join(from, src.replace(/^\/app\/?/, "")) : src;
          cpSync(source, dest.endsWith("/") ? join(dest, src.split("/").pop()!) : dest, { recursive: true });
        }
      } else if (op === "RUN") {
        if (!args.startsWith("npm ")) {
          skipped.push(args);
          continue;
        }
        const run = spawnSync("sh", ["-c", args], { cwd: dir, env, encoding: "utf8", timeout: 240_000 });
        expect(run.status, `RUN ${args}\n${run.stdout}\n${run.stderr}`).toBe(0);
      } else if (op === "ENTRYPOINT") {
        entrypoint = JSON.parse(args);
      } else if (op === "CMD") {
        cmd = JSON.parse(args);
      } else if (op === "HEALTHCHECK") {
        healthcheck = args.replace(/^.*?\bCMD\s+/, "");
      }
    }
    // Only the /data folder's ownership is left to Docker.
    expect(skipped).toEqual(["mkdir -p /data && chown node:node /data"]);
    expect(entrypoint).toEqual(["node", "dist/cli.mjs"]);

    const runtime = dir;
    const data = join(root, "data");
    const serverEnv = { ...imageEnv, MERCHANT_SANDBOX_HOST: "127.0.0.1", MERCHANT_SANDBOX_PORT: "0", MERCHANT_SANDBOX_DATA: data };
    const [command, ...base] = entrypoint;
    const server = await startServerProcess(command === "node" ? process.execPath : command!, [...base, ...cmd], { cwd: runtime, env: serverEnv, ready: "Webhook secret" });
    try {
      const port = new URL(server.url).port;
      const health = spawnSync("sh", ["-c", healthcheck.replace(":4010", `:${port}`)], { cwd: runtime, encoding: "utf8" });
      expect(health.status, health.stderr).toBe(0);
      const docs = await fetch(`${server.url}/docs/scalar.js`);
      expect(docs.status).toBe(200);
      const balance = await fetch(`${server.url}/api/v1/wallet/balance`, {
        headers: { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" },
      });
      expect(balance.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // The README's `docker run ... start --scenario /scenarios/05-payout-completed.yaml`, in memory.
    const withScenario = await startServerProcess(process.execPath, [...base, "start", "--scenario", "scenarios/05-payout-completed.yaml"], {
      cwd: runtime,
      env: { ...serverEnv, MERCHANT_SANDBOX_DATA: "" },
      ready: 'merchant "shop"',
    });
    expect(await withScenario.stop()).toBe(0);
  }, 300_000);
});
