/**
 * The reference webhook receivers of examples/webhook-receivers/, started as each file's header says (a
 * Node file, or `php -S` with the PHP router), each in its own process group so that a test stops it
 * and everything it started. Node takes port 0; `php -S` cannot, so ports of 20000-32000 are tried
 * until one binds (never the ephemeral range 32768-60999, where the OS hands out port 0's).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedAfterEach, REPO_ROOT } from "../helpers.js";
import { startServerProcess, type StartedServer } from "./processes.js";

export const RECEIVERS = "examples/webhook-receivers";

export interface RunningReceiver {
  /** Where deliveries go (POST). */
  url: string;
  /** The receiver's records view (GET). */
  recordsUrl: string;
  process: StartedServer;
  /** A folder of its own (the PHP receiver's store), removed once it has stopped. */
  folder?: string;
}

export interface ReceiverEnv {
  WEBHOOK_SECRET: string;
  WEBHOOK_ALGORITHM?: string;
  WEBHOOK_ENCODING?: string;
  SLOW_SECONDS?: string;
}

const running = (server: StartedServer, origin: string, folder?: string): RunningReceiver => ({
  url: `${origin}/webhooks`,
  recordsUrl: `${origin}/credited`,
  process: server,
  folder,
});

/** A Node receiver of the examples (`receiver.mjs`, `broken-slow.mjs`...) on port 0. */
export async function startNodeReceiver(file: string, env: ReceiverEnv): Promise<RunningReceiver> {
  const server = await startServerProcess(process.execPath, [join(RECEIVERS, file)], { cwd: REPO_ROOT, env: { ...env, HOST: "127.0.0.1", PORT: "0" } });
  return running(server, new URL(server.url).origin);
}

const PHP_PORTS = { from: 20_000, to: 32_000 };

/** The PHP receiver under `php -S`, on the first free port of PHP_PORTS tried, with a store file of its own. */
export async function startPhpReceiver(env: ReceiverEnv): Promise<RunningReceiver> {
  const folder = mkdtempSync(join(tmpdir(), "msb-php-receiver-"));
  let last: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = PHP_PORTS.from + Math.floor(Math.random() * (PHP_PORTS.to - PHP_PORTS.from));
    try {
      const php = await startServerProcess("php", ["-S", `127.0.0.1:${port}`, join(RECEIVERS, "receiver.php")], {
        cwd: REPO_ROOT,
        env: { ...env, RECEIVER_STORE: join(folder, "store.json") },
        listening: /Development Server \((http:\/\/\S+)\) started/,
        timeoutMs: 10_000,
      });
      return running(php, php.url, folder);
    } catch (err) {
      last = err; // most likely the port was taken: try another
    }
  }
  rmSync(folder, { recursive: true, force: true });
  throw new Error(`php -S found no free port: ${(last as Error).message}`);
}

/** Receivers each stopped (their whole process group) after their test. Call at a test file's top level. */
export function referenceReceivers(): <R extends RunningReceiver>(receiver: R) => R {
  return closedAfterEach(async (r: RunningReceiver) => {
    await r.process.stop(2_000);
    if (r.folder) rmSync(r.folder, { recursive: true, force: true });
  });
}
