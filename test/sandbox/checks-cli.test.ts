/**
 * `merchant-sandbox check` against a real server on port 0: the scorecard, `--json` (the API's body as
 * it came), the exit codes (1 when a rule of severity error fired, 0 otherwise, 2 when it could not
 * ask), keys from flags or the environment; and the built CLI's dispatch of the command.
 */
import { afterEach, describe, expect, it } from "vitest";
import { check, CHECK_USAGE, parseCheckArgs, scorecard, type CheckOptions } from "../../src/cli/check.js";
import { DEFAULT_SANDBOX_URL } from "../../src/cli/connection.js";
import { makeNuban, runProcess, signUpAtStart, startFromArgs, stopServers, type ServerMerchant } from "../helpers.js";
import { accountHolderName } from "../../src/domain/names.js";

afterEach(stopServers);

const ACCOUNT = makeNuban("058", "100200300");
const transfer = (reference: string) => ({
  amount: 5000,
  bank_code: "058",
  account_number: ACCOUNT,
  account_name: accountHolderName("058", ACCOUNT),
  bank_name: "Guaranty Trust Bank",
  reference,
});

/** Runs the command in-process; resolves to its exit code and what it wrote. */
async function run(options: CheckOptions) {
  let out = "";
  let err = "";
  const code = await check(options, (t) => (out += t), (t) => (err += t));
  return { code, out, err };
}

const optionsFor = (url: string, m: ServerMerchant, json = false): CheckOptions => {
  const parsed = parseCheckArgs(["--url", url, "--key", m.keys["x-api-key"], "--secret", m.keys["x-api-secret"], ...(json ? ["--json"] : [])], {});
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.options;
};

