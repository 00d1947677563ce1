/**
 * `doctor` with a --secret other than the receiver's failed every case the receiver should take (each
 * answered 401) and said nothing of the likely cause. Now a hint follows the report, on stderr (so
 * `--json` stays JSON): the secrets may differ, and where the sandbox shows its webhook secret. It
 * shows only when every such case was refused as a bad signature; a receiver answering 404 to
 * everything gets a hint about the path instead.
 */
import { describe, expect, it } from "vitest";
import { doctorCommand } from "../../src/cli/doctor.js";
import { receivers, runProcess } from "../helpers.js";
import { referenceReceivers, startNodeReceiver } from "../support/reference-receivers.js";

const SECRET = "whsec_receiver_5b8d4e61";
const receiver = receivers();
const stoppedAfter = referenceReceivers();

async function command(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await doctorCommand(argv, {}, (t) => (stdout += t), (t) => (stderr += t));
  return { code, stdout, stderr };
}

const HINT = [
  "Hint: every case signed with --secret that your receiver should take was refused (all 5, answered 401):",
  "      it probably verifies with another webhook secret (or another --algorithm / --encoding). Pass the secret it uses.",
  "      The sandbox's webhook secret is in the `merchant-sandbox start` banner, the dashboard's Webhook Settings",
  "      and GET /sandbox/v1/merchant (webhook_secret).",
  "",
].join("\n");

describe("doctor with a secret the receiver does not use", () => {
  it("the real command: the scorecard as JSON on stdout, then the hint on stderr; exit 1", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    const run = await runProcess(process.execPath, ["dist/cli.mjs", "doctor", "--endpoint", r.url, "--secret", "whsec_not_the_receivers", "--json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, failed: 5 });
    expect(run.stderr).toBe(HINT);
  }, 30_000);

  it("no hint with the right secret, nor when the failures have other causes", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    expect(await command(["--endpoint", r.url, "--secret", SECRET])).toMatchObject({ code: 0, stderr: "" });
    // Takes everything: the refusal cases fail, the signed ones pass.
    const lax = await receiver();
    expect(await command(["--endpoint", lax.url, "--secret", SECRET])).toMatchObject({ code: 1, stderr: "" });
    // Fails everything with a 500: a broken receiver, not a secret that differs.
    const broken = await receiver(() => ({ status: 500 }));
    expect(await command(["--endpoint", broken.url, "--secret", SECRET])).toMatchObject({ code: 1, stderr: "" });
  }, 30_000);

  it("every delivery answered 404: a hint about the path instead", async () => {
    const lost = await receiver(() => ({ status: 404 }));
    const run = await command(["--endpoint", `${lost.url}/webhoks`, "--secret", SECRET]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Hint: every delivery was answered 404: nothing at ${lost.url}/webhoks takes a POST. Check the path in --endpoint.\n`);
  });
});
