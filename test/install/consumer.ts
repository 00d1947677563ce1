/**
 * The package as a user gets it, for the install tests: this working tree packed as npm publishes it,
 * installed into an empty project of the user's, then run there with tools/smoke.mjs (start, a payout,
 * the clock, the verified webhook) and with the testing helper as the docs use it.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { repoFile } from "../helpers.js";

const run = promisify(execFile);

/** Quiet npm: no update notice, audit or funding lines in a test's output. */
const NPM_QUIET = ["--no-audit", "--no-fund", "--loglevel=error"];

/**
 * `npm pack` of the working tree into `dir`; resolves the tarball's path. The build is the caller's
 * (`npm test` builds first): scripts are skipped so that packing never rebuilds dist/ under the
 * tests running beside it.
 */
export function packTarball(dir: string): string {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir, "--loglevel=error"], { cwd: repoFile("."), encoding: "utf8" }),
  ) as Array<{ filename: string }>;
  return join(dir, packed!.filename);
}

/** An empty project of a user's in `dir`/app: a package.json and nothing else. */
export function consumerProject(dir: string): string {
  const app = join(dir, "app");
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), '{ "name": "consumer", "private": true }\n');
  return app;
}

/** `npm install ARGS` in `app`; throws with npm's output when it fails. */
export async function npmInstall(app: string, args: string[], timeoutMs = 240_000): Promise<void> {
  await run("npm", ["install", ...NPM_QUIET, ...args], { cwd: app, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
}

/**
 * This working tree packed and installed into a new user project under `dir`, with `flag` (`-D` as a
 * project's dev dependency, `--omit=dev` as npx installs it); resolves the project's folder.
 */
export async function installPacked(dir: string, flag: "-D" | "--omit=dev"): Promise<string> {
  const app = consumerProject(dir);
  await npmInstall(app, [flag, packTarball(dir)]);
  return app;
}

/**
 * For a test file: the packed package installed with `flag` into a new project before its tests, and
 * removed after them. Read `.app` (the project's folder) inside tests.
 */
export function usePackedInstall(flag: "-D" | "--omit=dev"): { readonly app: string } {
  const dir = mkdtempSync(join(tmpdir(), "msb-consumer-"));
  const ctx = { app: "" };
  beforeAll(async () => {
    ctx.app = await installPacked(dir, flag);
  }, 300_000);
  // Removing a whole node_modules can take longer than the default 10 s hook time on a busy machine.
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);
  return ctx;
}

/**
 * tools/smoke.mjs run by `node` (this Node unless given) from `cwd`, starting `command`; resolves with
 * its exit code and output (it exits 0 once every step passed).
 */
export function runSmoke(cwd: string, command: string[], node = process.execPath): Promise<Ran> {
  return ran(node, [repoFile("tools/smoke.mjs"), "--", ...command], { cwd, timeout: 150_000 });
}

/**
 * The testing helper as the docs show it, in a node:test file of the user's project: an isolated
 * sandbox, a payout, the clock advanced, the signed payout.completed webhook; and the main export's
 * verifyWebhookSignature on that webhook's raw body. Run with `node --test`; resolves with its exit
 * code and output.
 */
export function runHelperTest(app: string): Promise<Ran> {
  const file = join(app, "payout.test.mjs");
  writeFileSync(
    file,
    `import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { verifyWebhookSignature } from "merchant-sandbox";
import { startSandbox } from "merchant-sandbox/testing";

let sandbox;
before(async () => {
  sandbox = await startSandbox({ merchant: { wallet_balance: 50000 } });
});
after(() => sandbox.close());

test("a payout completes and its webhook is signed", async () => {
  const enquiry = await sandbox.request("POST", "/api/v1/payout/verify-account", { bank_code: "058", account_number: "0123456785" });
  const payout = await sandbox.request("POST", "/api/v1/payout/transfer", {
    amount: 5000, bank_code: "058", account_number: "0123456785", account_name: enquiry.body.data.account_name,
    bank_name: "Guaranty Trust Bank", reference: "refund-1001",
  });
  assert.equal(payout.body.data.status, "processing");
  await sandbox.advance("1m");
  const hook = await sandbox.nextWebhook({ type: "payout.completed" });
  assert.equal(hook.verified, true);
  assert.equal(hook.data.reference, "refund-1001");
  assert.equal(verifyWebhookSignature(hook.raw, hook.signature, sandbox.merchant.webhookSecret), true);
});
`,
  );
  // TAP on every Node line (Node 24 reports in its spec format by default, terminal or not): "# pass 1".
  return ran(process.execPath, ["--test", "--test-reporter=tap", file], { cwd: app, timeout: 60_000 });
}

export interface Ran {
  /** The exit code; -1 when it did not exit by itself (a timeout, a signal). */
  code: number;
  output: string;
}

/** Runs a command to its end, never throwing: its exit code and everything it printed. */
async function ran(command: string, args: string[], opts: { cwd: string; timeout: number }): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(command, args, opts);
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}\n${e.message}` };
  }
}
