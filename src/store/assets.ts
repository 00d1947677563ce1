/**
 * Files the package ships beside its code (fixtures/, vendor/, scenarios/), found by walking up from
 * this module: the same lookup works from src/ (tests), dist/ (the library) and the single-file CLI
 * bundle in dist/.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

/** The path of `relative` in the nearest folder above this module that has it (or where it would be). */
export function findAsset(relative: string, from = HERE): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) return join(from, relative); // not found: the caller's read names the path
  }
}
