/** `merchant-sandbox --version`: the version of the package this CLI ships in, from its package.json. */
import { readFileSync } from "node:fs";
import { findAsset } from "../store/assets.js";

export function packageVersion(): string {
  return (JSON.parse(readFileSync(findAsset("package.json"), "utf8")) as { version: string }).version;
}
