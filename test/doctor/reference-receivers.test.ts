/**
 * The reference receivers of examples/webhook-receivers/, graded by the webhook doctor as a merchant
 * would grade its own: the correct ones (Node, PHP) pass every case with their credits checked, and
 * each broken one fails exactly the cases that name its fault (CASES' `faults`), no more, no fewer.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { doctor, type DoctorCliOptions } from "../../src/cli/doctor.js";
import { CASES, type Fault } from "../../src/doctor/battery.js";
import type { Scorecard } from "../../src/doctor/run.js";
import { referenceReceivers, startNodeReceiver, startPhpReceiver, type RunningReceiver } from "../support/reference-receivers.js";

const SECRET = "whsec_doctor_reference_2c7e9a1f";
const phpInstalled = spawnSync("php", ["-v"]).status === 0;
const phpRuns = phpInstalled || Boolean(process.env.CI);
if (!phpRuns) {
  console.warn(
    "\n!!! php is not installed: SKIPPING the PHP reference receiver test (examples/webhook-receivers/receiver.php).\n" +
      "!!! Install php-cli to run it; with CI set this test fails instead of skipping.\n",
  );
}
const stoppedAfter = referenceReceivers();

const grade = (r: RunningReceiver, options: Partial<DoctorCliOptions> = {}) =>
  doctor({ endpoint: r.url, secret: SECRET, recordsUrl: r.recordsUrl, signature: { algorithm: "sha256", encoding: "hex" }, timeoutSeconds: 5, json: false, ...options });

const failing = (card: Scorecard) => card.cases.filter((c) => c.result === "fail").map((c) => c.id);
/** The cases that name `fault`: those a receiver with that fault must fail. */
const naming = (fault: Fault) => CASES.filter((c) => c.faults.includes(fault)).map((c) => c.id);

function expectAllPassed(card: Scorecard) {
  expect(card.cases.filter((c) => c.result === "fail").map((c) => `${c.id}: ${c.problem}`)).toEqual([]);
  expect(card).toMatchObject({ ok: true, passed: CASES.length, failed: 0, total: CASES.length, records: { read: true, error: null } });
  // Every credit was really checked, against what the receiver says it credited.
  for (const c of card.cases) expect(c.credits.found, c.id).toEqual(c.credits.transaction_ids.map(() => (c.credits.expected === "none" ? 0 : 1)));
}

describe("the correct receivers pass every case", () => {
  it("Node (receiver.mjs), with the default HMAC-SHA256 in hex", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    expectAllPassed(await grade(r));
  });

  it("Node, with HMAC-SHA512 in base64 (a merchant's webhook.signature_* settings)", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET, WEBHOOK_ALGORITHM: "sha512", WEBHOOK_ENCODING: "base64" }));
    expectAllPassed(await grade(r, { signature: { algorithm: "sha512", encoding: "base64" } }));
  });

  it.skipIf(!phpRuns)("PHP (receiver.php under php -S)", async () => {
    if (!phpInstalled) throw new Error("php is not installed but CI is set: the PHP reference receiver must be graded in CI (install php-cli)");
    const r = stoppedAfter(await startPhpReceiver({ WEBHOOK_SECRET: SECRET }));
    expectAllPassed(await grade(r));
  });

  it("the same receiver graded with another secret fails: every valid delivery is refused, so the doctor is checking signatures for real", async () => {
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: SECRET }));
    const card = await grade(r, { secret: "whsec_someone_else" });
    expect(failing(card)).toEqual(CASES.filter((c) => c.expect === "accepted").map((c) => c.id));
    expect(card.cases[0]!.problem).toBe("answered 401; expected a 2xx within 5 s (anything else is retried, then failed)");
  });
});

describe("each broken receiver fails exactly the cases that name its fault", () => {
  it("no signature check: missing_signature, bad_signature and tampered_body", async () => {
    const r = stoppedAfter(await startNodeReceiver("broken-no-signature-check.mjs", { WEBHOOK_SECRET: SECRET }));
    const card = await grade(r);
    expect(failing(card)).toEqual(naming("no_signature_check"));
    expect(failing(card)).toEqual(["missing_signature", "bad_signature", "tampered_body"]);
    expect(card.ok).toBe(false);
  });

  it("not idempotent: duplicate_delivery, seen in its records view (the duplicate credited twice)", async () => {
    const r = stoppedAfter(await startNodeReceiver("broken-not-idempotent.mjs", { WEBHOOK_SECRET: SECRET }));
    const card = await grade(r);
    expect(failing(card)).toEqual(naming("not_idempotent"));
    const duplicate = card.cases.find((c) => c.id === "duplicate_delivery")!;
    expect(duplicate.credits.found).toEqual([2]);
    expect(duplicate.problem).toBe(`${duplicate.credits.transaction_ids[0]} credited 2 times; expected once`);
  });

  it("not idempotent, without a records view: the answers alone cannot show it, and the scorecard says credits were not checked", async () => {
    const r = stoppedAfter(await startNodeReceiver("broken-not-idempotent.mjs", { WEBHOOK_SECRET: SECRET }));
    const card = await grade(r, { recordsUrl: null });
    expect(failing(card)).toEqual([]);
    expect(card.records).toBeNull();
    for (const c of card.cases) expect(c.credits.found).toBeNull();
  });

  it("slow: every case that expects a 2xx, each timed out; the refusals are still quick", async () => {
    const r = stoppedAfter(await startNodeReceiver("broken-slow.mjs", { WEBHOOK_SECRET: SECRET, SLOW_SECONDS: "3" }));
    const card = await grade(r, { timeoutSeconds: 0.5 });
    expect(failing(card)).toEqual(naming("slow"));
    expect(failing(card)).toEqual(CASES.filter((c) => c.expect === "accepted").map((c) => c.id));
    const valid = card.cases.find((c) => c.id === "valid_event")!;
    expect(valid.observed[0]).toMatchObject({ status_code: null, error: "Timed out after 0.5 s" });
    expect(valid.problem).toBe("no answer within 0.5 s; expected a 2xx within 0.5 s (anything else is retried, then failed)");
    for (const c of card.cases.filter((c) => c.result === "pass")) expect(c.observed[0]!.latency_ms, c.id).toBeLessThan(500);
  });
});
