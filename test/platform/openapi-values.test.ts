/**
 * Every value the document states is read from the rule that enforces it. Each case changes rule
 * constants in their domain module (mocked: no file is edited), builds the document again, and expects
 * exactly the baseline with each old rendering replaced by the new one: a copied value stays old, and
 * the case fails at the first copy.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

async function documentText(): Promise<string> {
  vi.resetModules();
  const { createApp } = await import("../../src/app.js");
  const { openApiDocument } = await import("../../src/http/openapi-document.js");
  const { buildRegistry } = await import("../../src/server.js");
  return JSON.stringify(openApiDocument(createApp({ registry: buildRegistry({}).registry }), "http://127.0.0.1:4010"));
}

type Exports = Record<string, any>;
interface Case {
  rule: string;
  module: string;
  /**
   * The new exports. A value the module also reads itself (DEFAULTS inside newMerchantConfig) is changed
   * in place, so the module's own functions see it too: each document is built from fresh modules.
   */
  change: (original: Exports) => Exports;
  /** Each rendering of the old value in the document, and what it must become. */
  renderings: Array<[from: string, to: string]>;
}

const LIMITS = "../../src/domain/limits.js";
const POLICY = "../../src/domain/webhook-policy.js";
const MERCHANT = "../../src/domain/merchant.js";
const OUTCOMES = "../../src/domain/outcomes.js";

const CASES: Case[] = [
  {
    rule: "the largest payout (DEFAULT_LIMITS.payout_max)",
    module: LIMITS,
    change: (m) => {
      m.DEFAULT_LIMITS.payout_max = 7_777_777;
      return {};
    },
    renderings: [
      ["(default 5000000)", "(default 7777777)"],
      ["5,000,000", "7,777,777"],
      ["NGN 5000000.00", "NGN 7777777.00"],
      ['"payout_max":5000000', '"payout_max":7777777'],
      ["500000000", "777777700"], // kobo, in the snapshot example's limits
    ],
  },
  {
    rule: "how long a payment link stays valid (CHECKOUT_VALIDITY_MS)",
    module: LIMITS,
    change: () => ({ CHECKOUT_VALIDITY_MS: 45 * 60_000 }),
    renderings: [["30 minutes", "45 minutes"]],
  },
  {
    rule: "the webhook retry schedule (DEFAULT_RETRY_SCHEDULE_SECONDS)",
    module: POLICY,
    change: () => ({ DEFAULT_RETRY_SCHEDULE_SECONDS: [5, 10] }),
    renderings: [
      ["[60, 300, 1800, 7200, 21600, 86400]", "[5, 10]"],
      ["[60,300,1800,7200,21600,86400]", "[5,10]"],
      ["60, 300, 1800, 7200, 21600, 86400", "5, 10"],
      ["1 min, 5 min, 30 min, 2 h, 6 h and 24 h", "5 s and 10 s"],
      ["about 33 hours", "about 0 hours"],
    ],
  },
  {
    rule: "the default VTU settlement delay (DEFAULTS.delays.vtu_settlement_seconds)",
    module: MERCHANT,
    change: (m) => {
      m.DEFAULTS.delays.vtu_settlement_seconds = 95;
      return {};
    },
    renderings: [
      ["`delays.vtu_settlement_seconds`, 60 s by default", "`delays.vtu_settlement_seconds`, 95 s by default"],
      ["VTU processing -> settled (default 60)", "VTU processing -> settled (default 95)"],
      ["| `delays.vtu_settlement_seconds` | 60 |", "| `delays.vtu_settlement_seconds` | 95 |"],
      ["`delays.vtu_settlement_seconds` (60 by default)", "`delays.vtu_settlement_seconds` (95 by default)"],
      ['"vtu_settlement_seconds":60', '"vtu_settlement_seconds":95'],
    ],
  },
];

afterEach(() => {
  for (const module of [LIMITS, POLICY, MERCHANT, OUTCOMES]) vi.doUnmock(module);
  vi.resetModules();
});

/** The first place two texts differ, with some context on each side. */
function firstDifference(actual: string, expected: string) {
  let at = 0;
  while (at < expected.length && actual[at] === expected[at]) at++;
  return { actual: actual.slice(Math.max(0, at - 160), at + 160), expected: expected.slice(Math.max(0, at - 160), at + 160) };
}

describe("the document follows the rules", () => {
  it.each(CASES)("$rule", async ({ module, change, renderings }) => {
    const baseline = await documentText();
    for (const [from] of renderings) expect(baseline.includes(from), `the baseline states ${from}`).toBe(true);
    vi.doMock(module, async (importOriginal) => {
      const original = (await importOriginal()) as Exports;
      return { ...original, ...change(original) };
    });
    const changed = await documentText();
    const expected = renderings.reduce((text, [from, to]) => text.replaceAll(from, to), baseline);
    const diff = firstDifference(changed, expected);
    expect(diff.actual, "the changed document, around the first value that did not follow").toBe(diff.expected);
  });

  it("a new magic account ending is documented with its description", async () => {
    vi.doMock(OUTCOMES, async (importOriginal) => {
      const original = (await importOriginal()) as Exports;
      const magic = { ...original.PAYOUT_MAGIC, "0011": { ...original.PAYOUT_MAGIC["0001"], description: "fail at settlement (the drift test's own ending)" } };
      return { ...original, PAYOUT_MAGIC: magic };
    });
    const changed = await documentText();
    expect(changed).toContain("`0011`");
    expect(changed).toContain("fail at settlement (the drift test's own ending)");
  });
});
