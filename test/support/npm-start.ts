/**
 * The sandbox exactly as `npm start` serves it, for the tests that hold the docs to what is served:
 * the package's own `start` script (read from package.json, so the two cannot drift) run from the
 * repository in a user's environment (no MERCHANT_SANDBOX_* variables), so the demo merchant has its sample activity.
 *
 * - `startAsNpmStart()` spawns it (build first: it runs dist/cli.mjs). On the default port it listens
 *   where the docs' commands point: hold the port lock (`flock /tmp/port4010.lock`) around such a run.
 * - `servedDemo(url)` reads what the docs state about it: the demo merchant's balance and its objects.
 */
import { readFileSync } from "node:fs";
import { balanceAt, DEMO_KEYS, REPO_ROOT, repoFile, snapshotAt } from "../helpers.js";
import { startServerProcess, type StartedServer } from "./processes.js";

/** The command line of package.json's `start` script, as words (`node dist/cli.mjs start`). */
export function npmStartCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(repoFile("package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  return scripts.start!.split(/\s+/);
}

/**
 * A stock terminal's environment: no sandbox settings (the run takes every default, as a fresh shell
 * would), none of the test runner's variables (npm's, vitest's), and no NODE_EXTRA_CA_CERTS, which
 * this machine sets for its proxy and which costs every `node` start a tenth of a second. Spawn
 * leaves out a variable set to undefined.
 */
export function usersEnvironment(): NodeJS.ProcessEnv {
  const notAUsers = /^(MERCHANT_SANDBOX_|npm_|VITEST|NODE_ENV$|NODE_EXTRA_CA_CERTS$)/;
  return Object.fromEntries(Object.keys(process.env).map((name) => [name, notAUsers.test(name) ? undefined : process.env[name]]));
}

/**
 * `npm start`, spawned as its script says (with `node` this very Node), plus `args` (`["--port", "0"]`
 * for a run that needs no port lock); resolves once it listens. Stop it with `.stop()`.
 */
export function startAsNpmStart(args: string[] = []): Promise<StartedServer> {
  const [command, ...rest] = npmStartCommand();
  return startServerProcess(command === "node" ? process.execPath : command!, [...rest, ...args], {
    cwd: REPO_ROOT,
    env: usersEnvironment(),
  });
}

/** The demo merchant as a running sandbox serves it: its wallet balance (Naira) and its snapshot's records. */
export async function servedDemo(url: string): Promise<{ balance: number; snapshot: any }> {
  return { balance: await balanceAt(url, DEMO_KEYS), snapshot: await snapshotAt(url, DEMO_KEYS) };
}
