/**
 * The production install was 216 packages and 251 MB (Scalar's tree, for one
 * browser script). The packed package, installed with `--omit=dev` into an empty folder as `npx`
 * would, must stay under 30 MB and run: the server, its docs script and the demo merchant.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installPacked } from "../install/consumer.js";
import { startServerProcess, treeBytes } from "../support/processes.js";

const LIMIT_BYTES = 30 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "msb-pack-"));
// Removing a whole node_modules can take longer than the default 10 s hook time on a busy machine.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

describe("the packed package, production install", () => {
  it(`is under 30 MB and runs`, async () => {
    const app = await installPacked(dir, "--omit=dev");

    const bytes = treeBytes(join(app, "node_modules"));
    console.info(`production install of the packed package: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
    expect(bytes).toBeLessThan(LIMIT_BYTES);

    const server = await startServerProcess(join(app, "node_modules", ".bin", "merchant-sandbox"), ["start", "--port", "0"], { cwd: app, ready: "Webhook secret" });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      const docs = await fetch(`${server.url}/docs/scalar.js`);
      expect(docs.status).toBe(200);
      expect((await docs.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 180_000);
});
