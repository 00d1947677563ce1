/**
 * Issue 17, cold start: the checks docs formatted MAX_REPORTED_CREDITS with `toLocaleString` at module
 * load. The first such call sets up ICU's number formatting, ~12 ms of every start (the bounds in
 * schema messages and the other docs use `thousands()` for that reason). The built CLI is started with
 * the locale formatters wrapped to report any call; none may come before the first answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "msb-locale-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PRELOAD = `
for (const [owner, name] of [[Number.prototype, "toLocaleString"], [Date.prototype, "toLocaleString"], [Intl, "NumberFormat"]]) {
  const original = owner[name];
  owner[name] = function (...args) {
    process._rawDebug("LOCALE-FORMAT-CALLED " + name + "\\n" + new Error().stack);
    return new.target ? new original(...args) : original.apply(this, args);
  };
}
`;

describe("the built CLI's start", () => {
  it("formats nothing with ICU's locale formatters before its first answer", async () => {
    const preload = join(dir, "preload.mjs");
    writeFileSync(preload, PRELOAD);
    const server = await startServerProcess(process.execPath, ["--import", pathToFileURL(preload).href, "dist/cli.mjs", "start", "--port", "0"], { cwd: process.cwd() });
    try {
      const res = await fetch(`${server.url}/api/v1/wallet/balance`, {
        headers: { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" },
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.output()).not.toContain("LOCALE-FORMAT-CALLED");
  }, 60_000);
});
