// Bundles the CLI (src/main.ts -> dist/cli.mjs) with esbuild. A script rather than the esbuild command
// line because of one plugin: cold start pays to parse every byte of the bundle, and zod's 60-odd
// message locales were a fifth of it (368 KB) while the sandbox only ever uses the English one,
// which zod registers by itself (classic/schemas.js imports locales/en.js directly). The `locales`
// namespace zod re-exports is swapped for one holding English alone; messages stay identical.
import { build } from "esbuild";
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

await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  outfile: "dist/cli.mjs",
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [zodLocalesEnglishOnly],
});
