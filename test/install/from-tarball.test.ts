/**
 * `npm i -D` of the packed package (`npm pack` of this working tree, as npm would publish it) in an
 * empty project: `npx merchant-sandbox start` serves the payout-to-webhook flow of tools/smoke.mjs,
 * and the testing helper runs in a node:test file as the docs show it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHelperTest, runSmoke, usePackedInstall } from "./consumer.js";

const installed = usePackedInstall("-D");

describe("npm i -D of the packed tarball", () => {
  it("records it as a dev dependency", () => {
    const pkg = JSON.parse(readFileSync(join(installed.app, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
    expect(pkg.devDependencies?.["merchant-sandbox"]).toMatch(/^file:.*merchant-sandbox-.*\.tgz$/);
  });

  it("gives a working `npx merchant-sandbox start`: a payout completes and its webhook verifies", async () => {
    const { code, output } = await runSmoke(installed.app, ["npx", "merchant-sandbox", "start", "--port", "0"]);
    expect(code, output).toBe(0);
    expect(output).toContain("signature verified");
  }, 180_000);

  it("gives the testing helper (merchant-sandbox/testing) and the main export", async () => {
    const { code, output } = await runHelperTest(installed.app);
    expect(code, output).toBe(0);
    expect(output).toMatch(/# pass 1\b/);
  }, 90_000);
});
