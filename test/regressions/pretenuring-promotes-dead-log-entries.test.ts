/**
 * Under load, V8's allocation-site pretenuring could start allocating the request log's
 * entries (kept for a few hundred requests) straight in the old generation; each dropped entry then kept
 * the young objects it pointed to alive through the remembered set, every scavenge promoted ~1.7 MB that
 * died soon after, and a process settled at 35-45 µs of CPU per GET instead of 25 (bench/FAST-PATH.md).
 * The CLI turns pretenuring off in its own process once it has started (the start's own long-lived
 * objects gain from it). How much that saves is the benchmark's to show (bench/profile.mjs prints what
 * each scavenge promotes); this pins the wiring: the built CLI sets the flag before it says it is
 * listening, so before any request it serves, and still answers.
 */
import { describe, expect, it } from "vitest";
import { builtCliOutputWith } from "../support/processes.js";

// Reports each V8 flag set at run time, on the same stream (stdout) as the "listening on" line.
const PRELOAD = `
import { createRequire, syncBuiltinESMExports } from "node:module";
const v8 = createRequire(import.meta.url)("node:v8");
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { process.stdout.write("V8-FLAG " + flags + "\\n"); return setFlags(flags); };
syncBuiltinESMExports();
`;

describe("the built CLI's process", () => {
  it("serves without allocation-site pretenuring, set before it says it is listening", async () => {
    const output = await builtCliOutputWith(PRELOAD);
    const flag = output.indexOf("V8-FLAG --no-allocation-site-pretenuring");
    expect(flag).toBeGreaterThanOrEqual(0);
    expect(output.indexOf("listening on")).toBeGreaterThan(flag);
  }, 60_000);
});
