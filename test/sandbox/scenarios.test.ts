/**
 * Scenarios: every example in scenarios/*.yaml passes; seeded runs are deterministic;
 * a broken file gives a ScenarioError naming the file and the path in the document; a failing
 * expectation is reported with a readable diff; `merchant-sandbox run` exits 0 or 1; and
 * POST /sandbox/v1/scenarios loads a scenario into new merchants.
 */
import { readFileSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenario, parseScenario, readScenarioFile, ScenarioError } from "../../src/scenarios/load.js";
import { formatReport, runScenario, type ScenarioReport } from "../../src/cli/run-scenario.js";
import type { Scenario } from "../../src/scenarios/schema.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { Registry } from "../../src/engine/registry.js";
import { client } from "../client.js";
import { expectError, harness, repoFile, runCli, tempDirs } from "../helpers.js";

const SCENARIOS = repoFile("scenarios");
const FILES = readdirSync(SCENARIOS)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

/** The generated identifiers a report exposes: ids and references in the final state and the labels (which show substituted captures). */
function identifiersOf(report: ScenarioReport): string[] {
  const found: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === "string") {
      if (/(^id$|_id$|reference|account_number|virtual_account|order_no|token)/.test(key)) found.push(`${key}=${value}`);
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, key));
    else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(report.final, "");
  for (const step of report.steps) found.push(`label=${step.label}`);
  return found;
}

/** Service-generated ids such as TXN_..., PO_..., CHK_..., EVT_... found anywhere in the final state. */
function generatedIds(report: ScenarioReport): Set<string> {
  return new Set(JSON.stringify(report.final).match(/\b[A-Z]{2,4}_[0-9A-Z]{8,}\b/g) ?? []);
}

describe("example scenarios (scenarios/*.yaml)", () => {
  it("there are at least 11 examples", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(11);
  });

  it.each(FILES)("%s passes", async (file) => {
    const path = join(SCENARIOS, file);
    const scenario = readScenarioFile(path);
    expect(scenario.name.length).toBeGreaterThan(0);
    expect(scenario.seed, `${file} should have a seed`).toBeTruthy();
    const report = await runScenario(scenario, path);
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.steps.length, formatReport(report)).toBeGreaterThanOrEqual(1);
  });
});

/** Uses every kind of initial object, so the loader's identifiers, keys and PANs are covered too. */
const RICH = `
name: Determinism probe
seed: probe-1
merchants:
  shop:
    business_name: Probe Foods Ltd
    wallet_balance: 500000
    kyc: { bvn: "22212345678" }
  other:
    wallet_balance: 1000
virtual_accounts:
  - { as: acct, email: ada@example.com, reference: customer-ada, first_name: Ada, last_name: Obi, merchant: shop }
cardholders:
  - { as: holder, merchant: shop, first_name: Chi, last_name: Eze, email: chi@example.com, approved: true }
cards:
  - { as: card, merchant: shop, cardholder: holder, brand: MASTERCARD, fund: 20 }
payment_links:
  - { as: link, merchant: shop, amount: 2500 }
timeline:
  - { at: +1m, merchant: shop, transfer: { to: acct, amount: 4000, narration: Order 9 } }
  - { at: +2m, merchant: shop, pay_link: { link: link } }
steps:
  - request:
      merchant: shop
      method: POST
      path: /api/v1/payout/transfer
      body: { amount: 1000, bank_code: "058", account_number: "0123456785", account_name: EZE SEGUN FOLAKE, bank_name: Guaranty Trust Bank }
    expect: { status: 201 }
    capture: { payout_ref: data.reference }
  - request: { merchant: shop, method: GET, path: /api/v1/payout/status?reference=$payout_ref }
    expect: { status: 200 }
  - request: { merchant: shop, method: POST, path: /api/v1/vtu/electricity, body: { disco_id: 1, meter_number: "11111111111", meter_type: Prepaid, amount: 1000 } }
    expect: { status: 200, body: { status: success } }
  - request: { merchant: shop, method: POST, path: /api/v1/virtual-cards, body: { cardholder_id: $holder } }
    expect: { status: 200 }
  - advance: { merchant: shop, by: 5m }
  - expect_balance: { merchant: shop, balance: 470890 }
`;

