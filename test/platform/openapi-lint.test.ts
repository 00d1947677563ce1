/**
 * The served /openapi.json passes the linters merchants' tooling runs, as configured in the
 * repository (.spectral.yaml: spectral:oas; redocly.yaml: recommended, one rule off with its reason):
 * no error and no warning. Both run from devDependencies.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { harness, repoFile, tempDirs } from "../helpers.js";

const run = promisify(execFile);
const tempDir = tempDirs("sandbox-lint-");

async function servedDocument(): Promise<string> {
  const res = await harness().app.request("http://127.0.0.1:4010/openapi.json") // as `npm start` serves it;
  expect(res.status).toBe(200);
  const file = join(await tempDir(), "openapi.json");
  writeFileSync(file, JSON.stringify(await res.json(), null, 2));
  return file;
}

/** Runs a CLI that exits non-zero when it finds problems; its JSON report is what counts. */
async function report(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(repoFile(`node_modules/.bin/${bin}`), args, { cwd: repoFile("."), maxBuffer: 64 << 20, timeout: 120_000 })).stdout;
  } catch (err) {
    const stdout = (err as { stdout?: string }).stdout;
    if (!stdout) throw err;
    return stdout;
  }
}

describe("the OpenAPI document lints clean", () => {
  it("Spectral (spectral:oas): no errors, no warnings, no hints", async () => {
    const file = await servedDocument();
    const out = await report("spectral", ["lint", file, "--ruleset", repoFile(".spectral.yaml"), "--format", "json", "--quiet"]);
    const problems = JSON.parse(out.trim() || "[]") as Array<{ code: string; message: string; path: string[] }>;
    expect(problems.map((p) => `${p.code} at ${p.path.join(".")}: ${p.message}`)).toEqual([]);
  });

  it("Redocly (recommended): no errors, no warnings", async () => {
    const file = await servedDocument();
    const out = await report("redocly", ["lint", file, "--config", repoFile("redocly.yaml"), "--format", "json"]);
    const result = JSON.parse(out.slice(out.indexOf("{"))) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    expect(result.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
