/**
 * `--seed` also seeded API keys and secrets, so the n-th
 * sign-up on any sandbox started with the same seed got the same api_key, api_secret and
 * webhook_secret: anyone who knew the seed (it is in a CI file) could act as that merchant. A seed
 * now makes identifiers deterministic (merchant ids, references, account numbers, PANs), never
 * credentials, which always come from the CSPRNG; a scenario that names its own keys keeps them.
 */
import { describe, expect, it } from "vitest";
import { loadScenario, validateScenario } from "../../src/scenarios/load.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { Registry } from "../../src/engine/registry.js";
import { harness, type Merchant } from "../helpers.js";

const credentials = (m: Merchant) => [m.apiKey, m.apiSecret, m.webhookSecret];

describe("--seed and credentials", () => {
  it("the n-th sign-up of two sandboxes with one seed: same merchant id and identifiers, different keys and secrets", async () => {
    const one = harness({ seed: "s" });
    const two = harness({ seed: "s" });
    for (let n = 0; n < 3; n++) {
      const a = await one.merchant({ kyc: { bvn: "22212345678" } });
      const b = await two.merchant({ kyc: { bvn: "22212345678" } });
      expect(b.id).toBe(a.id);
      expect(a.apiKey).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
      expect(a.apiSecret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
      expect(a.webhookSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      for (const [i, secret] of credentials(b).entries()) expect(secret).not.toBe(credentials(a)[i]);

      // Identifiers stay deterministic: the same link reference and account numbers on both.
      const linkA = await a.call("POST", "/api/v1/checkout/create", { body: { amount: 1_000 } });
      const linkB = await b.call("POST", "/api/v1/checkout/create", { body: { amount: 1_000 } });
      expect(linkB.body.reference).toBe(linkA.body.reference);
      const va = { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi" };
      const vaA = await a.call("POST", "/api/v1/virtual-account/create", { body: va });
      const vaB = await b.call("POST", "/api/v1/virtual-account/create", { body: va });
      expect(vaB.body.data.account_number).toBe(vaA.body.data.account_number);

      // Each sandbox's keys work there, and not on the other sandbox.
      expect((await one.call("GET", "/sandbox/v1/merchant", { headers: { "x-api-key": b.apiKey, "x-api-secret": b.apiSecret } })).status).toBe(401);
      expect((await a.call("GET", "/sandbox/v1/merchant")).body.data.api_key).toBe(a.apiKey);
    }
    // Within one sandbox every sign-up gets its own credentials too.
    expect(new Set(one.registry.list().map((t) => t.config.api_secret)).size).toBe(one.registry.size);
  });

  it("`run` (keys from the scenario's seed): the same merchant ids, different keys on every load", () => {
    const catalog = loadCatalog();
    const scenario = validateScenario({ name: "seeded", seed: "ci-seed", merchants: { shop: {}, other: {} } }, "test");
    const loadMerchants = () => loadScenario(new Registry({ catalog, seed: "s" }), scenario, { source: "test", seededKeys: true }).merchants;
    const [first, second] = [loadMerchants(), loadMerchants()];
    for (const alias of ["shop", "other"]) {
      const a = first.get(alias)!.config;
      const b = second.get(alias)!.config;
      expect(b.merchant_id).toBe(a.merchant_id);
      expect(b.api_key).not.toBe(a.api_key);
      expect(b.api_secret).not.toBe(a.api_secret);
      expect(b.webhook_secret).not.toBe(a.webhook_secret);
    }
  });

  it("a scenario that names its own keys and webhook secret keeps them, seed or not", async () => {
    const h = harness({ seed: "s" });
    const named = { api_key: "pk_test_fixed_key_0001", api_secret: "sk_test_fixed_secret_0001", webhook_secret: "whsec_fixed_secret_0001" };
    const res = await h.call("POST", "/sandbox/v1/scenarios", {
      body: { name: "own keys", seed: "s", merchants: { shop: { ...named, wallet_balance: 42 }, plain: {} } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.merchants.shop).toEqual({ merchant_id: expect.stringMatching(/^mch_/), ...named });
    const headers = { "x-api-key": named.api_key, "x-api-secret": named.api_secret };
    const me = await h.call("GET", "/sandbox/v1/merchant", { headers });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ ...named, wallet_balance: 42 });
    // The merchant without named keys gets fresh ones.
    expect(res.body.data.merchants.plain.api_key).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);

    const run = loadScenario(new Registry({ catalog: loadCatalog() }), validateScenario({ name: "own keys", seed: "s", merchants: { shop: named } }, "test"), { source: "test", seededKeys: true });
    expect(run.merchants.get("shop")!.config).toMatchObject(named);
  });
});
