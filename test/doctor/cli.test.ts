/**
 * `merchant-sandbox doctor`: its usage and refusals (exit 2), the scorecard as text and as JSON, and
 * its exit status (0 when every case passed, 1 when one failed or the records view could not be
 * read), in-process and as the real command.
 */
import { describe, expect, it } from "vitest";
import { DOCTOR_USAGE, doctorCommand, parseDoctorArgs } from "../../src/cli/doctor.js";
import { CASES } from "../../src/doctor/battery.js";
import type { Scorecard } from "../../src/doctor/run.js";
import { receivers, runCli } from "../helpers.js";
import { referenceReceivers, startNodeReceiver } from "../support/reference-receivers.js";

const SECRET = "whsec_doctor_cli_5b8d4e61";
const receiver = receivers();
const stoppedAfter = referenceReceivers();

/** The command in-process: its exit status and what it printed. */
async function command(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await doctorCommand(argv, env, (t) => (stdout += t), (t) => (stderr += t));
  return { code, stdout, stderr };
}

describe("usage", () => {
  it.each([
    [[], "--endpoint URL is required"],
    [["--endpoint", "ftp://shop.example.com/hooks", "--secret", "s"], '--endpoint: Invalid webhook URL: protocol ftp: is not supported (use http or https)'],
    [["--endpoint", "not a url", "--secret", "s"], '--endpoint: Invalid webhook URL: "not a url" is not a URL'],
    [["--endpoint", "http://127.0.0.1:3001/webhooks"], "--secret is required (or MERCHANT_SANDBOX_WEBHOOK_SECRET)"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--records-url", "mailto:ops@example.com"], "--records-url: Invalid webhook URL"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--algorithm", "md5"], "--algorithm must be sha256 or sha512"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--encoding", "base32"], "--encoding must be hex or base64"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--timeout-seconds", "0"], "--timeout-seconds must be a number of seconds above 0 and at most 60"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--timeout-seconds", "61"], "--timeout-seconds must be a number of seconds above 0 and at most 60"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--timeout-seconds", "soon"], "--timeout-seconds must be a number of seconds above 0 and at most 60"],
    [["--endpoint", "http://127.0.0.1:3001/webhooks", "--secret", "s", "--verbose"], "Unknown option '--verbose'"],
  ])("%j is refused with exit 2 and the usage", async (argv, message) => {
    const { code, stdout, stderr } = await command(argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`merchant-sandbox doctor: ${message}`);
    expect(stderr).toContain(DOCTOR_USAGE);
  });

  it("--help prints the usage and exits 0", async () => {
    expect(await command(["--help"])).toEqual({ code: 0, stdout: DOCTOR_USAGE, stderr: "" });
  });

  it("takes the secret from MERCHANT_SANDBOX_WEBHOOK_SECRET, and defaults to HMAC-SHA256 hex and a 10 s timeout", () => {
    expect(parseDoctorArgs(["--endpoint", "https://shop.example.com/hooks"], { MERCHANT_SANDBOX_WEBHOOK_SECRET: "whsec_env" })).toEqual({
      options: {
        endpoint: "https://shop.example.com/hooks",
        secret: "whsec_env",
        recordsUrl: null,
        signature: { algorithm: "sha256", encoding: "hex" },
        timeoutSeconds: 10,
        json: false,
      },
    });
  });
});

describe("the scorecard and the exit status", () => {
  it("a receiver that takes everything: one line a case, each failure with what was expected, what happened and why; exit 1", async () => {
    const r = await receiver();
    const { code, stdout } = await command(["--endpoint", r.url, "--secret", SECRET]);
    expect(code).toBe(1);
    expect(r.received).toHaveLength(10);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(`Webhook doctor: ${r.url} (timeout 10 s)`);
    for (const c of CASES) expect(stdout).toMatch(new RegExp(`^  ${c.expect === "accepted" ? "PASS" : "FAIL"}  ${c.id} +${c.title} +200 in \\d+ ms`, "m"));
    const bad = CASES.find((c) => c.id === "bad_signature")!;
    expect(stdout).toContain(`        expected: ${bad.expected}\n        problem:  answered 200; expected a refusal: any answer but a 2xx\n        why:      ${bad.why}\n`);
    expect(stdout).toContain("Credits not checked: pass --records-url to check what your receiver credited.");
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("5 of 9 passed, 4 failed: FAIL");
  });

  it("--json prints the scorecard as JSON, for CI", async () => {
    const r = await receiver();
    const { code, stdout } = await command(["--endpoint", r.url, "--secret", SECRET, "--json", "--timeout-seconds", "2.5"]);
    expect(code).toBe(1);
    const card = JSON.parse(stdout) as Scorecard;
    expect(card).toMatchObject({ endpoint: r.url, records_url: null, timeout_seconds: 2.5, ok: false, passed: 5, failed: 4, total: 9, records: null });
    expect(card.cases.map((c) => [c.id, c.result])).toEqual(CASES.map((c) => [c.id, c.expect === "accepted" ? "pass" : "fail"]));
  });

  it("the correct reference receiver, with its records view: every case passes, credits checked; exit 0", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    const { code, stdout } = await command(["--endpoint", r.url, "--records-url", r.recordsUrl], { MERCHANT_SANDBOX_WEBHOOK_SECRET: SECRET });
    expect(stdout).not.toContain("FAIL");
    expect(code).toBe(0);
    expect(stdout).toContain(`Credits checked against ${r.recordsUrl}.`);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("9 of 9 passed, 0 failed");
  });

  it("a records view that cannot be read fails the run even when every case passed: exit 1", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    const missing = r.recordsUrl.replace("/credited", "/no-such-view");
    const { code, stdout } = await command(["--endpoint", r.url, "--secret", SECRET, "--records-url", missing]);
    expect(code).toBe(1);
    expect(stdout).toContain(`Records view ${missing} could not be read: answered 404, not 200. Credits not checked.`);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("9 of 9 passed, 0 failed: FAIL");
  });

  it("as the real command: exit 2 on bad usage, 1 with a failed case, 0 when all pass", async () => {
    expect((await runCli(["doctor", "--secret", SECRET])).code).toBe(2);
    const lax = await receiver();
    const failed = await runCli(["doctor", "--endpoint", lax.url, "--secret", SECRET, "--json"]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, failed: 4 });
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    const passed = await runCli(["doctor", "--endpoint", r.url, "--secret", SECRET, "--records-url", r.recordsUrl]);
    expect(passed.stdout).toContain("9 of 9 passed, 0 failed");
    expect(passed.code).toBe(0);
  }, 60_000);
});
