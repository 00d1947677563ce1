/** The README is part of the product: its configuration table must match the settings schema. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultOf, SETTING_KEYS } from "../src/config.js";

const readme = readFileSync("README.md", "utf8");

describe("README", () => {
  it("lists every setting with its flag, environment variable and default", () => {
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("### Merchant settings"));
    const rows = new Map(
      [...table.matchAll(/^\| `--([\w-]+)` \| `(MERCHANT_SANDBOX_\w+)` \| (`[^`]*`)? ?\|/gm)].map((m) => [m[1]!, { env: m[2]!, def: m[3]?.slice(1, -1) ?? "" }]),
    );
    for (const key of SETTING_KEYS) {
      const flag = key.replaceAll("_", "-");
      expect(rows.get(flag), `README row for --${flag}`).toEqual({ env: `MERCHANT_SANDBOX_${key.toUpperCase()}`, def: defaultOf(key) });
    }
    expect([...rows.keys()].sort()).toEqual([...SETTING_KEYS.map((k) => k.replaceAll("_", "-")), "config"].sort());
  });

  it("has the two-line quick start and the Sandbox choices table", () => {
    const quick = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Configuration"));
    expect(quick).toContain("```sh\nnpm ci && npm start\nnpm ci && npm test\n```");
    expect(readme).toContain("## Sandbox choices");
  });
});
