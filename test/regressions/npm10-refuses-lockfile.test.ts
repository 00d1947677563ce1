/**
 * `npm ci` failed with npm 10, the npm that stock Node 20 and 22 ship (`Missing: typescript@5.9.3 from
 * lock file`, an optional peer that npm 11 leaves out of the lockfile). Two checks follow from it:
 *
 * - npm 10 accepts the lockfile: `npm ci --dry-run` checks it against package.json before it installs
 *   anything, as a clone's `npm ci` on Node 20 or 22 (and CI's jobs on those lines) does.
 * - The Docker image is on node:24-slim, whose npm is 11. No Docker engine runs here, so the Dockerfile
 *   is run stage by stage with that image's Node and npm on the PATH (Node 24 fetched from the npm
 *   registry): its COPY lines (from this checkout, less what .dockerignore leaves out, or from the build
 *   stage), its npm commands, its ENV, then its ENTRYPOINT + CMD, its HEALTHCHECK, and a bundled scenario.
 *   The build stage's `npm ci` (with `prepare`, the build) is also the Quick start's first step.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../helpers.js";
import { nodeReleaseOrSkip } from "../install/node-release.js";
import { startServerProcess } from "../support/processes.js";

/** The image the Dockerfile builds on, and the Node and npm it ships. */
const IMAGE = { from: "node:24-slim", node: 24, npm: 11 } as const;

const root = mkdtempSync(join(tmpdir(), "msb-docker-"));
// Removing a whole node_modules can take longer than the default 10 s hook time on a busy machine.
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

/** Own npm settings: no update notice, and a cache of its own (the Dockerfile cleans its cache). */
const npmEnv = (cache: string) => ({ ...process.env, npm_config_update_notifier: "false", npm_config_cache: cache });

describe("the lockfile with npm 10 (stock Node 20 and 22)", () => {
  it("is accepted by npm ci", () => {
    const dir = join(root, "lockfile");
    mkdirSync(dir);
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { link?: boolean; resolved?: string }> };
    // package.json and the lockfile, and the package.json of each local package the lockfile links (tools/ts5).
    const linked = Object.values(lock.packages).flatMap((p) => (p.link && p.resolved ? [join(p.resolved, "package.json")] : []));
    for (const file of ["package.json", "package-lock.json", ...linked]) cpSync(file, join(dir, file));
    const ci = spawnSync("npx", ["-y", "npm@10", "ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: npmEnv(join(root, "npm10-cache")),
      encoding: "utf8",
      timeout: 180_000,
    });
    expect(ci.status, `${ci.stdout}\n${ci.stderr}`).toBe(0);
  }, 200_000);
});

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

/**
 * Whether .dockerignore leaves `path` (relative to the checkout) out of the build context. Its patterns
 * are plain names (at the top) and `**\/name` (at any depth), plus `*.log`.
 */
function ignoredByDocker(path: string): boolean {
  const patterns = readFileSync(".dockerignore", "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const parts = path.split("/");
  return patterns.some((p) => {
    if (p.startsWith("**/")) return parts.includes(p.slice(3));
    if (p.startsWith("*.")) return parts.length === 1 && path.endsWith(p.slice(1));
    return parts[0] === p;
  });
}

describe(`the Dockerfile with ${IMAGE.from}'s Node ${IMAGE.node} and npm ${IMAGE.npm}`, () => {
  it("builds, installs the runtime stage, starts, passes its HEALTHCHECK and loads a bundled scenario", async (ctx) => {
    const node = await nodeReleaseOrSkip(IMAGE.node, ctx);
    if (!node) return;
    // The image's npm on the PATH, run by the image's Node (npm's `#!/usr/bin/env node` finds it first).
    const npmDir = join(root, `npm${IMAGE.npm}`);
    execFileSync("npm", ["install", "--prefix", npmDir, `npm@${IMAGE.npm}`, "--no-audit", "--no-fund", "--loglevel=error"], { stdio: "ignore" });
    const env = { ...npmEnv(join(root, "npm-cache")), PATH: `${dirname(node)}:${join(npmDir, "node_modules", ".bin")}:${process.env.PATH}` };
    expect(execFileSync("node", ["--version"], { env, encoding: "utf8" })).toMatch(new RegExp(`^v${IMAGE.node}\\.`));
    expect(execFileSync("npm", ["--version"], { env, encoding: "utf8" })).toMatch(new RegExp(`^${IMAGE.npm}\\.`));

    const stages = new Map<string, string>();
    let dir = "";
    let imageEnv: Record<string, string> = {};
    let entrypoint: string[] = [];
    let cmd: string[] = [];
    let healthcheck = "";
    const skipped: string[] = [];
    for (const { op, args } of instructions(readFileSync("Dockerfile", "utf8"))) {
      if (op === "FROM") {
        // `--platform=$BUILDPLATFORM` aside: this machine is the builder and the target alike.
        expect(args.replace(/^--platform=\S+\s+/, "")).toMatch(new RegExp(`^${IMAGE.from}\\b`));
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
          const filter = from ? undefined : (path: string) => !ignoredByDocker(relative(".", path));
          cpSync(source, dest.endsWith("/") ? join(dest, src.split("/").pop()!) : dest, { recursive: true, filter });
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
    const serverEnv = { ...imageEnv, PATH: env.PATH, MERCHANT_SANDBOX_HOST: "127.0.0.1", MERCHANT_SANDBOX_PORT: "0", MERCHANT_SANDBOX_DATA: data };
    const [command, ...base] = entrypoint;
    const server = await startServerProcess(command === "node" ? node : command!, [...base, ...cmd], { cwd: runtime, env: serverEnv, ready: "Webhook secret" });
    try {
      const port = new URL(server.url).port;
      const health = spawnSync("sh", ["-c", healthcheck.replace(":4010", `:${port}`)], { cwd: runtime, env, encoding: "utf8" });
      expect(health.status, health.stderr).toBe(0);
      const docs = await fetch(`${server.url}/docs/scalar.js`);
      expect(docs.status).toBe(200);
      const balance = await fetch(`${server.url}/api/v1/wallet/balance`, { headers: DEMO_KEYS });
      expect(balance.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // `docker run ... start --scenario /app/scenarios/05-payout-completed.yaml`, in memory.
    const withScenario = await startServerProcess(node, [...base, "start", "--scenario", "scenarios/05-payout-completed.yaml"], {
      cwd: runtime,
      env: { ...serverEnv, MERCHANT_SANDBOX_DATA: "" },
      ready: 'merchant "shop"',
    });
    expect(await withScenario.stop()).toBe(0);
  }, 400_000);
});
