/**
 * POST /sandbox/v1/webhooks/doctor: the battery against the merchant's own webhook_url, signed with
 * its secret and settings, within its timeout; its built-in capture when it has no URL; one run at a
 * time and a quota per merchant; records_url checked as webhook URLs are; nothing recorded in the
 * merchant's state; and the dashboard's section showing the last scorecard.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../src/doctor/battery.js";
import { DOCTOR_RUNS_PER_MINUTE } from "../../src/doctor/desk.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { closedAfterEach, expectError, harness, receivers, type Merchant } from "../helpers.js";
import { neverAnswer } from "../receiver.js";
import { referenceReceivers, startNodeReceiver } from "../support/reference-receivers.js";

const receiver = receivers();
const stoppedAfter = referenceReceivers();
const runtimes = closedAfterEach((runtime: Runtime) => runtime.stop());

const doctor = (m: Merchant, body?: unknown) => m.call("POST", "/sandbox/v1/webhooks/doctor", body === undefined ? {} : { body });
const REFUSALS = CASES.filter((c) => c.expect === "refused").map((c) => c.id);
const failing = (data: { cases: Array<{ id: string; result: string }> }) => data.cases.filter((c) => c.result === "fail").map((c) => c.id);

describe("the merchant's own receiver", () => {
  it("is graded with the merchant's webhook secret and signature settings, credits checked against its records view", async () => {
    const h = harness();
    const m = await h.merchant({ webhook: { signature_algorithm: "sha512", signature_encoding: "base64" } });
    const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: m.webhookSecret, WEBHOOK_ALGORITHM: "sha512", WEBHOOK_ENCODING: "base64" }));
    expect((await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: r.url } })).status).toBe(200);

    const res = await doctor(m, { records_url: r.recordsUrl });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(failing(res.body.data)).toEqual([]);
    expect(res.body.data).toMatchObject({ endpoint: r.url, records_url: r.recordsUrl, timeout_seconds: 10, ok: true, passed: 9, failed: 0, total: 9, records: { read: true, error: null } });
    expect(res.body.data.cases.find((c: { id: string }) => c.id === "duplicate_delivery").credits.found).toEqual([1]);
  });

  it("gets exactly what the sandbox's deliveries look like, and changes nothing in the merchant's state", async () => {
    const h = harness();
    const r = await receiver();
    const m = await h.merchant({ webhook_url: r.url });
    const before = (await m.call("GET", "/sandbox/v1/snapshot")).body.data;

    expect((await doctor(m)).status).toBe(200);
    expect(r.received).toHaveLength(10);
    const [valid] = r.received;
    expect(valid!.headers).toMatchObject({ "content-type": "application/json", "user-agent": "merchant-sandbox-webhooks/1.0" });
    expect(verifyWebhookSignature(valid!.raw, valid!.headers["x-webhook-signature"] as string, m.webhookSecret)).toBe(true);
    // sent_at is the wall clock's (a receiver compares it with its own), not the merchant's manual clock.
    expect(Math.abs(Date.parse(valid!.body.sent_at) - Date.now())).toBeLessThan(60_000);

    expect((await m.call("GET", "/sandbox/v1/snapshot")).body.data).toEqual(before);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data).toEqual([]);
    expect((await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data).toEqual([]);
  });

  it("waits for each delivery at most the merchant's webhook.timeout_seconds, and runs one at a time", async () => {
    const h = harness();
    const r = await receiver(neverAnswer);
    const m = await h.merchant({ webhook_url: r.url, webhook: { timeout_seconds: 0.2 } });

    const first = doctor(m);
    await r.waitFor(1);
    expectError(await doctor(m), 409, "INVALID_STATE");
    const res = await first;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ timeout_seconds: 0.2, ok: false, passed: 0, failed: 9 });
    expect(res.body.data.cases[0].problem).toBe("no answer within 0.2 s; expected a 2xx within 0.2 s (anything else is retried, then failed)");
    expect(res.body.data.cases[2].problem).toBe("no answer within 0.2 s; expected a refusal: any answer but a 2xx");
    // Once it has answered, the merchant may run it again.
    r.answer = () => ({ status: 200 });
    expect((await doctor(m)).status).toBe(200);
  });
});

describe("without a webhook_url", () => {
  it("the built-in capture answers, taking everything: the four refusal cases fail; its fail_first count is untouched", async () => {
    const h = harness();
    const m = await h.merchant({ webhook_capture: { fail_first: 2 } });
    const res = await doctor(m);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ endpoint: "sandbox:webhook-capture", ok: false, passed: 5, failed: 4 });
    expect(failing(res.body.data)).toEqual(REFUSALS);
    expect(m.tenant.state.sequences.captured).toBe(0);
  });

  it("and no capture either: 409 INVALID_STATE, naming the way out", async () => {
    const m = await harness().merchant();
    const body = expectError(await doctor(m), 409, "INVALID_STATE");
    expect(body.message).toBe(
      "No webhook_url is set for this merchant: set one with PATCH /sandbox/v1/merchant, or run `merchant-sandbox doctor --endpoint URL --secret S` against any receiver.",
    );
  });
});

describe("bounds", () => {
  it(`at most ${DOCTOR_RUNS_PER_MINUTE} runs per rolling minute of wall-clock time for one merchant (429 QUOTA_EXCEEDED with retry_after); other merchants are not held up`, async () => {
    const h = harness();
    const m = await h.merchant({ webhook_capture: {} });
    for (let i = 0; i < DOCTOR_RUNS_PER_MINUTE; i++) {
      expect((await doctor(m)).status).toBe(200);
      h.wall.now += 1_000;
    }
    const refused = await doctor(m);
    const body = expectError(refused, 429, "QUOTA_EXCEEDED");
    expect(body.retry_after).toBe(60 - DOCTOR_RUNS_PER_MINUTE);
    expect(refused.headers.get("retry-after")).toBe(String(60 - DOCTOR_RUNS_PER_MINUTE));
    expect(body.message).toBe(`At most ${DOCTOR_RUNS_PER_MINUTE} webhook doctor runs per minute for one merchant; retry in ${60 - DOCTOR_RUNS_PER_MINUTE} s.`);

    expect((await doctor(await h.merchant({ webhook_capture: {} }))).status).toBe(200);
    h.wall.now += (60 - DOCTOR_RUNS_PER_MINUTE) * 1_000;
    expect((await doctor(m)).status).toBe(200);
  });

  it.each([
    [{ records_url: "ftp://shop.example.com/credited" }, "records_url", "Must be an http(s) URL."],
    [{ records_url: `https://shop.example.com/${"x".repeat(2_000)}` }, "records_url", "Must be at most 2000 characters."],
    [{ records_url: 42 }, "records_url", "Must be an http(s) URL."],
    [{ url: "https://shop.example.com/hooks" }, "url", "Unknown field."],
  ])("%j is refused with 422 on %s, before anything is sent", async (payload, field, message) => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    const body = expectError(await doctor(m, payload), 422, "VALIDATION_ERROR");
    expect(body.errors?.[field]).toEqual([message]);
    expect(r.received).toHaveLength(0);
  });
});

describe("shared mode", () => {
  const sharedSandbox = () => harness({ runtime: runtimes(createRuntime({ shared: true })), shared: true });

  it("refuses a records_url that names a loopback or private address, as a webhook_url is refused", async () => {
    const m = await sharedSandbox().merchant({ webhook_capture: {} });
    const body = expectError(await doctor(m, { records_url: "http://127.0.0.1:3001/credited" }), 422, "VALIDATION_ERROR");
    expect(body.errors?.records_url).toEqual(["Refused: 127.0.0.1 is a private or loopback address (shared mode refuses these webhook targets)"]);
  });

  it("sends nothing to a private address a merchant still holds (saved before --shared): every case says why", async () => {
    const r = await receiver();
    const m = await sharedSandbox().merchant({ webhook_capture: {} });
    m.tenant.config.webhook_url = r.url; // as a --data file written before shared mode was turned on has it
    const res = await doctor(m);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: false, passed: 0, failed: 9 });
    for (const c of res.body.data.cases) expect(c.observed[0].error).toBe("Refused: 127.0.0.1 is a private or loopback address (shared mode refuses these webhook targets)");
    expect(r.received).toHaveLength(0);
  });
});

describe("the dashboard's Webhook doctor section", () => {
  it("offers the run for the merchant's webhook_url, then shows the last scorecard", async () => {
    const h = harness();
    const r = await receiver();
    const m = await h.merchant({ webhook_url: r.url });
    const fragment = async () => (await m.call("GET", "/dashboard/fragments/doctor")).body as string;

    const before = await fragment();
    expect(before).toContain('<form data-post="/sandbox/v1/webhooks/doctor"');
    expect(before).toContain("Run webhook doctor");
    expect(before).toContain(r.url);
    expect(before).toContain("No run yet.");

    expect((await doctor(m)).status).toBe(200);
    const after = await fragment();
    expect(after).toContain("5 of 9 cases passed, 4 failed");
    for (const c of CASES) expect(after).toContain(`data-case="${c.id}"`);
    expect(after).toContain("answered 200; expected a refusal: any answer but a 2xx");
    expect(after).toContain("credits not checked (no records URL)");
  });

  it("without a webhook_url or capture, says how to get one graded instead of offering a run", async () => {
    const m = await harness().merchant();
    const html = (await m.call("GET", "/dashboard/fragments/doctor")).body as string;
    expect(html).not.toContain("Run webhook doctor");
    expect(html).toContain("merchant-sandbox doctor --endpoint URL --secret S");
  });
});
