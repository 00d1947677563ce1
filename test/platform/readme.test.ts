/**
 * The README is the front door: short, with the two quick-start lines, and every common task at most
 * two links away. Every markdown page's links and file references resolve, and its TypeScript compiles.
 * (Its shell blocks run in test/docs/shell-blocks.test.ts; the reference pages are checked for
 * staleness in test/docs/reference-fresh.test.ts.)
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { PAYOUT_MAGIC } from "../../src/domain/outcomes.js";

const README_MAX_LINES = 250;
const readme = readFileSync("README.md", "utf8");

/** Every markdown page a user or contributor reads. */
const pages = [
  "README.md",
  "ARCHITECTURE.md",
  "CONTRIBUTING.md",
  ...readdirSync("docs", { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];

/** Fenced code blocks of a language, in order. */
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");

/** Text outside fenced code, where markdown links live. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, "");

/** Relative links of a page: `[text](target)` and `<img src="target">`, resolved against the page. */
function linksOf(page: string): { target: string; anchor?: string }[] {
  const text = prose(readFileSync(page, "utf8"));
  const raw = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
  return raw
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [path, anchor] = href.split("#") as [string, string | undefined];
      return { target: path === "" ? page : normalize(join(dirname(page), path)), anchor };
    });
}

const anchorsOf = (page: string) => new Set([...readFileSync(page, "utf8").matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

/** The pages reachable from the README in at most `depth` links, with their text. */
function reachable(depth: number): Map<string, string> {
  const seen = new Map<string, string>([["README.md", readme]]);
  let frontier = ["README.md"];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const page of frontier) {
      for (const { target } of linksOf(page)) {
        if (!target.endsWith(".md") || seen.has(target) || !existsSync(target)) continue;
        seen.set(target, readFileSync(target, "utf8"));
        next.push(target);
      }
    }
    frontier = next;
  }
  return seen;
}

describe("README", () => {
  it(`is at most ${README_MAX_LINES} lines`, () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("has the two-line quick start, saying what the test line needs and how long it takes", () => {
    expect(readme).toContain("## Quick start\n\n```sh\nnpm ci && npm start\nnpm ci && npm test\n```");
    const after = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("\n## ", readme.indexOf("## Quick start") + 1));
    expect(after).toMatch(/Chromium/);
    expect(after).toMatch(/php-cli/);
    expect(after).toMatch(/about \d+ minutes/);
    expect(readFileSync(".ci/run", "utf8")).toMatch(/npm10 test\b/);
  });

  it("says how to get it: npx, npm i -D, a git URL or tarball, Docker, a clone", () => {
    const get = readme.slice(readme.indexOf("## Get it"), readme.indexOf("## Quick start"));
    for (const way of ["npx merchant-sandbox start", "npm i -D merchant-sandbox", "npm pack", "git+", "docker run", "clone"]) expect(get, way).toContain(way);
  });

  it("states the supported Node versions that package.json's engines admit", () => {
    const engines = JSON.parse(readFileSync("package.json", "utf8")).engines.node as string;
    const stated = /Node\.js 20\.19 or later on the 20 line, 22\.12 or later on 22, and 24 or later/.exec(readme);
    expect(stated, "the README's supported-versions sentence").not.toBeNull();
    for (const v of ["20.19.0", "22.12.0", "24.0.0", "26.0.0"]) expect(semver.satisfies(v, engines), `${v} in engines ${engines}`).toBe(true);
    for (const v of ["18.20.0", "20.18.0", "22.11.0"]) expect(semver.satisfies(v, engines), `${v} outside engines ${engines}`).toBe(false);
  });

  // What a newcomer looked for and could not find, each with text that only the page answering it holds.
  // The ending whose payout fails at settlement, plainly (not at enquiry, late, or on a status read).
  const failEnding = Object.entries(PAYOUT_MAGIC).find(([, m]) => "outcome" in m && m.outcome === "failed" && !("enquiry" in m) && !("delay_ms" in m) && !("queries" in m))?.[0];
  const tasks: [string, RegExp][] = [
    ["making a payout complete or fail", /\/sandbox\/v1\/payouts\/[^\s]*\/(complete|fail)/],
    ["advancing the clock", /\/sandbox\/v1\/clock\/advance/],
    ["that a new merchant's clock is manual", /manual clock/i],
    ["receiving a webhook and checking its signature", /X-Webhook-Signature/],
    ["merchant-sandbox listen", /merchant-sandbox listen/],
    ["loading a scenario in CI", /application\/yaml/],
    ["the magic account that fails a payout", new RegExp(`\\b\\d{6}${failEnding}\\b|\`${failEnding}\``)],
  ];
  it.each(tasks)("leads to %s in at most two links", (_task, answer) => {
    expect(failEnding, "a PAYOUT_MAGIC ending that fails").toMatch(/^\d{4}$/);
    const found = [...reachable(2)].filter(([, text]) => answer.test(text)).map(([page]) => page);
    expect(found.length, `a page within two links of the README matching ${answer}`).toBeGreaterThan(0);
  });
});

describe("markdown pages", () => {
  it("are found", () => expect(pages.length).toBeGreaterThan(20));

  it.each(pages)("%s: every relative link and image resolves, anchors included", (page) => {
    for (const { target, anchor } of linksOf(page)) {
      expect(existsSync(target), `${page} links to ${target}`).toBe(true);
      if (anchor && target.endsWith(".md")) expect(anchorsOf(target).has(anchor), `${page} links to ${target}#${anchor}`).toBe(true);
    }
  });

  it.each(pages)("%s: every file it names in backticks exists", (page) => {
    const text = readFileSync(page, "utf8");
    const roots = "src|test|examples|scenarios|fixtures|bench|tools|vendor|docs|\\.ci|\\.github";
    for (const [, ref] of text.matchAll(new RegExp(`\`((?:${roots})/[^\`\\s]*)\``, "g"))) {
      if (ref!.includes("*")) {
        const dir = dirname(ref!);
        const pattern = new RegExp(`^${ref!.slice(dir.length + 1).replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
        expect(existsSync(dir) && readdirSync(dir).some((f) => pattern.test(f)), `${page}: ${ref}`).toBe(true);
      } else {
        expect(existsSync(ref!.replace(/\/$/, "")), `${page}: ${ref}`).toBe(true);
      }
    }
  });

  it("their TypeScript snippets type-check against the built package", () => {
    const snippets = pages.flatMap((page) => blocks(readFileSync(page, "utf8"), "ts").map((code) => ({ page, code })));
    expect(snippets.length).toBeGreaterThanOrEqual(1);
    const dir = join(".tmp", "doc-snippets");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    snippets.forEach(({ page, code }, i) => writeFileSync(join(dir, `${page.replace(/[^\w]+/g, "-")}-${i + 1}.ts`), `export {};\n${code}`));
    // Inside this package, so `import ... from "merchant-sandbox"` resolves to dist/ through package.json "exports".
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: { noEmit: true, rootDir: "." }, include: ["*.ts"] }));
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("the README's pictures exist and are not empty", () => {
    for (const { target } of linksOf("README.md").filter((l) => l.target.endsWith(".png"))) expect(statSync(target).size).toBeGreaterThan(1000);
  });
});
