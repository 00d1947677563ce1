/**
 * The built CLI on the other supported Node lines than this machine's (20): Node 22 and 24, fetched
 * from the npm registry, each run tools/smoke.mjs against the packed package's `dist/cli.mjs` (a
 * production install, as npx makes it, so a start that mends the code cache for its own Node writes
 * there, never into this checkout's dist/). The flow: start, a name enquiry and a payout, the clock
 * advanced so it completes, and its webhook's signature verified. CI runs the same script on 20 and 22.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { repoFile } from "../helpers.js";
import { runSmoke, usePackedInstall } from "./consumer.js";
import { nodeReleaseOrSkip } from "./node-release.js";

const engines = (JSON.parse(readFileSync(repoFile("package.json"), "utf8")) as { engines: { node: string } }).engines.node;
const installed = usePackedInstall("--omit=dev");

describe("the built CLI on each current Node line", () => {
  for (const major of [22, 24]) {
    it(`Node ${major}: starts, and a payout completes with a verified webhook`, async (ctx) => {
      const node = await nodeReleaseOrSkip(major, ctx);
      if (!node) return;
      const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
      expect(semver.satisfies(version, engines), `${version} is outside engines "${engines}"`).toBe(true);
      const { code, output } = await runSmoke(installed.app, [node, join(installed.app, "node_modules/merchant-sandbox/dist/cli.mjs"), "start", "--port", "0"], node);
      expect(code, output).toBe(0);
      expect(output).toContain(`this script on Node ${version}`);
      expect(output).toContain("signature verified");
    }, 300_000);
  }
});
