/**
 * Docs that run: every ```sh block of the README, of the tutorial and of each how-to page
 * runs as written, in order, copy-pasted into one bash, against a fresh `npm start` on the default
 * port: the demo merchant with its sample activity, default settings. Nothing is edited first, and the
 * tutorial passes twice against one server, so no reference is reused across runs.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultOf } from "../../src/config.js";
import { CHECKOUT_VALIDITY_MS, HOUR } from "../../src/domain/limits.js";
import { DEFAULTS } from "../../src/domain/merchant.js";
import { LATE_FAILURE_MS, PAYOUT_MAGIC, SLOW_RESPONSE_SECONDS } from "../../src/domain/outcomes.js";
import { DEFAULT_INBOUND_SETTLE_SECONDS } from "../../src/domain/va-payments.js";
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from "../../src/domain/webhook-policy.js";
import { SIGN_UP_CLOCK } from "../../src/sandbox/merchants/routes.js";
import { DEMO_KEYS } from "../helpers.js";
import { type StartedServer } from "../support/processes.js";
import { startAsNpmStart, usersEnvironment } from "../support/npm-start.js";
import { blockKind, pageScript, placeholders, RUNNER_STANDS_FOR, shellBlocks } from "./shell-blocks.js";

const TUTORIAL = "docs/getting-started.md";
const HOW_TOS = "docs/how-to";
const PORT = Number(defaultOf("port"));
/** Wall-clock budget of one page's blocks: the pages drive the clock, they never wait for it. */
const PAGE_TIMEOUT_MS = 60_000;

const pages = [
  "README.md",
  TUTORIAL,
  ...(existsSync(HOW_TOS) ? readdirSync(HOW_TOS).filter((f) => f.endsWith(".md")).sort().map((f) => `${HOW_TOS}/${f}`) : []),
];
const text = (page: string) => readFileSync(page, "utf8");

/**
 * Lines each page must print, besides exiting 0: what its prose says the reader will see. Pages
 * not listed are held to their exit status.
 */
const PRINTS: Record<string, RegExp[]> = {
  "README.md": [/^processing$/m, /^completed$/m, /^signature verified$/m],
  [TUTORIAL]: [/^EZE SEGUN FOLAKE\nprocessing$/m, /"fired":[1-9]/, /^completed$/m, /^signature verified\nsignature verified$/m],
  [`${HOW_TOS}/isolated-merchant-per-test.md`]: [/^manual$/m, /^50000$/m, /^INVALID_CREDENTIALS$/m],
  [`${HOW_TOS}/force-outcomes.md`]: [
    /^failed\nTransfer failed at the beneficiary bank$/m,
    /^processing\n0\nprocessing\n1\nfailed$/m,
    /^pending_approval\nfailed$/m,
    /^airtime Processing, then Failed$/m,
    /^APPROVED\nCARD_FUNDING_FAILED\n20\ndeclined\nInsufficient card balance$/m,
    /^1\nfailed\nAMOUNT_MISMATCH\npaid$/m,
  ],
  [`${HOW_TOS}/control-the-clock.md`]: [/^manual$/m, /^processing\n0\nprocessing\n1\ncompleted$/m, /^VALIDATION_ERROR$/m, /^realtime\n60\nprocessing\ncompleted\nmanual$/m],
  [`${HOW_TOS}/outages-and-ambiguous-answers.md`]: [
    /^BANK_UNAVAILABLE\n600$/m,
    /^GATEWAY_TIMEOUT$/m,
    /^curl exited (52|56)$/m,
    /^processing\nDUPLICATE_REFERENCE\nprocessing$/m,
    /^curl exited 28\nprocessing$/m,
    /^INTERNAL_ERROR\nprocessing\n79800$/m,
    /^processing\nprocessing\ncompleted$/m,
  ],
  [`${HOW_TOS}/check-your-integration.md`]: [/transfer-to-unverified-account/, /^check exited 1$/m, /ACCOUNT_NAME_MISMATCH/, /^pass$/m],
  [`${HOW_TOS}/receive-webhooks.md`]: [/^valid$/m, /signature: valid/, /9 of 9 passed/, /^doctor exit status 1$/m],
  [`${HOW_TOS}/scenarios-in-ci.md`]: [/2 scenario\(s\) passed, 0 failed/, /"balance":200000/],
  [`${HOW_TOS}/shared-team-instance.md`]: [/loopback name/, /^stopped$/m],
  [`${HOW_TOS}/save-and-restore-state.md`]: [/^NOT_FOUND$/m, /^completed$/m, /^7500$/m],
};

/**
 * Numbers the pages state in prose, each with the constant that enforces it: every match of the
 * pattern must give the value, and there must be one.
 */
