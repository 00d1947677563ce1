/**
 * Scenario errors: every problem of a file at once, each at its path, an unknown key with the known key
 * it is near ("did you mean"), a step that fits no shape explained by the shape meant, and the loader's
 * own refusals (unknown merchants and names) gathered the same way, one cause reported once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Registry } from "../../src/engine/registry.js";
import { closestName, editDistance } from "../../src/scenarios/closest-name.js";
import { loadScenario, parseScenario, ScenarioError, validateScenario } from "../../src/scenarios/load.js";
import { loadCatalog } from "../../src/store/fixtures.js";

/** The problems `parseScenario` (the file reader) finds in `text`, as "path: detail" lines. */
function problemsIn(text: string): string[] {
  try {
    parseScenario(text, "inline.yaml");
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return (err as ScenarioError).problems.map((p) => `${p.path}: ${p.detail}`);
  }
  throw new Error("expected a ScenarioError");
}

describe("editDistance (optimal string alignment)", () => {
  it.each([
    ["kitten", "sitting", 3],
    ["advanse", "advance", 1],
    ["wallet_balanse", "wallet_balance", 1],
    ["merchnat", "merchant", 1], // two neighbours swapped: one edit
    ["ca", "abc", 3], // OSA, unlike unrestricted Damerau, edits no substring twice
    ["", "abc", 3],
    ["same", "same", 0],
  ])("%s -> %s: %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it("is zero only for equal strings, symmetric, at least the difference in length and at most the longer length", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });

  it("one insertion, deletion, substitution or swap is one edit", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 2, maxLength: 12 }), fc.nat(), fc.constantFrom("x", "é", "_"), (s, at, c) => {
        const i = at % s.length;
        expect(editDistance(s, s.slice(0, i) + c + s.slice(i))).toBe(1);
        expect(editDistance(s, s.slice(0, i) + s.slice(i + 1))).toBe(1);
        if (s[i] !== c) expect(editDistance(s, s.slice(0, i) + c + s.slice(i + 1))).toBe(1);
        if (i + 1 < s.length && s[i] !== s[i + 1]) expect(editDistance(s, s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2))).toBe(1);
      }),
    );
  });
});

describe("closestName", () => {
  const STEP = ["name", "request", "expect", "capture", "advance", "expect_webhook", "expect_balance"];
  it("finds the key a typo stands for, case aside", () => {
    expect(closestName("advanse", STEP)).toBe("advance");
    expect(closestName("Advance", STEP)).toBe("advance");
    expect(closestName("expect_balanse", STEP)).toBe("expect_balance");
    expect(closestName("reqeust", STEP)).toBe("request");
    expect(closestName("bx", ["merchant", "seconds", "by", "to"])).toBe("by");
  });

  it("claims nothing for another word, a prefix, a short name two edits away, or a name longer than any field", () => {
    expect(closestName("wallet", ["wallet_balance"])).toBeUndefined();
    expect(closestName("delay", ["delay_seconds"])).toBeUndefined();
    expect(closestName("to", ["by"])).toBeUndefined();
    expect(closestName("colour", STEP)).toBeUndefined();
    expect(closestName("a".repeat(100_000), ["a".repeat(100_000)])).toBeUndefined();
  });

  it("prefers the nearest, then the first known", () => {
    expect(closestName("seconds", ["second", "seconds_"])).toBe("second");
    expect(closestName("abcd_x", ["abcd_y", "abcd_z"])).toBe("abcd_y");
  });
});

