/**
 * `doctor` against an endpoint where nothing listens printed 41 lines: nine cases failing with the
 * same ECONNREFUSED. Now one line on stderr says what is wrong and what to do, with exit 1, before any
 * delivery is sent; the same for a host that does not resolve and one that does not answer in time.
 */
import { createServer, Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { whyUnreachable } from "../../src/cli/unreachable.js";
import { receivers, runProcess } from "../helpers.js";

const receiver = receivers();
const doctor = (...args: string[]) => runProcess(process.execPath, ["dist/cli.mjs", "doctor", ...args, "--secret", "whsec_any"], { timeoutMs: 30_000 });
const ASKER = { command: "doctor", expects: "receiver" };

/** A port nothing listens on: one the OS just handed out, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

afterEach(() => vi.useRealTimers());

describe("doctor against an endpoint nothing answers at", () => {
  it("connection refused: one line naming the URL and the way out, exit 1, nothing on stdout (--json too)", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/webhooks`;
    for (const extra of [[], ["--json"]]) {
      const run = await doctor("--endpoint", url, ...extra);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(`merchant-sandbox doctor: nothing is listening on ${url} (connection refused). Start your receiver, then run doctor again.\n`);
    }
  }, 30_000);

  it("a host that does not resolve: one line naming the host, exit 1", async () => {
    // .invalid never resolves (RFC 6761); without DNS at all the lookup fails as EAI_AGAIN instead.
    const run = await doctor("--endpoint", "http://receiver.invalid/webhooks");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^merchant-sandbox doctor: the host receiver\.invalid of http:\/\/receiver\.invalid\/webhooks (does not resolve \(no such host\)|could not be looked up \(DNS did not answer\))\. .*then run doctor again\.\n$/);
  }, 30_000);

  it("a host that does not answer in time: one line with the host, port and timeout", async () => {
    vi.useFakeTimers();
    // A socket that never connects, as a host that drops the connection attempt.
    const silent = new Socket();
    const why = whyUnreachable("https://hooks.example.com/webhooks", 10_000, ASKER, () => silent);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await why).toBe(
      "nothing answered at hooks.example.com port 443 within 10 s (https://hooks.example.com/webhooks). Check the host and port in the URL (and any firewall in between), then run doctor again.",
    );
    expect(silent.destroyed).toBe(true);
  });

  it("a listening receiver passes the check without receiving anything (the check sends no request)", async () => {
    const r = await receiver();
    expect(await whyUnreachable(`${r.url}/webhooks`, 5_000, ASKER)).toBeNull();
    expect(r.received).toEqual([]);
  });
});
