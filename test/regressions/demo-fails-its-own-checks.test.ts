/**
 * The demo merchant once failed its own integration checks: its sample activity sent two transfers
 * without a name enquiry, so `merchant-sandbox check` on a fresh `npm start` exited 1
 * (`transfer-to-unverified-account`, citing requests the sandbox itself made) and the dashboard
 * opened on a red "Fails". The activity is now a model integration; this runs `npm start` exactly as
 * package.json says (built CLI, every default, port 0 so no lock is needed) and asks `check`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { check, parseCheckArgs } from "../../src/cli/check.js";
import { DEMO_BALANCE, DEMO_LOG } from "../../src/http/demo-examples.js";
import { DEMO_KEYS, httpCall } from "../helpers.js";
import { servedDemo, startAsNpmStart } from "../support/npm-start.js";
import type { StartedServer } from "../support/processes.js";

let running: StartedServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe("the demo merchant as `npm start` serves it", () => {
  it("passes `merchant-sandbox check` (exit 0, no rule fired), with its sample requests labelled and the documented balance", async () => {
    running = await startAsNpmStart(["--port", "0"]);
    const parsed = parseCheckArgs(["--url", running.url, "--key", DEMO_KEYS["x-api-key"], "--secret", DEMO_KEYS["x-api-secret"]], {});
    if ("error" in parsed) throw new Error(parsed.error);
    let out = "";
    const code = await check(parsed.options, (t) => (out += t), (t) => (out += t));
    expect(code, out).toBe(0);
    expect(out).toMatch(/: PASS$/m);
    expect(out).toContain("✓ passed   transfer-to-unverified-account");
    expect(out).not.toMatch(/✗/);

    const log = await httpCall(running.url, "GET", "/sandbox/v1/requests?after=0", { keys: DEMO_KEYS });
    expect(log.body.data.map((r: { operation: string; sample: boolean }) => [r.operation, r.sample])).toEqual(DEMO_LOG.map(([, operation]) => [operation, true]));
    expect((await servedDemo(running.url)).balance).toBe(DEMO_BALANCE);
  }, 60_000);
});