describe("determinism", () => {
  it("the same seed gives byte-identical final state and identifiers; another seed gives other ids", async () => {
    const scenario = parseScenario(RICH, "inline.yaml");
    const first = await runScenario(scenario, "inline.yaml");
    const second = await runScenario(scenario, "inline.yaml");
    expect(first.ok, formatReport(first)).toBe(true);
    expect(JSON.stringify(second.final)).toBe(JSON.stringify(first.final));
    expect(JSON.stringify(second.steps)).toBe(JSON.stringify(first.steps));
    expect(identifiersOf(second)).toEqual(identifiersOf(first));
    expect(identifiersOf(first).length).toBeGreaterThan(10);

    const reseeded: Scenario = { ...structuredClone(scenario), seed: "probe-2" };
    const other = await runScenario(reseeded, "inline.yaml");
    expect(other.ok, formatReport(other)).toBe(true);
    expect(JSON.stringify(other.final)).not.toBe(JSON.stringify(first.final));
    expect(identifiersOf(other)).not.toEqual(identifiersOf(first));
    const ids = generatedIds(first);
    const otherIds = generatedIds(other);
    expect(ids.size).toBeGreaterThan(5);
    expect(otherIds.size).toBe(ids.size);
    expect([...otherIds].filter((id) => ids.has(id))).toEqual([]);
  });

  it("loading the same seeded scenario twice gives the same ids, account numbers, references and PANs (never the same keys)", () => {
    const scenario = parseScenario(RICH, "inline.yaml");
    const catalog = loadCatalog();
    const loadSummary = (s: Scenario) => {
      const loaded = loadScenario(new Registry({ catalog, seed: s.seed! }), s, { source: "inline.yaml", seededKeys: true });
      return {
        vars: loaded.vars,
        merchants: [...loaded.merchants].map(([alias, t]) => ({
          alias,
          id: t.id,
          accounts: [...t.state.virtualAccounts.keys()],
          checkouts: [...t.state.checkouts.values()].map((c) => [c.reference, c.account_number, c.transaction_id]),
          pans: [...t.state.cards.values()].map((c) => [c.pan, c.masked_pan, c.expiry_month, c.expiry_year]),
          ledger: t.state.ledger,
        })),
      };
    };
    const a = loadSummary(scenario);
    const b = loadSummary(scenario);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // Credentials come from the CSPRNG whatever the seed: a seed is shared, keys must not follow from it.
    const keysOf = (s: Scenario) => [...loadScenario(new Registry({ catalog, seed: s.seed! }), s, { source: "x", seededKeys: true }).merchants.values()].map((t) => t.config.api_secret);
    expect(keysOf(scenario)).not.toEqual(keysOf(scenario));
    const shop = a.merchants.find((m) => m.alias === "shop")!;
    expect(shop.accounts).toEqual([a.vars.acct]);
    expect(shop.pans).toHaveLength(1);
    expect(shop.pans[0]![0]).toMatch(/^5[1-5]\d{14}$/);

    const c = loadSummary({ ...structuredClone(scenario), seed: "probe-2" });
    const otherShop = c.merchants.find((m) => m.alias === "shop")!;
    expect(otherShop.id).not.toBe(shop.id);
    expect(c.vars.acct).not.toBe(a.vars.acct);
    expect(c.vars.link).not.toBe(a.vars.link);
    expect(otherShop.pans[0]![0]).not.toBe(shop.pans[0]![0]);
  });

  it.each(FILES)("%s gives byte-identical final state and identifiers when run twice, and other ids with another seed", async (file) => {
    const path = join(SCENARIOS, file);
    const scenario = readScenarioFile(path);
    const first = await runScenario(scenario, path);
    const second = await runScenario(scenario, path);
    expect(JSON.stringify(second.final)).toBe(JSON.stringify(first.final));
    expect(identifiersOf(second)).toEqual(identifiersOf(first));

    const other = await runScenario({ ...structuredClone(scenario), seed: `${scenario.seed}-reseeded` }, path);
    const ids = generatedIds(first);
    expect(ids.size).toBeGreaterThan(0);
    expect([...generatedIds(other)].filter((id) => ids.has(id))).toEqual([]);
    expect(JSON.stringify(other.final)).not.toBe(JSON.stringify(first.final));
  });
});

