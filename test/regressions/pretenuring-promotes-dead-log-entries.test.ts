/**
 * Issue 17: under load, V8's allocation-site pretenuring could start allocating the request log's
 * entries (kept for a few hundred requests) straight in the old generation; each dropped entry then kept
 * the young objects it pointed to alive through the remembered set, every scavenge promoted ~1.7 MB that
 * died soon after, and a process settled at 35-45 µs of CPU per GET instead of 25 (bench/FAST-PATH.md).
 * The CLI turns pretenuring off in its own process, before its bundle runs. How much that saves is the
 * benchmark's to show (bench/profile.mjs prints what each scavenge promotes); this pins the wiring: the
 * built CLI sets the flag, before it compiles the bundle, and still answers.
 */
import { describe, expect, it } from "vitest";
import { builtCliOutputWith } from "../support/processes.js";

// Reports each V8 flag set at run time and the first script compiled through node:vm (the bundle), in order.
const PRELOAD = `
import { createRequire, syncBuiltinESMExports } from "node:module";
const require = createRequire(import.meta.url);
const v8 = require("node:v8");
const vm = require("node:vm");
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { process._rawDebug("V8-FLAG " + flags); return setFlags(flags); };
const Script = vm.Script;
let compiled = false;
vm.Script = class extends Script {
  constructor(...args) {
    if (!compiled) process._rawDebug("VM-SCRIPT");
    compiled = true;
    super(...args);
  }
};
syncBuiltinESMExports();
`;

describe("the built CLI's process", () => {
  it("runs without allocation-site pretenuring, set before the bundle is compiled", async () => {
    const output = await builtCliOutputWith(PRELOAD);
    const flag = output.indexOf("V8-FLAG --no-allocation-site-pretenuring");
    expect(flag).toBeGreaterThanOrEqual(0);
    expect(output.indexOf("VM-SCRIPT")).toBeGreaterThan(flag);
  }, 60_000);
});
