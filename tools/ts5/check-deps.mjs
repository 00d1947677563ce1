#!/usr/bin/env node
// Runs dependency-cruiser on the given folders (default: src) with the project's .dependency-cruiser.cjs,
// prints each forbidden import and exits 1 when there is one.
//
// dependency-cruiser reads TypeScript through the TypeScript compiler API, which TypeScript 7 (the
// project's compiler) does not have. npm installs dependency-cruiser at the root, beside TypeScript 7,
// so here every request for `typescript` is resolved from this folder instead, where TypeScript 5 is:
// ES imports through a module resolve hook, CommonJS requires (its version probe) through the resolver.
import Module, { createRequire, register } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = new URL("./", import.meta.url);
const isTypescript = (specifier) => specifier === "typescript" || specifier.startsWith("typescript/");

register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
      const ts = ${JSON.stringify(String(here))};
      if (specifier === "typescript" || specifier.startsWith("typescript/")) return next(specifier, { ...context, parentURL: ts + "check-deps.mjs" });
      return next(specifier, context);
    }`),
);
// A parent module in this folder: node resolves `typescript` from its node_modules.
const filename = fileURLToPath(import.meta.url);
const parentHere = Object.assign(new Module(filename), { filename, paths: Module._nodeModulePaths(dirname(filename)) });
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  return resolveFilename.call(this, request, isTypescript(request) ? parentHere : parent, ...rest);
};
const requireHere = createRequire(import.meta.url);

const { cruise, format } = await import("dependency-cruiser");
const extractTSConfig = (await import("dependency-cruiser/config-utl/extract-ts-config")).default;
const config = requireHere(pathToFileURL(`${process.cwd()}/.dependency-cruiser.cjs`).pathname);
const roots = process.argv.slice(2);
const result = await cruise(
  roots.length ? roots : ["src"],
  { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } },
  { extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
  { tsConfig: extractTSConfig(config.options.tsConfig.fileName) },
);
const report = await format(result.output, { outputType: "err-long" });
process.stdout.write(report.output);
const summary = result.output.summary;
if (summary.totalCruised === 0) {
  process.stderr.write("dependency check: no module was read (is TypeScript 5 in tools/ts5/node_modules?)\n");
  process.exit(1);
}
process.exit(summary.error > 0 ? 1 : 0);
