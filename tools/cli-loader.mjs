#!/usr/bin/env node
// The CLI's entry (copied to dist/cli.mjs by tools/build-cli.mjs). It runs the bundle, dist/cli.cjs,
// through V8's code cache: compiling the 1.7 MB bundle, and then each function the first time it
// runs, was a third of the time from spawn to the first answer. Node 20 caches code only for
// scripts (vm.Script's cachedData; module.enableCompileCache is Node 22), hence a CommonJS bundle
// run by this small ES module.
//
// The cache, dist/cli.cjs.cache, is the SHA-256 of the bundle and the payload, then V8's payload.
// V8 aborts the whole process on a corrupt payload and would run a stale one against a bundle of
// the same length, so anything that does not match the bundle byte for byte is ignored (V8 itself
// rejects a cache from another V8 version or other flags). Missing or rejected, the cache is
// written again by a `start` once it has started (src/main.ts emits STARTED: by then it has compiled
// the start path and served the demo merchant's requests), before the flags it sets for serving,
// which V8 would count in the cache's check: the build makes it that way, and an install whose Node
// differs mends its own once, if dist/ is writable. Writes go through a temporary file and a rename, so concurrent starts
// never read half a cache.
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

/** The event src/main.ts emits on `process` once a `start` is up, before it changes V8's flags. */
const STARTED = "merchant-sandbox:started";
const DIGEST_BYTES = 32;

const bundle = fileURLToPath(new URL("./cli.cjs", import.meta.url));
const cacheFile = `${bundle}.cache`;
const code = readFileSync(bundle);
const digestOf = (payload) => createHash("sha256").update(code).update(payload).digest();

let cachedData;
try {
  const file = readFileSync(cacheFile);
  const payload = file.subarray(DIGEST_BYTES);
  if (file.length > DIGEST_BYTES && digestOf(payload).equals(file.subarray(0, DIGEST_BYTES))) cachedData = payload;
} catch {
  // no cache yet: compile from source
}

// The bundle as Node would wrap a CommonJS file, strict as the ES modules it was built from. The build
// leaves it all ASCII: read as Latin-1 (the same characters), it skips UTF-8's decoding (bench/FAST-PATH.md).
const text = isAscii(code) ? code.toString("latin1") : code.toString("utf8");
const source = `(function (exports, require, module, __filename, __dirname) {"use strict";${text}\n})`;
const script = new Script(source, { filename: bundle, cachedData });
const [command = "start"] = process.argv.slice(2);
if ((cachedData === undefined || script.cachedDataRejected) && command === "start") process.once(STARTED, writeCache);

const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));

function writeCache() {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    const payload = script.createCachedData();
    writeFileSync(temporary, Buffer.concat([digestOf(payload), payload]));
    renameSync(temporary, cacheFile);
  } catch {
    // a read-only install: it starts without the cache, as it would have anyway
    rmSync(temporary, { force: true });
  }
}
