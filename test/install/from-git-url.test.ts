/**
 * `npm i -D git+file://...` of a fresh clone of this repository's HEAD, as a user installs it from its
 * git URL before a release reaches npm. npm clones it, installs its dev dependencies and runs `prepare`
 * (the build) in that clone, then packs and installs the result: the longest install a user meets, so
 * one test covers both what it gives, `npx merchant-sandbox start` (tools/smoke.mjs: a payout completes
 * and its webhook verifies) and the testing helper in a node:test file, as the docs show them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers.js";
import { consumerProject, npmInstall, runHelperTest, runSmoke } from "./consumer.js";

const dir = mkdtempSync(join(tmpdir(), "msb-git-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

describe("npm i -D from a git URL", () => {
  it("builds the package (prepare) and gives `npx merchant-sandbox start` and the testing helper", async () => {
    const clone = join(dir, "merchant-sandbox");
    execFileSync("git", ["clone", "--quiet", REPO_ROOT, clone], { stdio: "ignore" });
    const app = consumerProject(dir);
    const url = `git+file://${clone}`;
    const began = Date.now();
    // --prefer-offline reaches the clone's own install too (npm passes it on): the registry is asked
    // only for what this machine's npm cache lacks.
    await npmInstall(app, ["-D", "--prefer-offline", url], 540_000);
    console.info(`npm i -D ${url}: ${((Date.now() - began) / 1000).toFixed(0)} s, build included`);
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
    expect(pkg.devDependencies?.["merchant-sandbox"]).toBe(url);
    expect(existsSync(join(app, "node_modules/merchant-sandbox/dist/cli.mjs")), "prepare built dist/").toBe(true);

    const smoke = await runSmoke(app, ["npx", "merchant-sandbox", "start", "--port", "0"]);
    expect(smoke.code, smoke.output).toBe(0);
    expect(smoke.output).toContain("signature verified");

    const helper = await runHelperTest(app);
    expect(helper.code, helper.output).toBe(0);
    expect(helper.output).toMatch(/# pass 1\b/);
  }, 720_000);
});
