/**
 * A scenario with two misspelt keys (a merchant's `wallet_balanse`, a step's `advanse`) was refused for
 * the first only, as `Unrecognized key: "wallet_balanse"` at the key's parent, with no word of the key
 * meant; fixing it revealed the second. Now every problem is reported at once, each at its own path,
 * with the known key an unknown one is near, on every way a scenario comes in: `run FILE`, `start
 * --scenario FILE`, and POST /sandbox/v1/scenarios (YAML text, a JSON document, `{ yaml }`).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectError, harness, runCli, tempDirs } from "../helpers.js";

const TYPOS_YAML = `name: Two typos
merchants:
  shop: { business_name: Mama Put Foods Ltd, wallet_balanse: 5000 }
steps:
  - advance: { by: 1m }
  - expect_balance: { balance: 5000 }
  - advanse: { by: 1m }
`;
const TYPOS = {
  name: "Two typos",
  merchants: { shop: { business_name: "Mama Put Foods Ltd", wallet_balanse: 5000 } },
  steps: [{ advance: { by: "1m" } }, { expect_balance: { balance: 5000 } }, { advanse: { by: "1m" } }],
};

const WALLET = "Unknown field. Did you mean `wallet_balance`?";
const ADVANCE = "Unknown field. Did you mean `advance`?";
/** What the CLI prints for a file: a count, then each problem on its own line under it. */
const listing = (file: string) => `${file}: 2 problems:\n    at merchants.shop.wallet_balanse: ${WALLET}\n    at steps.2.advanse: ${ADVANCE}`;

const tempDir = tempDirs("msb-typos-");
const typosFile = async () => {
  const file = join(await tempDir(), "typos.yaml");
  await writeFile(file, TYPOS_YAML);
  return file;
};

describe("a scenario with two misspelt keys reports both, each with the key it was meant to be", () => {
  it("merchant-sandbox run FILE: FAIL with both problems, exit 1", async () => {
    const file = await typosFile();
    const res = await runCli(["run", file]);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stdout).toContain(`FAIL ${file}\n  ${listing(file)}\n`);
  });

  it("merchant-sandbox start --scenario FILE: does not start, prints both, exit 1", async () => {
    const file = await typosFile();
    const res = await runCli(["start", "--scenario", file, "--port", "0"]);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).toBe(`merchant-sandbox: ${listing(file)}\n`);
    expect(res.stdout).not.toContain("listening");
  });

  it.each([
    ["YAML text (application/yaml)", { raw: TYPOS_YAML, headers: { "content-type": "application/yaml" } }],
    ["a JSON document", { body: TYPOS }],
    ["JSON { yaml }", { body: { yaml: TYPOS_YAML } }],
  ])("POST /sandbox/v1/scenarios with %s: 422 with both under their paths, no merchant made", async (_, request) => {
    const h = harness();
    const before = h.registry.size;
    const res = expectError(await h.call("POST", "/sandbox/v1/scenarios", request), 422, "VALIDATION_ERROR");
    expect(res.message).toBe("The scenario is invalid: 2 problems, each under its path in errors.");
    expect(res.errors).toEqual({ "merchants.shop.wallet_balanse": [WALLET], "steps.2.advanse": [ADVANCE] });
    expect(h.registry.size).toBe(before);
  });
});
