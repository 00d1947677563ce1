/**
 * `listen --port P` on a port in use printed Node's raw "listen EADDRINUSE: address already in use"
 * while `start` explained it. Now `listen` says it as `start` does (the same function), naming its own
 * flag, with exit 1 and no stack.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { closedAfterEach, runProcess } from "../helpers.js";

const closed = closedAfterEach((server: ReturnType<typeof createServer>) => new Promise<void>((done) => server.close(() => done())));

describe("listen on a busy port", () => {
  it("one line naming the port and the way out, exit 1", async () => {
    const busy = closed(createServer());
    await new Promise<void>((done) => busy.listen(0, "127.0.0.1", done));
    const { port } = busy.address() as { port: number };
    const run = await runProcess(process.execPath, ["dist/cli.mjs", "listen", "--port", String(port)], { timeoutMs: 30_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`merchant-sandbox listen: port ${port} is already in use on 127.0.0.1: stop the program using it, or choose another port with --port N (0 picks a free one)\n`);
  }, 30_000);
});
