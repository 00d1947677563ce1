import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectError, harness } from "./helpers.js";

const yaml = readFileSync("scenarios/01-virtual-account-funding.yaml", "utf8").replace("webhook_capture: {}", "webhook_url: null");

describe("POST /sandbox/v1/scenarios", () => {
  it("loads a scenario (YAML text) into new merchants and returns their keys and object names", async () => {
    const h = harness();
    const res = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml } });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe("Virtual account funding with webhook");
    const shop = res.body.data.merchants.shop;
    expect(shop).toEqual({
      merchant_id: expect.stringMatching(/^mch_/),
      api_key: expect.stringMatching(/^pk_test_/),
      api_secret: expect.stringMatching(/^sk_test_/),
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const account = res.body.data.objects.ada_account;
    expect(account).toMatch(/^\d{10}$/);
    const keys = { "x-api-key": shop.api_key, "x-api-secret": shop.api_secret };
    const va = await h.call("GET", `/api/v1/virtual-account/${account}`, { headers: keys });
    expect(va.body.data).toMatchObject({ account_name: "Mama Put Foods Ltd-Ada Obi" });
    // The timeline runs on the merchant's own (manual) clock, starting at the scenario's start.
    const clock = await h.call("GET", "/sandbox/v1/clock", { headers: keys });
    expect(clock.body.data).toMatchObject({ now: "2026-01-05T09:00:00.000Z", mode: "manual", pending_timers: 2 });
    await h.call("POST", "/sandbox/v1/clock/advance", { headers: keys, body: { by: "10m" } });
    expect((await h.call("GET", "/api/v1/wallet/balance", { headers: keys })).body.data.balance).toBe(7_500.5);
  });

  it("accepts the scenario as a JSON document too, and each load makes new merchants", async () => {
    const h = harness();
    const doc = { name: "tiny", merchants: { a: { wallet_balance: 10 } }, payment_links: [{ as: "link", amount: 500 }] };
    const first = await h.call("POST", "/sandbox/v1/scenarios", { body: doc });
    const second = await h.call("POST", "/sandbox/v1/scenarios", { body: doc });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.data.merchants.a.api_key).not.toBe(second.body.data.merchants.a.api_key);
    expect(first.body.data.objects.link).toMatch(/^CHK_/);
  });

  it("an invalid scenario is a VALIDATION_ERROR naming the path, and creates no merchant", async () => {
    const h = harness();
    const before = h.registry.list().length;
    const bad = await h.call("POST", "/sandbox/v1/scenarios", { body: { name: "x", merchants: { a: { limits: { payout_min: -1 } } } } });
    expect(expectError(bad, 422, "VALIDATION_ERROR").errors).toHaveProperty(["merchants.a.limits.payout_min"]);
    // Fails half-way (a card for a cardholder who is not approved): the merchant made first is removed.
    const halfway = await h.call("POST", "/sandbox/v1/scenarios", {
      body: {
        name: "y",
        merchants: { a: {} },
        cardholders: [{ as: "h", first_name: "A", last_name: "B", email: "a@b.co" }],
        cards: [{ as: "c", cardholder: "h" }],
      },
    });
    expect(expectError(halfway, 422, "VALIDATION_ERROR").message).toContain("KYC_NOT_APPROVED");
    expect(h.registry.list().length).toBe(before);
    const yamlError = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: "name: [unclosed" } });
    expect(expectError(yamlError, 422, "VALIDATION_ERROR").message).toContain("not valid YAML");
  });
});
