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
import { DEMO_KEYS } from "../helpers.js";

export interface StartedServer {
  url: string;
  /** The spawned process's id (the server itself when `command` is node, not a wrapper). */
  pid: number;
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
        resolve({ url: m[1]!, pid: child.pid!, output: () => out, stop, kill });
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
 * Starts a built CLI (`cli`, run with `nodeArgs` before it) from `cwd`, asks for the demo merchant's
 * balance, runs `whileUp` and stops it: the answer, the exit code and what it printed. Nothing is
 * asserted here: each caller checks what its test names.
 */
export async function askBuiltCli(opts: { cli?: string; cwd?: string; nodeArgs?: string[]; whileUp?: () => Promise<void> } = {}) {
  const cwd = opts.cwd ?? process.cwd();
  const server = await startServerProcess(process.execPath, [...(opts.nodeArgs ?? []), opts.cli ?? "dist/cli.mjs", "start", "--port", "0"], { cwd });
  let answer: { status: number; body: unknown } | undefined;
  let failure: unknown;
  try {
    const res = await fetch(`${server.url}/api/v1/wallet/balance`, { headers: DEMO_KEYS });
    answer = { status: res.status, body: (await res.json()) as unknown };
    await opts.whileUp?.();
  } catch (err) {
    failure = err;
  }
  const code = await server.stop();
  if (failure) throw failure;
  return { ...answer!, code, output: server.output() };
}

/**
 * The built CLI (dist/cli.mjs) started with `preload` (an ES module's source) loaded first through
 * --import, asked for the demo merchant's balance (200) and stopped (exit 0): what it printed, for the
 * caller to look for what the preload reported (with process._rawDebug: it reaches the output).
 */
export async function builtCliOutputWith(preload: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "msb-preload-"));
  try {
    const file = join(dir, "preload.mjs");
    writeFileSync(file, preload);
    const { status, code, output } = await askBuiltCli({ nodeArgs: ["--import", pathToFileURL(file).href] });
    if (status !== 200 || code !== 0) throw new Error(`the built CLI answered ${status} and exited ${code}:\n${output}`);
    return output;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
