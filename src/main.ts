#!/usr/bin/env node
/** CLI: `merchant-sandbox [start] [flags]`. Parses settings here, never at import time. */
import { startBanner } from "./cli/banner.js";
import { DEFAULT_LISTEN_PORT, LISTEN_USAGE, listen, parseListenArgs } from "./cli/listen.js";
import { CHECK_USAGE, check, parseCheckArgs } from "./cli/check.js";
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { drainSecondsOf, parseSettings, settingsHelp } from "./config.js";
import { readScenarioFile } from "./scenarios/load.js";
import { formatReport, runScenario } from "./cli/run-scenario.js";
import { doctorCommand } from "./cli/doctor.js";
import { LOGS_USAGE, logs, parseLogsArgs } from "./cli/logs.js";
import { startServer } from "./server.js";
import { packageVersion } from "./cli/version.js";

/** Made when asked for: every setting's help, with its default, is not a start's business. */
const usage = () => `merchant-sandbox: a high-fidelity sandbox of the Merchant Payments Service

Usage: merchant-sandbox start [options]
       merchant-sandbox run FILE...                         (run scenario steps; exit 1 on failure)
       merchant-sandbox listen [--port ${DEFAULT_LISTEN_PORT}] [--secret S]   (a local webhook receiver)
       merchant-sandbox check [--url U] [--key K] [--secret S] [--json]
                                                            (grade an integration; exit 1 on an error)
       merchant-sandbox doctor --endpoint URL --secret S    (grade a webhook receiver; exit 1 on a failed case)
       merchant-sandbox logs [--follow] [--json]            (a merchant's request log; --key, --secret, --url)
       merchant-sandbox --version                           (the installed version)

Options (flag, environment variable, meaning):
${settingsHelp()}
  --help                                        Show this help
`;

const STOP_DEADLINE_MS = 5_000;

