/**
 * A production dependency (entities@9, under @scalar) needed Node 20.19 while package.json said
 * ">=20". `engines` must state the real minimum on each Node line it supports, and only the lines every
 * package accepts: read from the lockfile (what `npm ci` installs), production dependencies and the dev
 * tools alike, since a git install runs the build and the README's second line runs the tests (vitest,
 * through vite, needs 20.19 or 22.12).
 */
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

/** The long-term support lines: the even majors still maintained, and every one after. */
const LINES = [20, 22, 24];

/** Dev-only packages whose engines are narrower than ours, and why that never reaches a user. */
const EXCUSED: Record<string, string> = {
  "node_modules/watskeburt": "dependency-cruiser's git change detection (--affected, its cache), which check:deps never uses; it asks 22.13 on 22",
  "node_modules/@rolldown/binding-wasm32-wasi": "rolldown's WebAssembly build, installed only where it has no native binary (Linux, macOS and Windows on x64 and arm64 all have one)",
  "node_modules/@napi-rs/wasm-runtime": "the runtime of that WebAssembly build",
};

const engines = (JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node;
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockPackage> };
/** Every installed package's Node range, by its lockfile path. */
const ranges = Object.entries(lock.packages).flatMap(([path, p]) =>
  path.startsWith("node_modules/") && !Array.isArray(p.engines) && p.engines?.node ? [{ path, range: p.engines.node }] : [],
);
const held = ranges.filter(({ path }) => !(path in EXCUSED));

/** The lowest version on Node line `line` that `range` accepts, or null when it accepts none there. */
function minimumOn(range: string, line: number): string | null {
  const lowest = new semver.Range(range).set
    .map((comparators) => semver.minVersion([...comparators.map((c) => c.value).filter(Boolean), `>=${line}.0.0`, `<${line + 1}.0.0-0`].join(" ")))
    .filter((v): v is semver.SemVer => v !== null)
    .sort(semver.compare);
  return lowest[0]?.version ?? null;
}

describe("package.json engines", () => {
  it("is accepted by every installed package (the excused ones aside)", () => {
    expect(held.length).toBeGreaterThan(50);
    const refusing = held.filter(({ range }) => !semver.subset(engines, range)).map(({ path, range }) => `${path} (${range})`);
    expect(refusing, `engines "${engines}" allows versions these packages refuse`).toEqual([]);
  });

  it("states the highest minimum of any package on each line it supports", () => {
    for (const line of LINES) {
      let highest = `${line}.0.0`;
      let because = "no package";
      for (const { path, range } of held) {
        const min = minimumOn(range, line);
        if (min && semver.gt(min, highest)) [highest, because] = [min, `${path} (${range})`];
      }
      expect(minimumOn(engines, line), `on Node ${line} the highest minimum comes from ${because}`).toBe(highest);
    }
  });

  it("names only the long-term support lines, and every one from 24 on", () => {
    for (const odd of [19, 21, 23]) expect(semver.intersects(engines, `${odd}.x`), `Node ${odd}`).toBe(false);
    expect(semver.intersects(engines, "<20")).toBe(false);
    expect(semver.satisfies("24.0.0", engines) && semver.satisfies("26.0.0", engines)).toBe(true);
  });

  it("excuses only packages that are installed and still need it", () => {
    for (const path of Object.keys(EXCUSED)) {
      const entry = ranges.find((r) => r.path === path);
      expect(entry, `${path} is no longer in the lockfile: drop it from EXCUSED`).toBeDefined();
      expect(semver.subset(engines, entry!.range), `${path} (${entry!.range}) now accepts engines: drop it from EXCUSED`).toBe(false);
    }
  });
});
