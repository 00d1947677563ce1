/**
 * docs/reference/cli.md: every command and option as the CLI prints them. The subcommands' usage texts
 * are imported; `merchant-sandbox --help` and `run --help` live in src/main.ts, which runs the CLI when
 * imported, so they are read from the CLI itself.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHECK_USAGE } from "../../../src/cli/check.js";
import { DOCTOR_USAGE } from "../../../src/cli/doctor.js";
import { LISTEN_USAGE } from "../../../src/cli/listen.js";
import { LOGS_USAGE } from "../../../src/cli/logs.js";
import { REPO_ROOT } from "../repo-root.js";
import { fenced, spokenSeconds, type ReferencePage } from "../markdown.js";

/** What `merchant-sandbox ARGS` prints on stdout, run from the source. */
function printed(...args: string[]): string {
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts", ...args], { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  if (run.status !== 0) throw new Error(`merchant-sandbox ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/**
 * A numeric constant of src/main.ts, read from its text: main.ts cannot be imported without running
 * the CLI. Fails loudly when the constant is renamed or no longer a plain number.
 */
export function mainConstant(name: string): number {
  const match = new RegExp(`^const ${name} = ([\\d_]+);$`, "m").exec(readFileSync(join(REPO_ROOT, "src/main.ts"), "utf8"));
  if (!match) throw new Error(`src/main.ts no longer declares ${name} as a number: update tools/docs/pages/cli.ts`);
  return Number(match[1]!.replaceAll("_", ""));
}

/** How long a stop may take before the process exits anyway. */
export const stopDeadlineSeconds = () => mainConstant("STOP_DEADLINE_MS") / 1000;

export function cliPage(): ReferencePage {
  const help = printed("--help");
  const [overview = "", options = ""] = help.split(/\n(?=Options)/);
  return {
    name: "cli.md",
    sources: ["src/main.ts", "src/cli/check.ts", "src/cli/doctor.ts", "src/cli/listen.ts", "src/cli/logs.ts"],
    body: `
# CLI

The package installs one command, \`merchant-sandbox\` (\`npx merchant-sandbox ...\` in a project that has it;
\`node dist/cli.mjs ...\` or \`npx tsx src/main.ts ...\` in a checkout). Every command takes \`--help\` (or \`-h\`).
Bad usage exits 2.

${fenced(overview.trim())}

## start

\`merchant-sandbox start [options]\` (also with no arguments at all; \`npm start\` in a checkout) runs the server.
Its options are the [start settings](configuration.md#start-settings); \`--help\` lists them:

${fenced(options.trim())}

It prints a banner with the base URL and the OpenAPI URL, the data folder (or "in memory"), and each demo
and scenario merchant's keys, webhook secret and clock mode, saying whether each was made now or restored
from \`--data\`. A port already in use, a host that is not this machine's, or a data folder it cannot write
to stop the start with a message that names the way out.

SIGTERM and SIGINT stop it gracefully: no new connections, webhook requests in flight cut, pending writes
flushed, then exit, within ${spokenSeconds(stopDeadlineSeconds())} whatever is in flight.

## run

${fenced(printed("run", "--help").trim())}

Each file runs in a fresh in-process sandbox. It prints ✓ or ✗ per step, with a diff, and exits 1 if any
step fails, so it works as a CI check. In this mode a merchant's \`webhook_capture: { fail_first: N }\` is a
real local receiver that fails the first N deliveries, and \`expect_webhook\` checks real, signed deliveries.
The file format: [Scenario format](scenario-format.md).

## listen

${fenced(LISTEN_USAGE.trim())}

A receiver for developers who have none yet: nothing to install or deploy to see the sandbox's webhooks arrive.

## check

${fenced(CHECK_USAGE.trim())}

The rules it reports: [Integration checks](integration-checks.md). The scorecard shows the fired rules with their evidence.

## doctor

${fenced(DOCTOR_USAGE.trim())}

No sandbox needs to be running. The cases and the scorecard: [Webhook doctor](webhook-doctor.md).

## logs

${fenced(LOGS_USAGE.trim())}

Wrong keys, a sandbox it cannot reach, or a log turned off (\`--request-log 0\`) exit 1 with the reason;
\`--follow\` rides out a restart of the sandbox and says so.

## --version

\`merchant-sandbox --version\` (or \`-v\`) prints the installed version.
`,
  };
}