describe("merchant-sandbox check", () => {
  it("passes (exit 0) on a correct integration, and fails (exit 1) once a rule of severity error fired, naming it and its requests", async () => {
    const { url } = await startFromArgs([]);
    const m = await signUpAtStart(url);
    await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: ACCOUNT } });
    expect((await m.call("POST", "/api/v1/payout/transfer", { body: transfer("inv-1") })).status).toBe(201);

    const clean = await run(optionsFor(url, m));
    expect(clean.code, clean.out + clean.err).toBe(0);
    expect(clean.out).toMatch(/^Integration checks of http:\/\/127\.0\.0\.1:\d+: PASS$/m);
    expect(clean.out).toContain("✓ passed   transfer-to-unverified-account");

    await m.call("GET", "/api/v1/wallet/balance", { headers: { "sec-fetch-site": "cross-site" } }); // error: secret in a browser
    const failing = await run(optionsFor(url, m));
    expect(failing.code).toBe(1);
    expect(failing.out).toMatch(/: FAIL$/m);
    expect(failing.out).toContain("✗ error    secret-key-in-browser  The secret key sent from a browser (1)");
    expect(failing.out).toMatch(/#3 GET \/api\/v1\/wallet\/balance → 200 {2}Sent by a browser \(Sec-Fetch-Site: cross-site\)/);
    expect(failing.out).toContain("why: The spec: every call is server-to-server");
  });

  it("--json prints the API's answer exactly; warnings alone exit 0", async () => {
    const { url } = await startFromArgs([]);
    const m = await signUpAtStart(url);
    await m.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: ACCOUNT } });
    const { reference: _omitted, ...withoutReference } = transfer("unused");
    await m.call("POST", "/api/v1/payout/transfer", { body: withoutReference }); // a warning: no reference of its own
    const { code, out } = await run(optionsFor(url, m, true));
    expect(code).toBe(0);
    const api = await m.call("GET", "/sandbox/v1/checks");
    expect(JSON.parse(out)).toEqual(api.body);
    expect(api.body.data.summary).toMatchObject({ verdict: "pass", warnings: 1, errors: 0 });
  });

  it("takes the keys and URL from the environment; refuses to run without keys, or when the sandbox cannot be asked (exit 2)", async () => {
    const env = { MERCHANT_SANDBOX_URL: "http://127.0.0.1:9/", MERCHANT_SANDBOX_API_KEY: "pk", MERCHANT_SANDBOX_API_SECRET: "sk" };
    expect(parseCheckArgs([], env)).toEqual({ options: { connection: { url: "http://127.0.0.1:9", key: "pk", secret: "sk" }, json: false } });
    expect(parseCheckArgs(["--key", "flag"], env)).toMatchObject({ options: { connection: { key: "flag" } } });
    expect(parseCheckArgs([], {})).toMatchObject({ error: expect.stringContaining("--key and --secret") });
    expect(parseCheckArgs(["--url", "ftp://x", "--key", "k", "--secret", "s"], {})).toMatchObject({ error: expect.stringContaining("--url") });
    expect(parseCheckArgs(["--verbose"], env)).toMatchObject({ error: expect.stringContaining("--verbose") });
    expect((parseCheckArgs(["--key", "k", "--secret", "s"], {}) as { options: CheckOptions }).options.connection.url).toBe(DEFAULT_SANDBOX_URL);

    const { url } = await startFromArgs([]);
    const wrongKeys = await run({ connection: { url, key: "pk_test_nobody_000000", secret: "sk_test_nobody_000000" }, json: false });
    expect(wrongKeys).toMatchObject({ code: 2, out: "" });
    expect(wrongKeys.err).toContain("401 INVALID_CREDENTIALS");
    const closed = new URL(url);
    await stopServers();
    const unreachable = await run({ connection: { url: closed.origin, key: "k", secret: "s" }, json: false });
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toContain(`cannot reach the sandbox at ${closed.origin}`);
  });

  it("the built CLI dispatches `check` (keys from the environment) and `check -h`", async () => {
    const { url } = await startFromArgs([]);
    const m = await signUpAtStart(url);
    await m.call("POST", "/api/v1/payout/transfer", { body: transfer("inv-1") }); // never verified: an error
    const env = { MERCHANT_SANDBOX_URL: url, MERCHANT_SANDBOX_API_KEY: m.keys["x-api-key"], MERCHANT_SANDBOX_API_SECRET: m.keys["x-api-secret"] };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const failing = await runProcess(process.execPath, ["dist/cli.mjs", "check", "--json"]);
      expect(failing.code, failing.stderr).toBe(1);
      expect(JSON.parse(failing.stdout).data.rules[0]).toMatchObject({ id: "transfer-to-unverified-account", status: "fired" });
    } finally {
      process.env = saved;
    }
    const help = await runProcess(process.execPath, ["dist/cli.mjs", "check", "-h"]);
    expect(help).toMatchObject({ code: 0, stdout: CHECK_USAGE });
  });

  it("the scorecard counts what was judged and what the evidence left out", () => {
    const card = scorecard(
      {
        summary: { verdict: "pass", rules: 1, fired: 1, passed: 0, not_applicable: 0, errors: 0, warnings: 1, infos: 0 },
        examined: { request_log: false, requests: 0, first_request_seq: null, deliveries: 1, events: 2, credits_reported: 3 },
        rules: [
          {
            id: "webhook-receiver-missing",
            title: "Events never sent: no webhook_url",
            severity: "warning",
            rationale: "Why.",
            status: "fired",
            occurrences: 25,
            evidence: { requests: [], deliveries: [], transactions: [{ transaction_id: "TXN_1", note: "Never sent." }] },
          },
        ],
      },
      "http://127.0.0.1:4010",
    );
    expect(card).toContain("Judged no requests (the request log is off), 1 webhook delivery, 2 events, a credit report of 3");
    expect(card).toContain("! warning  webhook-receiver-missing  Events never sent: no webhook_url (25)");
    expect(card).toContain("TXN_1  Never sent.");
    expect(card).toContain("… and 24 more");
  });
});
