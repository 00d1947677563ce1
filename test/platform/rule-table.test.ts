/**
 * ARCHITECTURE.md's "Where each rule lives" table stays true: every file it names exists, every rule lives
 * in at most two source files, and every rule names a test.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";

const architecture = readFileSync("ARCHITECTURE.md", "utf8");
const section = architecture.slice(architecture.indexOf("## Where each rule lives"));
const rows = section
  .slice(0, section.search(/\n#{2,3} (?!Where)/))
  .split("\n")
  .filter((line) => line.startsWith("| ") && !line.startsWith("| Rule") && !line.startsWith("|---"))
  .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, "")));
const pathsIn = (cell: string) => [...cell.matchAll(/`((?:src|test|fixtures|scenarios)\/[^`\s]+)`/g)].map((m) => m[1]!);
/**
 * A path as the files it names: itself, every file under it for a folder, or the files a `*` in its
 * last segment matches (none when nothing does), so a folder or a glob counts as all the files it holds.
 */
const filesOf = (path: string): string[] => {
  if (!path.includes("*")) {
    if (!existsSync(path)) return [];
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path, { recursive: true, encoding: "utf8" }).map((f) => `${path.replace(/\/$/, "")}/${f}`).filter((f) => statSync(f).isFile());
  }
  const dir = dirname(path);
  const pattern = new RegExp(`^${path.slice(dir.length + 1).replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
  return existsSync(dir) ? readdirSync(dir).filter((f) => pattern.test(f)).map((f) => `${dir}/${f}`) : [];
};

describe("ARCHITECTURE.md's rule table", () => {
  it("has rows", () => expect(rows.length).toBeGreaterThan(30));

  for (const [rule, where, tests] of rows) {
    it(`${rule!.slice(0, 80)}: its files exist, in at most two source files, with a test`, () => {
      const sources = pathsIn(where!);
      const missing = [...sources, ...pathsIn(tests!)].filter((p) => filesOf(p).length === 0);
      expect(missing, "files the table names that do not exist").toEqual([]);
      const holding = new Set(sources.filter((p) => p.startsWith("src/")).flatMap(filesOf)).size;
      expect(holding, "source files holding the rule").toBeGreaterThan(0);
      expect(holding, "source files holding the rule").toBeLessThanOrEqual(2);
      expect(pathsIn(tests!).length, "tests pinning the rule").toBeGreaterThan(0);
    });
  }
});
