// Bundles the CLI (src/main.ts -> dist/cli.cjs, started by dist/cli.mjs) with esbuild, and writes
// the bundle's V8 code cache (see tools/cli-loader.mjs). A script rather than the esbuild command
// line because of those two steps and one plugin: cold start pays to parse every byte of the bundle,
// and zod's 60-odd message locales were a fifth of it (368 KB) while the sandbox only ever uses the
// English one, which zod registers by itself (classic/schemas.js imports locales/en.js directly). The
// `locales` namespace zod re-exports is swapped for one holding English alone; messages stay identical.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname, join } from "node:path";

const zodLocalesEnglishOnly = {
  name: "zod-locales-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, "../locales/index.js"), namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from "./en.js";`,
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

// CommonJS, for V8's code cache (see tools/cli-loader.mjs, which becomes dist/cli.mjs). The sources
// are ES modules: `import.meta.url` becomes the bundle's own URL, and the loader runs it strict.
const { outputFiles } = await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  outfile: "dist/cli.cjs",
  write: false,
  define: { "import.meta.url": "__import_meta_url" },
  banner: { js: 'var __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [zodLocalesEnglishOnly],
  // The PostgreSQL client is loaded only with a postgres:// --data (src/store/postgres/connect.ts):
  // left out of the bundle, so the cold start of every other store never parses it.
  external: ["postgres"],
});
// The loader wraps the bundle in a function: src/main.ts's `#!` line is the loader's to keep. esbuild
// writes code in ASCII (escaping the rest) but copies comments as they are: escaped here too, so the
// whole bundle is ASCII and the loader can skip decoding it as UTF-8.
const ascii = (text) => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
writeFileSync("dist/cli.cjs", ascii(outputFiles[0].text.replace(/^#!.*\n/, "")));
rmSync("dist/cli.cjs.cache", { force: true });
copyFileSync("tools/cli-loader.mjs", "dist/cli.mjs");
chmodSync("dist/cli.mjs", 0o755);
await warmCodeCache();

/**
 * Writes dist/cli.cjs.cache the way an install would: a `start` of the built CLI on a free port, whose
 * loader writes the cache once the start is up (src/main.ts's `merchant-sandbox:started`, before it
 * says it is listening: by then the start path and the demo merchant's requests are compiled).
 * A build that cannot make it (no loopback, a slow machine) still works: the CLI compiles from source.
 */
async function warmCodeCache() {
  // The defaults, whatever the builder's shell holds (a MERCHANT_SANDBOX_DATA must not be written to).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("MERCHANT_SANDBOX_")));
  const child = spawn(process.execPath, ["dist/cli.mjs", "start", "--port", "0", "--host", "127.0.0.1"], { env, stdio: ["ignore", "pipe", "inherit"] });
  const deadline = Date.now() + 30_000;
  try {
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    while (!out.includes("listening on") && Date.now() < deadline && child.exitCode === null) await sleep(20);
  } finally {
    child.kill();
  }
  if (!existsSync("dist/cli.cjs.cache")) console.warn("build-cli: no code cache was written; the CLI will compile from source");
}
