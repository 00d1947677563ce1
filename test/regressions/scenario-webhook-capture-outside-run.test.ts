/**
 * `start --scenario` and `POST /sandbox/v1/scenarios` refused every scenario with
 * `webhook_capture` ("works only with merchant-sandbox run"): 8 of the 14 bundled ones. Outside `run`
 * the capture is now the sandbox's built-in receiver: deliveries are signed and logged as if sent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { harness, startFromArgs, stopServers } from "../helpers.js";

const FILES = readdirSync("scenarios").filter((f) => f.endsWith(".yaml")).sort();
afterEach(stopServers);

describe("every bundled scenario loads outside `run`", () => {
  it.each(FILES)("%s through POST /sandbox/v1/scenarios", async (file) => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: readFileSync(join("scenarios", file), "utf8") } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body.data.merchants).length).toBeGreaterThan(0);
  });

  it("all of them at once through start --scenario", async () => {
    const s = await startFromArgs(FILES.flatMap((f) => ["--scenario", join("scenarios", f)]));
    expect(new Set(s.scenarioMerchants.map((m) => m.file)).size).toBe(FILES.length);
  });
});

describe("the built-in capture", () => {
  it("answers 500 to the first fail_first deliveries and 200 after, each signed and in the delivery log", async () => {
    const h = harness();
    const yaml = readFileSync("scenarios/13-webhook-retries.yaml", "utf8");
    expect(yaml).toMatch(/webhook_capture: \{ fail_first: 3 \}/);
    const loaded = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml } });
    const shop = loaded.body.data.merchants.shop;
    const headers = { "x-api-key": shop.api_key, "x-api-secret": shop.api_secret };
    const merchant = await h.call("GET", "/sandbox/v1/merchant", { headers });
    expect(merchant.body.data).toMatchObject({ webhook_url: null, webhook_capture: { fail_first: 3 } });

    const account = loaded.body.data.objects.bola_account;
    await h.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { headers, body: { amount: 3000 } });
    // Retries after 1, 5 and 30 minutes: the fourth attempt is answered 200.
    await h.call("POST", "/sandbox/v1/clock/advance", { headers, body: { by: "1h" } });
    const deliveries = (await h.call("GET", "/sandbox/v1/webhook-deliveries", { headers })).body.data;
    expect(deliveries.map((d: any) => [d.url, d.status_code, d.outcome])).toEqual([
      ["sandbox:webhook-capture", 500, "failed"],
      ["sandbox:webhook-capture", 500, "failed"],
      ["sandbox:webhook-capture", 500, "failed"],
      ["sandbox:webhook-capture", 200, "delivered"],
    ]);
    for (const d of deliveries) {
      expect(verifyWebhookSignature(d.request_body, d.request_headers["x-webhook-signature"], shop.webhook_secret)).toBe(true);
    }
    const events = (await h.call("GET", "/sandbox/v1/events", { headers })).body.data;
    expect(events.map((e: any) => [e.type, e.status, e.attempts])).toEqual([["payment.received", "delivered", 4]]);
    // With a capture, redelivery works too (no webhook_url needed).
    const again = await h.call("POST", `/sandbox/v1/events/${events[0].id}/redeliver`, { headers });
    expect(again.body.data).toMatchObject({ trigger: "redeliver", status_code: 200 });
  });

  it("steps aside for a webhook_url set later", async () => {
    const h = harness();
    const m = await h.merchant({ webhook_capture: { fail_first: 0 } });
    await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: "http://127.0.0.1:9/hooks" } });
    const va = await m.call("POST", "/api/v1/virtual-account/create", {
      body: { email: "a@b.co", reference: "r1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678" },
    });
    await m.call("POST", `/sandbox/v1/virtual-accounts/${va.body.data.account_number}/transfers`, { body: { amount: 100 } });
    await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 0 } });
    const [delivery] = (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(delivery.url).toBe("http://127.0.0.1:9/hooks");
    expect(delivery.outcome).toBe("failed");
  });
});