/** Resolves to an exit code, or to `undefined` while the server keeps the process alive. */
async function main(argv: string[]): Promise<number | undefined> {
  const [command = "start", ...rest] = argv;
  const help = (args: string[]) => args.includes("--help") || args.includes("-h");
  if (command === "listen") return runListen(rest, help(rest));
  if (command === "run") return runScenarios(rest, help(rest));
  if (command === "check") return runCheck(rest, help(rest));
  if (command === "doctor") return doctorCommand(rest, process.env, (t) => process.stdout.write(t), (t) => process.stderr.write(t));
  if (command === "logs") return runLogs(rest, help(rest));
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (command === "--help" || command === "-h" || help(rest)) {
    process.stdout.write(usage());
    return 0;
  }
  if (command !== "start") {
    process.stderr.write(`unknown command: ${command}\n\n${usage()}`);
    return 2;
  }
  const parsed = parseSettings(rest, process.env, (path) => readFileSync(path, "utf8"));
  if ("error" in parsed) {
    process.stderr.write(`merchant-sandbox: ${parsed.error}\n`);
    return 2;
  }
  // Last resort: the sandbox catches its background work itself (a failure is recorded on its
  // merchant); anything that still escapes is logged, and the other merchants go on being served.
  process.on("unhandledRejection", (err) => console.error("[merchant-sandbox] unexpected error (please report it):", err));
  process.on("uncaughtException", (err) => console.error("[merchant-sandbox] unexpected error (please report it):", err));
  const sandbox = await startServer(parsed.settings);
  // No allocation-site pretenuring once serving, in the sandbox's own process (never in one that embeds
  // the package). Under load V8 may start allocating a site's objects straight in the old generation,
  // for instance the request log's entries, which the log keeps for a few hundred requests; each dropped
  // entry then keeps the young objects it points to alive through the remembered set, so every scavenge
  // promotes about 1.7 MB that dies soon after. Measured (bench/FAST-PATH.md, bench/profile.mjs): with
  // it, some processes settled at 35-45 µs of CPU per authenticated GET and others at 25; without it
  // every one settled at 25, and a payout went from 131-140 µs to 109-115. Set after the start, whose
  // long-lived objects pretenuring does help (turned off from the first line, the start took ~16 ms
  // more); V8 reads the flag at each scavenge. The CLI's loader (tools/cli-loader.mjs) writes V8's code
  // cache on STARTED when it needs one: before the flag, which V8 counts in the cache's check (a cache
  // made after it was refused at every start).
  (process as NodeJS.EventEmitter).emit(STARTED);
  setFlagsFromString("--no-allocation-site-pretenuring");
  // Graceful stop: no new connections, webhook requests in flight cut, pending writes flushed, then
  // exit; never longer than STOP_DEADLINE_MS. Armed before the banner: a supervisor may send SIGTERM
  // as soon as it reads "listening on".
  // A node of a cluster drains first (it keeps answering while /health says so): that time comes on top.
  const deadline = STOP_DEADLINE_MS + drainSecondsOf(parsed.settings) * 1000;
  const stop = () => {
    setTimeout(() => {
      process.stderr.write(`merchant-sandbox: did not stop within ${deadline / 1000} s; exiting anyway\n`);
      process.exit(1);
    }, deadline).unref();
    void sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`merchant-sandbox: stopping failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.write(startBanner(sandbox, parsed.settings.data));
  return undefined;
}

/** Emitted on `process` once `start` is up (tools/cli-loader.mjs listens for it). */
const STARTED = "merchant-sandbox:started";

async function runScenarios(files: string[], help: boolean): Promise<number> {
  if (files.length === 0 || help) {
    process.stdout.write("Usage: merchant-sandbox run scenarios/*.yaml\n\nLoads each scenario into a fresh in-process sandbox, runs its steps and prints pass/fail per step.\n");
    return files.length === 0 ? 2 : 0;
  }
  let failed = 0;
  for (const file of files) {
    try {
      const report = await runScenario(readScenarioFile(file), file);
      process.stdout.write(formatReport(report) + "\n");
      if (!report.ok) failed++;
    } catch (err) {
      process.stdout.write(`FAIL ${file}\n  ${(err as Error).message}\n`);
      failed++;
    }
  }
  process.stdout.write(`\n${files.length - failed} scenario(s) passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

/**
 * A subcommand's options from its arguments, or the exit code once it has printed its usage (--help: 0)
 * or what is wrong with them (2).
 */
function optionsOr<T>(
  name: string,
  usage: string,
  argv: string[],
  help: boolean,
  parse: (argv: string[], env: NodeJS.ProcessEnv) => { options: T } | { error: string },
): { options: T } | { exit: number } {
  if (help) {
    process.stdout.write(usage);
    return { exit: 0 };
  }
  const parsed = parse(argv, process.env);
  if ("error" in parsed) {
    process.stderr.write(`merchant-sandbox ${name}: ${parsed.error}\n\n${usage}`);
    return { exit: 2 };
  }
  return parsed;
}

async function runListen(argv: string[], help: boolean): Promise<number | undefined> {
  const parsed = optionsOr("listen", LISTEN_USAGE, argv, help, parseListenArgs);
  if ("exit" in parsed) return parsed.exit;
  const started = await listen(parsed.options).catch((err: Error) => err);
  if (started instanceof Error) {
    process.stderr.write(`merchant-sandbox listen: ${started.message}\n`);
    return 1;
  }
  const { url, server } = started;
  process.stdout.write(`Listening for webhooks on ${url} (any path); signatures ${parsed.options.secret ? "checked" : "not checked: pass --secret"}\n`);
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return undefined;
}

async function runCheck(argv: string[], help: boolean): Promise<number> {
  const parsed = optionsOr("check", CHECK_USAGE, argv, help, parseCheckArgs);
  if ("exit" in parsed) return parsed.exit;
  return check(parsed.options, (text) => process.stdout.write(text), (text) => process.stderr.write(text));
}

// The request log from the command line.
async function runLogs(argv: string[], help: boolean): Promise<number> {
  const parsed = optionsOr("logs", LOGS_USAGE, argv, help, parseLogsArgs);
  if ("exit" in parsed) return parsed.exit;
  const stop = new AbortController();
  const end = () => stop.abort();
  process.once("SIGINT", end);
  process.once("SIGTERM", end);
  try {
    return await logs(parsed.options, {
      out: (line) => process.stdout.write(line + "\n"),
      err: (line) => process.stderr.write(line + "\n"),
      signal: stop.signal,
    });
  } finally {
    process.off("SIGINT", end);
    process.off("SIGTERM", end);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`merchant-sandbox: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