describe("scenario errors name the file, the path in the document and what was expected", () => {
  const errorOf = async (text: string): Promise<ScenarioError> => {
    try {
      await runScenario(parseScenario(text, "inline.yaml"), "inline.yaml");
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      return err as ScenarioError;
    }
    throw new Error("expected a ScenarioError");
  };

  it("a bad field: limits.payout_min of -1", async () => {
    const err = await errorOf("name: x\nmerchants:\n  shop:\n    limits: { payout_min: -1 }\n");
    expect(err.source).toBe("inline.yaml");
    expect(err.path).toBe("merchants.shop.limits.payout_min");
    expect(err.message).toBe("inline.yaml: at merchants.shop.limits.payout_min: Must be at least 0 Naira.");
  });

  it("invalid YAML names the line and column of each error", async () => {
    const err = await errorOf("name: x\nmerchants:\n  shop: { wallet_balance: 1\n  bad: [\n");
    expect(err.kind).toBe("syntax");
    expect(err.problems.map((p) => p.path)).toEqual(["line 4, column 3", "line 5, column 1"]);
    expect(err.message).toBe(
      "inline.yaml: 2 problems:\n" +
        "    at line 4, column 3: not valid YAML: Flow map in block collection must be sufficiently indented and end with a }\n" +
        "    at line 5, column 1: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );
    expect((await errorOf("name: x\nmerchants: { shop: {}\n")).message).toMatch(/^inline\.yaml: at line \d+, column \d+: not valid YAML: /);
  });

  it("an unknown key, a missing name and a bad time offset", async () => {
    const unknown = await errorOf("name: x\nmerchants:\n  shop: { wallet: 5 }\n");
    expect(unknown.message).toBe("inline.yaml: at merchants.shop.wallet: Unknown field.");
    const noName = await errorOf("merchants: { shop: {} }\n");
    expect(noName.message).toBe("inline.yaml: at name: Required.");
    const offset = await errorOf("name: x\nmerchants: { shop: {} }\ntimeline:\n  - at: 5m\n    transfer: { to: a, amount: 5 }\n");
    expect(offset.message).toBe('inline.yaml: at timeline.0.at: Use "+30s", "+5m", "+2h", "+1d" or an ISO time.');
  });

  it("an unknown merchant alias in an object or timeline line is refused at load", async () => {
    const va = await errorOf(
      'name: x\nmerchants: { shop: { kyc: { bvn: "22212345678" } } }\nvirtual_accounts:\n  - { merchant: ghost, as: a, email: a@example.com, reference: r, first_name: A, last_name: B }\n',
    );
    expect(va.message).toBe('inline.yaml: at virtual_accounts.0.merchant: unknown merchant "ghost"');
    const timeline = await errorOf("name: x\nmerchants: { shop: {} }\ntimeline:\n  - { at: +5m, merchant: ghost, transfer: { to: a, amount: 5 } }\n");
    expect(timeline.message).toBe('inline.yaml: at timeline.0.merchant: unknown merchant "ghost"');
  });

  it("a transfer that clears at once takes no outcome and no delay; its status is one of three", async () => {
    const transfer = (fields: string) => `name: x\nmerchants: { shop: {} }\ntimeline:\n  - { at: +5m, transfer: { to: a, amount: 5, ${fields} } }\n`;
    expect((await errorOf(transfer("outcome: failed"))).message).toBe(
      "inline.yaml: at timeline.0.transfer.outcome: Only a transfer that arrives pending or processing ends later: send status pending or processing, or leave this out.",
    );
    expect((await errorOf(transfer("status: success, settle_after_seconds: 5"))).path).toBe("timeline.0.transfer.settle_after_seconds");
    expect((await errorOf(transfer("status: cleared"))).message).toBe("inline.yaml: at timeline.0.transfer.status: Must be success, pending or processing.");
    expect((await errorOf(transfer("status: pending, settle_after_seconds: -5"))).path).toBe("timeline.0.transfer.settle_after_seconds");
  });

  it("an unknown object alias is refused at load", async () => {
    const err = await errorOf("name: x\nmerchants: { shop: {} }\ntimeline:\n  - { at: +5m, pay_link: { link: nowhere } }\n");
    expect(err.message).toBe('inline.yaml: at timeline.0.pay_link.link: no payment link "nowhere"');
  });

  it("an unknown merchant alias in a step is a ScenarioError naming the step", async () => {
    const scenario = parseScenario("name: x\nmerchants: { shop: {} }\nsteps:\n  - expect_balance: { merchant: ghost, balance: 1 }\n", "inline.yaml");
    await expect(runScenario(scenario, "inline.yaml")).rejects.toThrow('inline.yaml: at steps.0.expect_balance.merchant: unknown merchant "ghost"');
  });

  it("a misspelled step kind names the kind it was meant to be; a step of no kind lists them; a bad field inside a step names its path", () => {
    expect(() => parseScenario("name: x\nmerchants: { shop: {} }\nsteps:\n  - advnce: { by: 1m }\n", "inline.yaml")).toThrow(
      "inline.yaml: at steps.0.advnce: Unknown field. Did you mean `advance`?",
    );
    expect(() => parseScenario("name: x\nmerchants: { shop: {} }\nsteps:\n  - { name: nothing to do }\n", "inline.yaml")).toThrow(
      "inline.yaml: at steps.0: expected exactly one of request, advance, expect_webhook, expect_balance",
    );
    expect(() => parseScenario("name: x\nmerchants: { shop: {} }\nsteps:\n  - request: { method: FETCH, path: /x }\n", "inline.yaml")).toThrow(
      "inline.yaml: at steps.0.request.method",
    );
  });
});

describe("failing expectations", () => {
  it("make report.ok false and show a ✗ line with expected ... got ...", async () => {
    const text = `
name: Failing on purpose
seed: failing
merchants:
  shop: { wallet_balance: 1000 }
steps:
  - expect_balance: { balance: 1000 }
  - name: wrong balance
    expect_balance: { balance: 999 }
  - name: wrong status and body
    request: { method: GET, path: /api/v1/wallet/balance }
    expect: { status: 201, body: { data: { currency: USD } } }
`;
    const report = await runScenario(parseScenario(text, "inline.yaml"), "inline.yaml");
    expect(report.ok).toBe(false);
    expect(report.steps.map((s) => s.ok)).toEqual([true, false, false]);
    const out = formatReport(report);
    expect(out).toMatch(/^FAIL Failing on purpose \(inline\.yaml\)/);
    expect(out).toContain("  ✓ 1. balance 1000");
    expect(out).toContain("  ✗ 2. wrong balance\n      - balance: expected 999, got 1000");
    expect(out).toContain("  ✗ 3. wrong status and body");
    expect(out).toMatch(/- status: expected 201, got 200/);
    expect(out).toContain('- body.data.currency: expected "USD", got "NGN"');
  });
});

describe("merchant-sandbox run (CLI)", () => {
  const tempDir = tempDirs("merchant-sandbox-scenario-");

  it("exits 0 and prints PASS for a passing scenario", async () => {
    const res = await runCli(["run", "scenarios/01-virtual-account-funding.yaml"]);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain("PASS Virtual account funding with webhook");
    expect(res.stdout).toContain("1 scenario(s) passed, 0 failed");
  });

  it("exits 1 and prints FAIL with the diff for a failing scenario", async () => {
    const file = join(await tempDir(), "failing.yaml");
    await writeFile(file, "name: Failing on purpose\nmerchants:\n  shop: { wallet_balance: 1000 }\nsteps:\n  - expect_balance: { balance: 5 }\n");
    const res = await runCli(["run", file]);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stdout).toContain("FAIL Failing on purpose");
    expect(res.stdout).toContain("balance: expected 5, got 1000");
    expect(res.stdout).toContain("0 scenario(s) passed, 1 failed");
  });
});

