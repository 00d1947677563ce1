/**
 * The pages' script and stylesheet, bundled from src/browser/ (tools/browser-bundle.mjs) and inlined
 * under each response's CSP nonce. Built packages read dist/assets/; a source checkout (tests, `npm run
 * dev`) bundles on first use, so an edit to src/browser/ is never served stale.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type AssetName = "dashboard.js" | "checkout.js" | "docs.js" | "styles.css";

const cache = new Map<AssetName, string>();

export function asset(name: AssetName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = read(name);
    cache.set(name, text);
  }
  return text;
}

function read(name: AssetName): string {
  // dist/pages/*.js and the CLI bundle (dist/cli.cjs) both find dist/assets/.
  for (const at of [`../assets/${name}`, `./assets/${name}`]) {
    const file = new URL(at, import.meta.url);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  const bundler = new URL("../../tools/browser-bundle.cjs", import.meta.url);
  if (!existsSync(new URL("../browser/", import.meta.url)) || !existsSync(bundler)) {
    throw new Error(`merchant-sandbox: the page asset ${name} is missing (run npm run build)`);
  }
  // From src/: esbuild (a dev dependency) through the same options the build uses.
  const { bundleSync } = createRequire(import.meta.url)(bundler.pathname) as { bundleSync(n: string): string };
  return bundleSync(name);
}