describe("the schema's problems, all at once", () => {
  it("each at its path, in the file's sections, with the key an unknown one is near", () => {
    const text = [
      "name: x",
      "merchants:",
      "  shop: { wallet_balanse: 5, limits: { payout_min: -1 } }",
      "  bad alias: {}",
      "virtual_accounts:",
      "  - { as: a, email: nope, reference: r, frist_name: A }",
      "timeline:",
      "  - { at: 5m, transfer: { to: a, amount: 5 } }",
      "  - { at: +5m }",
      "",
    ].join("\n");
    expect(problemsIn(text)).toEqual([
      "merchants.shop.limits.payout_min: Must be at least 0 Naira.",
      "merchants.shop.wallet_balanse: Unknown field. Did you mean `wallet_balance`?",
      "merchants.bad alias: Use letters, digits, _ and -, starting with a letter or _.",
      "virtual_accounts.0.email: Must be a valid email address.",
      "virtual_accounts.0.frist_name: Unknown field. Did you mean `first_name`?",
      'timeline.0.at: Use "+30s", "+5m", "+2h", "+1d" or an ISO time.',
      "timeline.1: Each timeline entry has exactly one of transfer or pay_link.",
    ]);
  });

  it("a step is explained by the shape meant: its misspelt kind, its own fields, or the kinds when none is meant", () => {
    const text = [
      "name: x",
      "merchants: { shop: {} }",
      "steps:",
      "  - { advanse: { by: 1m } }",
      "  - { foo: 1 }",
      "  - {}",
      "  - { advance: {}, expect_balance: { balance: 1 } }",
      "  - { advance: { bx: 1m, merchnat: shop }, expect: {} }",
      "  - { request: { method: GTE, pth: /x } }",
      "  - { request: { method: GET, path: /x }, expect: { connection: timeout } }",
      "",
    ].join("\n");
    const kinds = "expected exactly one of request, advance, expect_webhook, expect_balance";
    expect(problemsIn(text)).toEqual([
      "steps.0.advanse: Unknown field. Did you mean `advance`?",
      `steps.1: ${kinds}`,
      "steps.1.foo: Unknown field.",
      `steps.2: ${kinds}`,
      `steps.3: ${kinds}`,
      "steps.4.advance.bx: Unknown field. Did you mean `by`?",
      "steps.4.advance.merchnat: Unknown field. Did you mean `merchant`?",
      // expect belongs with a request, not beside an advance
      "steps.4.expect: Unknown field.",
      'steps.5.request.method: Invalid option: expected one of "GET"|"POST"|"PUT"|"PATCH"|"DELETE"',
      "steps.5.request.path: Required.",
      "steps.5.request.pth: Unknown field. Did you mean `path`?",
      "steps.6.request.timeout_seconds: expect connection: timeout needs request.timeout_seconds, the client's time-out.",
    ]);
  });

  it("a document that is not a mapping says what a scenario is", () => {
    expect(problemsIn("")).toEqual([": expected a scenario (a mapping with name, merchants...), got nothing"]);
    expect(problemsIn("- a\n- b\n")).toEqual([": expected a scenario (a mapping with name, merchants...), got a list"]);
    expect(problemsIn("just text\n")).toEqual([": expected a scenario (a mapping with name, merchants...), got string"]);
  });

  it("a JSON document gets the same problems as the same document in YAML (one validation for both)", () => {
    const doc = { name: "x", merchants: { shop: { wallet_balanse: 5 } }, steps: [{ advanse: { by: "1m" } }] };
    const fromJson = (() => {
      try {
        validateScenario(doc, "inline.yaml");
      } catch (err) {
        return (err as ScenarioError).problems.map((p) => `${p.path}: ${p.detail}`);
      }
    })();
    expect(fromJson).toEqual(problemsIn(JSON.stringify(doc)));
    expect(fromJson).toHaveLength(2);
  });

  it("a single problem keeps the one-line form: file, path, detail", () => {
    expect(() => parseScenario("name: x\nmerchants: { shop: { wallet_balanse: 5 } }\n", "inline.yaml")).toThrow(
      new ScenarioError("inline.yaml", [{ path: "merchants.shop.wallet_balanse", detail: "Unknown field. Did you mean `wallet_balance`?" }]),
    );
    expect(new ScenarioError("f.yaml", [{ path: "a.b", detail: "bad." }]).message).toBe("f.yaml: at a.b: bad.");
  });
});

describe("the loader's problems, all at once", () => {
  const catalog = loadCatalog();
  const loadErrorOf = (text: string): { err: ScenarioError; registry: Registry } => {
    const registry = new Registry({ catalog });
    try {
      loadScenario(registry, parseScenario(text, "inline.yaml"), { source: "inline.yaml", seededKeys: true });
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      return { err: err as ScenarioError, registry };
    }
    throw new Error("expected a ScenarioError");
  };

  it("unknown merchants and names everywhere in the file, each reported, nothing left in the registry", () => {
    const text = [
      "name: x",
      "merchants: { shop: { kyc: { bvn: '22212345678' } }, other: {} }",
      "virtual_accounts:",
      "  - { merchant: ghost, as: a, email: a@example.com, reference: r1, first_name: A, last_name: B }",
      "  - { merchant: shop, as: b, email: b@example.com, reference: r2, first_name: A, last_name: B }",
      "payment_links:",
      "  - { merchant: shop, as: b, amount: 500 }",
      "timeline:",
      "  - { at: +1m, merchant: shop, transfer: { to: nowhere, amount: 5 } }",
      "  - { at: +1m, merchant: shop, pay_link: { link: missing } }",
      "steps:",
      "  - expect_balance: { balance: 1 }",
      "  - advance: { merchant: phantom, by: 1m }",
      "",
    ].join("\n");
    const { err, registry } = loadErrorOf(text);
    expect(err.problems).toEqual([
      { path: "virtual_accounts.0.merchant", detail: 'unknown merchant "ghost"' },
      { path: "payment_links.0.as", detail: 'the name "b" is already used' },
      { path: "timeline.0.transfer.to", detail: 'no virtual account "nowhere"' },
      { path: "timeline.1.pay_link.link", detail: 'no payment link "missing"' },
      { path: "steps.0.expect_balance.merchant", detail: "name the merchant: one of shop, other" },
      { path: "steps.1.advance.merchant", detail: 'unknown merchant "phantom"' },
    ]);
    expect(err.message.split("\n")[0]).toBe("inline.yaml: 6 problems:");
    expect(registry.size).toBe(0);
  });

  it("what depends on a failed entry is skipped, so one mistake is reported once", () => {
    const text = [
      "name: x",
      "merchants: { shop: {} }",
      "cardholders:",
      "  - { merchant: ghost, as: holder, first_name: A, last_name: B, email: a@example.com, approved: true }",
      "cards:",
      "  - { as: card, cardholder: holder }",
      "virtual_accounts:",
      "  - { as: acct, email: a@example.com, reference: r1 }",
      "timeline:",
      "  - { at: +1m, transfer: { to: acct, amount: 5 } }",
      "",
    ].join("\n");
    const { err } = loadErrorOf(text);
    // In the order the loader makes things: virtual accounts, cardholders, cards, links, rules, timeline.
    expect(err.problems.map((p) => p.path)).toEqual(["virtual_accounts.0", "cardholders.0.merchant"]);
    expect(err.problems[0]!.detail).toMatch(/^KYC_REQUIRED: /);
  });
});
