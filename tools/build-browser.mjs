// Writes every page asset (tools/browser-bundle.cjs) to dist/assets/.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const { BROWSER_ASSETS, bundleSync } = createRequire(import.meta.url)("./browser-bundle.cjs");
mkdirSync("dist/assets", { recursive: true });
for (const name of Object.keys(BROWSER_ASSETS)) writeFileSync(`dist/assets/${name}`, bundleSync(name));
