/**
 * Child processes for install and CLI tests: a server started from a command line (detached, so the
 * whole process group can be stopped: wrappers such as npx do not forward signals), and the size of
 * an installed tree.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface StartedServer {
  url: string;
  output: () => string;
  /** SIGTERM to the group; resolves with the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL to the group at once, as a crash would end it (no shutdown code runs); resolves once it has exited. */
  kill(): Promise<void>;
}

/**
 * Spawns `command args` and resolves once it prints "listening on http://..." and `ready` (if given).
 * `listening` replaces that pattern (its first group is the URL), for servers that say it otherwise
 * (`php -S` prints "Development Server (http://...) started"); stderr counts as much as stdout.
 */
export function startServerProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; ready?: string; timeoutMs?: number; listening?: RegExp },
): Promise<StartedServer> {
  const child: ChildProcess = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async (graceMs = 10_000): Promise<number | null> => {
    if (ended()) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    process.kill(-child.pid!, "SIGTERM");
    const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), graceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const kill = async (): Promise<void> => {
    if (ended()) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone already: its exit event is on the way
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(0);
      reject(new Error(`no "listening on" within ${opts.timeoutMs ?? 30_000} ms:\n${out}`));
    }, opts.timeoutMs ?? 30_000);
    const check = () => {
      const m = (opts.listening ?? /listening on (http:\/\/\S+)/).exec(out);
      if (m && (!opts.ready || out.includes(opts.ready))) {
        clearTimeout(timer);
        resolve({ url: m[1]!, output: () => out, stop, kill });
      }
    };
    child.stdout!.on("data", (d: Buffer) => ((out += d.toString()), check()));
    child.stderr!.on("data", (d: Buffer) => ((out += d.toString()), check()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening:\n${out}`));
    });
  });
}

/** Total size in bytes of the files under `dir` (what a user downloads and stores). */
export function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/**
 * Starts the built CLI (dist/cli.mjs) with `preload` (an ES module's source) loaded first through
 * --import, asks for the demo merchant's balance (200) and stops it (exit 0); what it printed, for
 * the caller to look for what the preload reported (with process._rawDebug: it reaches the output).
 */
export async function builtCliOutputWith(preload: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "msb-preload-"));
  try {
    const file = join(dir, "preload.mjs");
    writeFileSync(file, preload);
    const server = await startServerProcess(process.execPath, ["--import", pathToFileURL(file).href, "dist/cli.mjs", "start", "--port", "0"], { cwd: process.cwd() });
    let status: number | undefined;
    try {
      status = (await fetch(`${server.url}/api/v1/wallet/balance`, { headers: { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" } })).status;
    } finally {
      const code = await server.stop();
      if (status !== 200 || code !== 0) throw new Error(`the built CLI answered ${status} and exited ${code}:\n${server.output()}`);
    }
    return server.output();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