const retryText = (seconds: readonly number[]) => seconds.map((s) => (s >= 3600 ? `${s / 3600} h` : `${s / 60} min`)).join(", ");
const STATED: [page: string, pattern: RegExp, value: string][] = [
  [TUTORIAL, /settles (\d+) seconds after it is made/g, String(DEFAULTS.delays.payout_settlement_seconds)],
  [TUTORIAL, /completes by itself (\d+) seconds from now/g, String(DEFAULTS.delays.payout_settlement_seconds)],
  [`${HOW_TOS}/control-the-clock.md`, /\| (\d+ s)[^|]*\| `delays\.payout_settlement_seconds`/g, `${DEFAULTS.delays.payout_settlement_seconds} s`],
  [`${HOW_TOS}/control-the-clock.md`, /\| (\d+ s)[^|]*\| `delays\.vtu_settlement_seconds`/g, `${DEFAULTS.delays.vtu_settlement_seconds} s`],
  [`${HOW_TOS}/control-the-clock.md`, /\| (\d+ s)[^|]*\| `delays\.kyc_approval_seconds`/g, `${DEFAULTS.delays.kyc_approval_seconds} s`],
  [`${HOW_TOS}/control-the-clock.md`, /A payment link expires \| (\d+) minutes/g, String(CHECKOUT_VALIDITY_MS / 60_000)],
  [`${HOW_TOS}/control-the-clock.md`, /virtual account ends \| (\d+) s/g, String(DEFAULT_INBOUND_SETTLE_SECONDS)],
  [`${HOW_TOS}/control-the-clock.md`, /attempt is retried \| ([^|]+?) \|/g, retryText(DEFAULT_RETRY_SCHEDULE_SECONDS)],
  [`${HOW_TOS}/force-outcomes.md`, /`0003` \| `processing` for (\d+) hours/g, String(LATE_FAILURE_MS / HOUR)],
  [`${HOW_TOS}/force-outcomes.md`, /A link\s+expires (\d+) minutes/g, String(CHECKOUT_VALIDITY_MS / 60_000)],
  [`${HOW_TOS}/force-outcomes.md`, /on the (\d+)rd status read/g, String(PAYOUT_MAGIC["0004"]!.queries)],
  [`${HOW_TOS}/outages-and-ambiguous-answers.md`, /`0007` holds it (\d+) seconds/g, String(SLOW_RESPONSE_SECONDS)],
  [`${HOW_TOS}/outages-and-ambiguous-answers.md`, /`0003` fails (\d+) hours/g, String(LATE_FAILURE_MS / HOUR)],
  [`${HOW_TOS}/outages-and-ambiguous-answers.md`, /until their (\d+)rd status read/g, String(PAYOUT_MAGIC["0004"]!.queries)],
];

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(true));
  });
}

async function freshSandbox(): Promise<StartedServer> {
  if (!(await portIsFree(PORT))) {
    throw new Error(`Port ${PORT} is busy: the docs run against a fresh \`npm start\` on its default port. Stop what listens on ${PORT} (another sandbox, or a test holding it) and run again.`);
  }
  const server = await startAsNpmStart();
  const health = await fetch(`${server.url}/health`);
  if (!health.ok) throw new Error(`/health answered ${health.status}`);
  return server;
}

/** Runs a page's blocks in one bash process group; the group (background helpers too) is ended after. */
async function runPage(page: string): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), "msb-docs-"));
  const script = join(dir, "page.sh");
  writeFileSync(script, pageScript(page, shellBlocks(text(page))));
  const child = spawn("bash", [script], { cwd: process.cwd(), env: usersEnvironment(), stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => ((stderr += `\n[timed out after ${PAGE_TIMEOUT_MS} ms]`), signalGroup(child.pid!, "SIGKILL")), PAGE_TIMEOUT_MS);
  const code = await new Promise<number | string | null>((resolve) => child.once("exit", (c, signal) => resolve(c ?? signal)));
  clearTimeout(timer);
  await endGroup(child.pid!);
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr };
}

/** Sends a signal to a process group; false once the group has no process left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Ends what a page left running (`listen ... &`), so that the next page finds its ports free. */
async function endGroup(pgid: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  for (let waited = 0; waited < 5_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (!signalGroup(pgid, 0)) return;
  }
  signalGroup(pgid, "SIGKILL");
}

const tail = (s: string, lines = 60) => s.split("\n").slice(-lines).join("\n");

function expectRan(page: string, run: Awaited<ReturnType<typeof runPage>>): void {
  const report = `${page} failed (exit ${run.code}). The last block announced below is the one that failed.\n--- stdout\n${tail(run.stdout)}\n--- stderr\n${tail(run.stderr)}`;
  expect(run.code, report).toBe(0);
  for (const line of PRINTS[page] ?? []) expect(run.stdout, `${page} prints ${line}\n${report}`).toMatch(line);
}

