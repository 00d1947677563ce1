/**
 * `merchant-sandbox --version` (and `-v`) prints the installed package's version and exits 0, from the
 * sources and from the built single-file CLI, which finds its package.json the way it finds its assets.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers.js";

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

describe("merchant-sandbox --version", () => {
  it.each(["--version", "-v"])("%s prints the package's version and exits 0", async (flag) => {
    const result = await runCli([flag]);
    expect(result.stdout).toBe(`${VERSION}\n`);
    expect(result.code).toBe(0);
  });

  it("the built CLI says the same", () => {
    expect(execFileSync(process.execPath, ["dist/cli.mjs", "--version"], { encoding: "utf8" })).toBe(`${VERSION}\n`);
  });

  it("the help lists it", async () => {
    expect((await runCli(["--help"])).stdout).toContain("merchant-sandbox --version");
  });
});
