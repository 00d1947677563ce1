/**
 * Cold start: the built CLI (dist/cli.mjs) runs its bundle (dist/cli.cjs) through V8's code
 * cache (dist/cli.cjs.cache: the SHA-256 of the bundle and the payload, then V8's payload). V8 aborts
 * the process on a corrupt payload and would run a stale one, so a cache that does not match the
 * bundle byte for byte must be ignored, and a `start` must write a good one again.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { askBuiltCli } from "../support/processes.js";

const ROOT = resolve(".");
const DIGEST_BYTES = 32;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the built CLI in a folder of its own, with the assets it finds by walking up. */
function install(): string {
  const dir = mkdtempSync(join(tmpdir(), "msb-code-cache-"));
  dirs.push(dir);
  mkdirSync(join(dir, "dist"));
  for (const file of ["cli.mjs", "cli.cjs", "cli.cjs.cache"]) copyFileSync(join(ROOT, "dist", file), join(dir, "dist", file));
  for (const asset of ["fixtures", "vendor", "node_modules"]) symlinkSync(join(ROOT, asset), join(dir, asset));
  return dir;
}

const matches = (dir: string) => {
  const bundle = readFileSync(join(dir, "dist/cli.cjs"));
  const cache = readFileSync(join(dir, "dist/cli.cjs.cache"));
  const payload = cache.subarray(DIGEST_BYTES);
  return payload.length > 0 && createHash("sha256").update(bundle).update(payload).digest().equals(cache.subarray(0, DIGEST_BYTES));
};

/** Starts the copy, asks for the demo merchant's balance, and stops it; resolves with the exit code. */
async function startAndAsk(dir: string, whileUp?: () => Promise<void>): Promise<number | null> {
  const { status, body, code } = await askBuiltCli({ cli: join(dir, "dist/cli.mjs"), cwd: dir, whileUp });
  expect(status).toBe(200);
  expect((body as { success: boolean }).success).toBe(true);
  return code;
}

/**
 * One more start of the copy: its exit code, and whether V8 kept the cache it found (a refused cache is
 * written again, a temporary file renamed in: a new inode).
 */
async function startKeepsCache(dir: string): Promise<{ code: number | null; kept: boolean }> {
  const inode = () => statSync(join(dir, "dist/cli.cjs.cache")).ino;
  const before = inode();
  const code = await startAndAsk(dir);
  return { code, kept: inode() === before };
}

async function until(done: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return done();
}

describe("the CLI's code cache", () => {
  it("is built for the bundle it ships beside", () => {
    expect(matches(ROOT)).toBe(true);
  });

  it("is ignored when its payload is corrupt (V8 would abort), and a start writes a good one again", async () => {
    const dir = install();
    const cache = readFileSync(join(dir, "dist/cli.cjs.cache"));
    for (let i = DIGEST_BYTES + 1000; i < cache.length; i += 997) cache[i]! ^= 0x5a;
    writeFileSync(join(dir, "dist/cli.cjs.cache"), cache);
    expect(matches(dir)).toBe(false);
    const code = await startAndAsk(dir, async () => expect(await until(() => matches(dir), 20_000)).toBe(true));
    expect(code).toBe(0);
    // ... which the next start takes: V8 accepts it.
    expect(await startKeepsCache(dir)).toEqual({ code: 0, kept: true });
  }, 60_000);

  it("shipped by the build is one V8 accepts at a start (the flags the CLI sets while serving do not spoil it)", async () => {
    expect(await startKeepsCache(install())).toEqual({ code: 0, kept: true });
  }, 60_000);

  it("is ignored when the bundle changed since it was made", async () => {
    const dir = install();
    writeFileSync(join(dir, "dist/cli.cjs"), `${readFileSync(join(dir, "dist/cli.cjs"), "utf8")}\n// edited\n`);
    expect(matches(dir)).toBe(false);
    expect(await startAndAsk(dir)).toBe(0);
  }, 60_000);

  it("is ignored when empty or cut short", async () => {
    const dir = install();
    writeFileSync(join(dir, "dist/cli.cjs.cache"), "");
    expect(await startAndAsk(dir)).toBe(0);
    writeFileSync(join(dir, "dist/cli.cjs.cache"), readFileSync(join(ROOT, "dist/cli.cjs.cache")).subarray(0, 5000));
    expect(await startAndAsk(dir)).toBe(0);
  }, 60_000);

  it("rides on a bundle that is ASCII throughout (the loader then skips decoding it as UTF-8); any other text is still decoded as UTF-8", () => {
    const bundle = readFileSync(join(ROOT, "dist/cli.cjs"));
    expect(bundle.every((byte) => byte < 0x80)).toBe(true);
    const dir = install();
    const text = bundle.toString("utf8");
    expect(text).toContain("a high-fidelity sandbox");
    writeFileSync(join(dir, "dist/cli.cjs"), text.replace("a high-fidelity sandbox", "a hîgh-fidelity sandbox — ✓"));
    expect(execFileSync(process.execPath, [join(dir, "dist/cli.mjs"), "--help"], { encoding: "utf8" })).toContain("a hîgh-fidelity sandbox — ✓");
  });

  it("is not needed: a CLI without one starts, and a short command writes none", async () => {
    const dir = install();
    rmSync(join(dir, "dist/cli.cjs.cache"));
    expect(execFileSync(process.execPath, [join(dir, "dist/cli.mjs"), "--help"], { encoding: "utf8" })).toContain("Usage: merchant-sandbox start");
    expect(() => readFileSync(join(dir, "dist/cli.cjs.cache"))).toThrow();
    expect(await startAndAsk(dir)).toBe(0);
  }, 60_000);
});