describe("the docs' shell blocks, as written", () => {
  it("include the tutorial and every how-to page", () => {
    expect(pages).toContain(TUTORIAL);
    for (const page of Object.keys(PRINTS)) expect(pages, page).toContain(page);
  });

  for (const page of pages) {
    it(`${page}: no block has a placeholder to edit`, () => {
      expect(placeholders(shellBlocks(text(page)))).toEqual([]);
    });

    it(`${page}: starting or installing the sandbox has blocks of its own`, () => {
      const mixed = shellBlocks(text(page)).filter((b) => blockKind(b) === "mixed");
      expect(
        mixed.map((b) => `line ${b.line}`),
        `a block that starts or installs the sandbox must hold only lines the runner stands for: ${JSON.stringify(RUNNER_STANDS_FOR)}`,
      ).toEqual([]);
    });
  }

  it("the placeholder check finds what a reader would have to edit", () => {
    const found = (code: string) => placeholders([{ code, line: 1 }]);
    expect(found("BASE=http://127.0.0.1:4010\ncurl -X POST $BASE/sandbox/v1/virtual-accounts/ACCOUNT_NUMBER/transfers")).toHaveLength(1);
    expect(found("npx merchant-sandbox check --key KEY --secret SECRET")).toHaveLength(2);
    expect(found("export MERCHANT_SANDBOX_API_KEY=pk_test_...")).toHaveLength(1);
    expect(found('BASE=x\ncurl "$BASE/api/v1/virtual-cards/<card_id>"')).toHaveLength(1);
    expect(found('curl "$BASE/health"')).toEqual(["block at line 1: $BASE is used but no block before assigns it"]);
    expect(found(`curl -d '{"account_number": "ACCOUNT_NUMBER"}'`)).toHaveLength(1);
    const clean = [
      "BASE=http://127.0.0.1:4010",
      `NAME=$(curl -X POST "$BASE/api/v1/payout/verify-account" -d '{"account_name": "EZE SEGUN FOLAKE"}')`,
      `curl -d '{"account_name": "'"$NAME"'"}' "$BASE/x?status=4xx"`,
      "npx merchant-sandbox logs --error-code ACCOUNT_NAME_MISMATCH",
      `node -e 'console.log(process.env.WEBHOOK_SECRET, \`\${x}\`)'`,
      "cat > scenario.yaml <<'EOF'\nname: Ada's kitchen, $NOT_EXPANDED\nEOF",
    ].join("\n");
    expect(found(clean)).toEqual([]);
  });

  it("the tutorial states each merchant's clock mode and the settlement delay as the code sets them", () => {
    const tutorial = text(TUTORIAL);
    const demo = (JSON.parse(readFileSync("fixtures/merchants.json", "utf8")) as { merchant_id: string; settings: { clock?: { mode?: string } } }[]).find((m) => m.merchant_id === "mch_demo")!;
    expect(/The demo merchant's clock is \*\*(\w+)\*\*/.exec(tutorial)?.[1]).toBe(demo.settings.clock?.mode);
    expect(/A merchant made with\s+`POST \/sandbox\/v1\/merchants`\s+has a \*\*(\w+)\*\* clock/.exec(tutorial)?.[1]).toBe(SIGN_UP_CLOCK);
    expect(/settles (\d+) seconds after it is made/.exec(tutorial)?.[1]).toBe(String(DEFAULTS.delays.payout_settlement_seconds));
    expect(tutorial).toContain(`-d '{"by": "${DEFAULTS.delays.payout_settlement_seconds}s"}'`);
  });

  it("the pages state the delays, magic timings and defaults the code enforces", () => {
    for (const [page, pattern, value] of STATED) {
      const found = [...text(page).matchAll(pattern)].map((m) => m[1]);
      expect(found.length, `${page}: ${pattern}`).toBeGreaterThan(0);
      for (const f of found) expect(f, `${page}: ${pattern}`).toBe(value);
    }
  });
});

for (const page of pages) {
  describe(`${page}, run against a fresh npm start`, () => {
    let server: StartedServer | undefined;
    let balance: number;
    let snapshot: string;

    beforeAll(async () => {
      server = await freshSandbox();
      const served = (await (await fetch(`${server.url}/api/v1/wallet/balance`, { headers: DEMO_KEYS })).json()) as { data: { balance: number } };
      balance = served.data.balance;
      snapshot = await (await fetch(`${server.url}/sandbox/v1/snapshot`, { headers: DEMO_KEYS })).text();
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("states the demo wallet's balance as the fresh sandbox serves it", () => {
      const stated = [...text(page).matchAll(/The demo wallet holds ₦([\d,]+(?:\.\d+)?)/g)].map((m) => Number(m[1]!.replaceAll(",", "")));
      if (page === TUTORIAL) expect(stated.length, 'the tutorial says "The demo wallet holds ₦N"').toBeGreaterThan(0);
      for (const n of stated) expect(n).toBe(balance);
    });

    it("names only sample objects the demo holds", () => {
      for (const m of text(page).matchAll(/`(sample-[\w-]+)`/g)) expect(snapshot, `${m[1]} in the demo merchant`).toContain(`"${m[1]}"`);
    });

    it("runs every shell block as written, in order", async () => {
      expectRan(page, await runPage(page));
    }, PAGE_TIMEOUT_MS + 5_000);

    if (page === TUTORIAL) {
      it("runs again against the same server: no reference is reused across runs", async () => {
        expectRan(page, await runPage(page));
      }, PAGE_TIMEOUT_MS + 5_000);
    }
  });
}