describe("POST /sandbox/v1/scenarios", () => {
  const yaml = readFileSync("scenarios/01-virtual-account-funding.yaml", "utf8").replace("webhook_capture: {}", "webhook_url: null");

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
    const c = client(h.existing(shop.merchant_id));
    expect({ "x-api-key": c.merchant.apiKey, "x-api-secret": c.merchant.apiSecret }).toEqual(keys);
    // The timeline runs on the merchant's own (manual) clock, starting at the scenario's start.
    expect(await c.clock()).toMatchObject({ now: "2026-01-05T09:00:00.000Z", mode: "manual", pending_timers: 2 });
    await c.advance("10m");
    expect(await c.balance()).toBe(7_500.5);
  });

  it("a timeline transfer can arrive pending with its narration as sent, then clear on the merchant's clock", async () => {
    const h = harness();
    const doc = {
      name: "pending in",
      merchants: { shop: { wallet_balance: 0, kyc: { bvn: "22212345678" } } },
      virtual_accounts: [{ as: "acct", email: "ada@example.com", reference: "c-1", first_name: "Ada", last_name: "Obi" }],
      timeline: [
        { at: "+1m", transfer: { to: "acct", amount: 300, narration: "", status: "pending", settle_after_seconds: 120 } },
        { at: "+1m", transfer: { to: "acct", amount: 200, narration: "  rent  ", status: "processing", outcome: "failed" } },
      ],
    };
    const res = await h.call("POST", "/sandbox/v1/scenarios", { body: doc });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const c = client(h.existing(res.body.data.merchants.shop.merchant_id));
    await c.advance("1m");
    const payments = () => [...c.tenant.state.vaPayments.values()].map((p) => [p.reference, p.status]);
    expect(payments()).toEqual([["", "pending"], ["  rent  ", "processing"]]);
    expect(await c.balance()).toBe(0);
    await c.advance("1m"); // the processing one ends after the default 60 s
    expect(payments()).toEqual([["", "pending"], ["  rent  ", "failed"]]);
    await c.advance("1m");
    expect(payments()).toEqual([["", "success"], ["  rent  ", "failed"]]);
    expect(await c.balance()).toBe(300);
    expect((await c.events("payment.received")).map((e) => e.data)).toEqual([expect.objectContaining({ reference: "", amount: 300 })]);
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
    // The JSON is fine; its yaml field is what does not parse, so the field is named, with the line and column.
    const refused = expectError(yamlError, 422, "VALIDATION_ERROR");
    expect(refused.message).toMatch(/^The scenario is invalid: not valid YAML: line 1, column \d+: /);
    expect(Object.keys(refused.errors ?? {})).toEqual(["yaml"]);
  });
});
