/**
 * The README is part of the product: its tables match the code, its examples work as written, its
 * TypeScript compiles, its links and file references resolve.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultOf, SETTING_KEYS } from "../../src/config.js";
import { harness } from "../helpers.js";
import { openApiDocument } from "../openapi-check.js";

const readme = readFileSync("README.md", "utf8");

/** The text of one `## ` section (up to the next `## `). */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}`);
  expect(start, `README section "## ${title}"`).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Fenced code blocks of a language, in order. */
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");

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

  it("has prerequisites, the two-line quick start and the Sandbox choices table", () => {
    expect(section("Prerequisites")).toMatch(/Node\.js 20 or later/);
    expect(section("Quick start")).toContain("```sh\nnpm ci && npm start\nnpm ci && npm test\n```");
    expect(readme).toContain("## Sandbox choices");
  });

  it("has a table of contents whose links all land on a heading, and that names every section", () => {
    const headings = [...readme.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => ({ level: m[1]!.length, text: m[2]! }));
    const anchors = new Set(headings.map((h) => slug(h.text)));
    const links = [...section("Contents").matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    for (const link of links) expect(anchors.has(link), `#${link}`).toBe(true);
    const top = headings.filter((h) => h.level === 2 && h.text !== "Contents").map((h) => slug(h.text));
    expect(new Set(links)).toEqual(new Set(top));
  });

  it("names every route of the OpenAPI document in its endpoint and control-API tables", () => {
    const rows = readme.split("\n").filter((l) => /^\| (GET|POST|PUT|PATCH|DELETE) \|/.test(l));
    for (const [path, ops] of Object.entries(openApiDocument().paths)) {
      for (const method of Object.keys(ops)) {
        const listed = rows.some((r) => r.startsWith(`| ${method.toUpperCase()} |`) && (r.includes(`\`${path}\``) || r.includes(`\`${path}?`)));
        expect(listed, `${method.toUpperCase()} ${path} in a README table`).toBe(true);
      }
    }
  });

  it("refers only to files that exist", () => {
    const roots = "src|test|examples|scenarios|fixtures|bench|tools|vendor|\\.ci";
    const refs = new Set([...readme.matchAll(new RegExp(`\`((?:${roots})/[^\`\\s]*)\``, "g"))].map((m) => m[1]!));
    for (const bare of readme.matchAll(/`((?:[A-Z][A-Za-z]*|[a-z-]+\.(?:json|md|yaml|ts|mjs))(?:\.md)?)`/g)) {
      if (/^(Dockerfile|LICENSE|DESIGN\.md|package\.json|package-lock\.json|tsconfig\.json|vitest\.config\.ts)$/.test(bare[1]!)) refs.add(bare[1]!);
    }
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) {
      if (ref.includes("*")) {
        const dir = dirname(ref);
        const pattern = new RegExp(`^${ref.slice(dir.length + 1).replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
        expect(existsSync(dir) && readdirSync(dir).some((f) => pattern.test(f)), ref).toBe(true);
      } else {
        expect(existsSync(ref.replace(/\/$/, "")), ref).toBe(true);
      }
    }
  });

  it("its TypeScript snippets type-check against the built package", () => {
    const snippets = blocks(readme, "ts");
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    const dir = join(".tmp", "readme-snippets");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    snippets.forEach((code, i) => writeFileSync(join(dir, `snippet-${i + 1}.ts`), code));
    // Inside this package, so `import ... from "merchant-sandbox"` resolves to dist/ through package.json "exports".
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: { noEmit: true, rootDir: "." }, include: ["*.ts"] }));
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("runs every call of 'First calls', in order, against the demo merchant", async () => {
    const h = harness();
    const demo = h.demo();
    const text = blocks(section("First calls"), "sh").join("\n").replace(/\\\n\s*/g, " ");
    const shellVars = Object.fromEntries([...text.matchAll(/^(\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(shellVars).toEqual({ BASE: "http://127.0.0.1:4010", KEY: demo.apiKey, SECRET: demo.apiSecret });
    const placeholders: Record<string, string> = {};
    const calls = text.split("\n").filter((l) => l.startsWith("curl "));
    expect(calls.length).toBeGreaterThanOrEqual(9);
    for (const line of calls) {
      const method = /-X (\w+)/.exec(line)?.[1] ?? "GET";
      const url = /\$BASE(\S+)/.exec(line)![1]!.replace(/[A-Z_]{6,}/g, (name) => placeholders[name] ?? name);
      const body = /-d '([^']*)'/.exec(line)?.[1];
      expect(line).toContain('-H "X-Api-Key: $KEY" -H "X-Api-Secret: $SECRET"');
      const res = await demo.call(method, url, body === undefined ? {} : { body: JSON.parse(body) });
      expect(res.status, `${method} ${url} -> ${JSON.stringify(res.body)}`).toBeLessThan(300);
      if (res.body.data?.account_number && url.includes("virtual-account/create")) placeholders.ACCOUNT_NUMBER = res.body.data.account_number;
    }
    expect(placeholders.ACCOUNT_NUMBER).toMatch(/^\d{10}$/);
  });
});
