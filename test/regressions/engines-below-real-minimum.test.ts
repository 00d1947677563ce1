/**
 * A production dependency (entities@9, under @scalar) needed Node 20.19 while
 * package.json said ">=20". `engines` must state the real minimum: the highest minimum among the
 * packages a production install carries (read from the lockfile, which is what `npm ci` installs).
 */
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  engines?: { node?: string } | string[];
}

describe("package.json engines", () => {
  it("is the highest Node minimum of any production dependency", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockPackage> };
    const production = Object.entries(lock.packages).filter(([path, p]) => path.startsWith("node_modules/") && !p.dev && !p.devOptional);
    expect(production.length).toBeGreaterThan(5);
    let highest = semver.parse("0.0.0")!;
    let because = "";
    for (const [path, p] of production) {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      const min = range ? semver.minVersion(range) : null;
      if (min && semver.gt(min, highest)) [highest, because] = [min, `${path} (${range})`];
    }
    expect(semver.minVersion(pkg.engines.node)!.version, `the highest minimum comes from ${because}`).toBe(highest.version);
  });
});
