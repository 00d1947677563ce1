/**
 * The demo merchant's sample activity (fixtures/demo-activity.json) as `start` makes it: a model
 * integration that no check rule fires on, every object it makes named as sample (so no request of
 * the docs or of a user collides with one), every request it logs labelled `sample`, a label no
 * client request can get, and the dashboard showing both and opening green.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO, DEMO_BALANCE, DEMO_LOG, SAMPLE } from "../../src/http/demo-examples.js";
import { balanceAt, DEMO_KEYS, harness, httpCall, repoFile, signUpAtStart, snapshotAt, startFromArgs, stopServers } from "../helpers.js";

afterEach(stopServers);

/** Every text field of the activity's bodies that names an object, with the fixture's request number. */
function namingFields(): Array<[string, string, string]> {
  const activity = JSON.parse(readFileSync(repoFile("fixtures/demo-activity.json"), "utf8")) as Array<{ body?: Record<string, unknown> }>;
  const found: Array<[string, string, string]> = [];
  const walk = (value: unknown, at: string) => {
    if (value === null || typeof value !== "object") return;
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === "string" && ["reference", "narration", "description", "label", "email"].includes(key)) found.push([at, key, v]);
      else walk(v, `${at}.${key}`);
    }
  };
  activity.forEach((r, i) => walk(r.body, `request ${i + 1}`));
  return found;
}

describe("the demo's sample activity", () => {
  it("names every object it makes as sample: references sample-, narrations, descriptions and labels Sample, emails sample.", () => {
    const fields = namingFields();
    expect(fields.length).toBeGreaterThan(10);
    for (const [at, key, value] of fields) {
      const sample = key === "reference" ? value.startsWith(SAMPLE.prefix) : key === "email" ? /(^|\+)sample\./.test(value) : /^Sample\b/.test(value);
      expect(sample, `${at} ${key} "${value}"`).toBe(true);
    }
  });

  it("leaves objects that say so, as the OpenAPI examples name them, and the documented balance", async () => {
    const { url } = await startFromArgs([]);
    const { state } = await snapshotAt(url, DEMO_KEYS);
    expect(state.payouts.map((p: { reference: string }) => p.reference).sort()).toEqual([DEMO.heldPayout, DEMO.processingPayout].sort());
    expect(state.virtual_accounts.map((a: { reference: string; customer_email: string }) => [a.reference, a.customer_email])).toEqual([[SAMPLE.virtualAccountReference, SAMPLE.email]]);
    expect(state.va_payments.map((p: { reference: string }) => p.reference)).toEqual([SAMPLE.clearedNarration, SAMPLE.pendingNarration]);
    expect(state.checkouts.map((c: { description: string }) => c.description)).toEqual([SAMPLE.checkoutDescription]);
    expect(state.cardholders.map((h: { email: string }) => h.email)).toEqual([SAMPLE.email, SAMPLE.pendingEmail]);
    expect(state.cards.map((c: { label: string }) => c.label)).toEqual([...SAMPLE.cardLabels]);
    expect(state.outcome_rules.map((r: { match: unknown }) => r.match)).toEqual([{ reference: SAMPLE.failingReference }]);
    expect(await balanceAt(url, DEMO_KEYS)).toBe(DEMO_BALANCE);
  });

  it("is a model integration: no check rule fires, and a name enquiry comes before each transfer", async () => {
    const { url } = await startFromArgs([]);
    const report = (await httpCall(url, "GET", "/sandbox/v1/checks", { keys: DEMO_KEYS })).body.data;
    expect(report.summary).toMatchObject({ verdict: "pass", fired: 0, errors: 0, warnings: 0, infos: 0 });
    expect(report.rules.filter((r: { status: string }) => r.status === "fired")).toEqual([]);
    expect(report.rules.find((r: { id: string }) => r.id === "transfer-to-unverified-account").status).toBe("passed");
    const operations = DEMO_LOG.map(([, operation]) => operation);
    for (const [i, op] of operations.entries()) if (op === "createPayout") expect(operations[i - 1], `request ${i + 1}`).toBe("verifyAccount");
  });

  it("labels every request it logs `sample`; a client's requests never are, whatever headers they send", async () => {
    const { url } = await startFromArgs([]);
    const spoofs = { sample: "true", "x-sample": "true", "x-sandbox-sample": "1", sampleactivity: "true", "x-merchant-sandbox-origin": "sample" };
    await httpCall(url, "GET", "/api/v1/wallet/balance", { keys: DEMO_KEYS, headers: spoofs });
    const log = (await httpCall(url, "GET", "/sandbox/v1/requests?after=0", { keys: DEMO_KEYS })).body.data as Array<{ seq: number; sample: boolean }>;
    expect(log.map((r) => r.sample)).toEqual([...DEMO_LOG.map(() => true), false]);
    const own = (await httpCall(url, "GET", `/sandbox/v1/requests/${log.at(-1)!.seq}`, { keys: DEMO_KEYS })).body.data;
    expect(own).toMatchObject({ sample: false, request_headers: { "x-sample": "true" } });

    // A merchant of one's own has no sample activity: nothing in its log is labelled.
    const m = await signUpAtStart(url);
    await m.call("GET", "/api/v1/wallet/balance", { headers: spoofs });
    expect((await m.call("GET", "/sandbox/v1/requests")).body.data.map((r: { sample: boolean }) => r.sample)).toEqual([false]);
  });
});

describe("the dashboard on the demo merchant", () => {
  const fragment = async (h: ReturnType<typeof harness>, section: string, keys: Record<string, string>) => {
    const res = await h.app.request(`/dashboard/fragments/${section}`, { headers: keys });
    expect(res.status).toBe(200);
    return res.text();
  };
  const tags = (html: string) => html.split('data-testid="sample-tag"').length - 1;

  it("opens green, and tags the sample requests and the objects they made", async () => {
    const h = harness();
    const demo = await h.demoWithActivity();
    expect(await fragment(h, "checks", demo.keys)).toContain('data-verdict="pass"');
    expect(await fragment(h, "overview", demo.keys)).toContain('data-testid="sample-notice"');
    expect(tags(await fragment(h, "logs", demo.keys))).toBe(DEMO_LOG.length);
    expect(tags(await fragment(h, "payouts", demo.keys))).toBe(2);
    expect(tags(await fragment(h, "links", demo.keys))).toBe(1);
    expect(tags(await fragment(h, "accounts", demo.keys))).toBe(1);
    expect(tags(await fragment(h, "vtu", demo.keys))).toBe(1);
    expect(tags(await fragment(h, "cards", demo.keys))).toBe(2 + SAMPLE.cardLabels.length);
    const seq = DEMO_LOG.find(([, op]) => op === "createPayout")![0];
    expect(await fragment(h, `logs/${seq}`, demo.keys)).toContain('data-testid="request-sample"');

    // The merchant's own request, and a merchant of one's own: nothing tagged.
    await demo.call("GET", "/api/v1/wallet/balance");
    expect(tags(await fragment(h, "logs", demo.keys))).toBe(DEMO_LOG.length);
    const m = await h.merchant();
    await m.call("GET", "/api/v1/wallet/balance");
    for (const section of ["overview", "logs", "payouts", "cards"]) expect(await fragment(h, section, m.keys)).not.toContain("sample");
  });
});
