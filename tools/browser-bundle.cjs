// The pages' browser code and stylesheet: TypeScript modules and CSS under src/browser/, bundled by
// esbuild into one script per page and one stylesheet. `npm run build` writes them to dist/assets/
// (tools/build-browser.mjs); the server inlines them under the page's CSP nonce (src/pages/assets.ts),
// so the pages work offline and need no asset route. Run from a source checkout, the server bundles
// them itself on first use (CommonJS, so that fallback can load this synchronously).
const { buildSync } = require("esbuild");
const { join } = require("node:path");

const root = join(__dirname, "..");

/** What each asset is built from (a path under src/browser/). */
const BROWSER_ASSETS = {
  "dashboard.js": "dashboard/main.ts",
  "checkout.js": "checkout/main.ts",
  "docs.js": "docs/main.ts",
  "styles.css": "styles/index.css",
};

/** One asset's text, bundled now. */
function bundleSync(name) {
  const entry = BROWSER_ASSETS[name];
  if (!entry) throw new Error(`unknown page asset ${name}`);
  return buildSync({
    absWorkingDir: root,
    entryPoints: [`src/browser/${entry}`],
    bundle: true,
    minify: true,
    format: name.endsWith(".js") ? "iife" : undefined,
    // Browsers of the last few years: Chromium, Firefox and Safari from 2022 on.
    target: ["chrome100", "firefox100", "safari15"],
    legalComments: "none",
    logLevel: "warning",
    write: false,
  }).outputFiles[0].text;
}

module.exports = { BROWSER_ASSETS, bundleSync };
