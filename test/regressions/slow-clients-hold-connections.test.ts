/**
 * A client that sent its body a byte a second kept its connection for about 5 minutes (Node's default
 * request timeout), and one address could hold as many connections as it liked: 150 stayed open for a
 * whole probe. Now headers must arrive within a bound, a whole request within another (408 in the
 * envelope, then closed), idle keep-alive connections are closed, and each client address may hold only
 * so many connections. The bounds are shortened here so that the test runs in about two seconds.
 */
import { describe, expect, it } from "vitest";
import { connectionsPerIpOf, parseSettings, settingsHelp } from "../../src/config.js";
import { CONNECTIONS_PER_ADDRESS, SHARED_CONNECTIONS_PER_ADDRESS, type ConnectionLimits } from "../../src/http/connection-limits.js";
import { startServer, type RunningSandbox } from "../../src/server.js";
import { closedAfterEach, httpCall } from "../helpers.js";
import { rawConnection, type RawConnection, type RawResponse } from "../support/raw-http.js";

const LIMITS = { headersTimeoutMs: 400, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 200, lingerMs: 500 } satisfies Partial<ConnectionLimits>;
// Node acts on an idle keep-alive connection a second after its advertised timeout.
const KEEP_ALIVE_GRACE_MS = 1_000;
// How late a cut may come on a busy machine: timers, and Node's periodic check of the timeouts.
const LATE_MS = 1_500;

const track = closedAfterEach((s: RunningSandbox) => s.close());
const sockets = closedAfterEach((c: RawConnection) => c.socket.destroy());
const timers = closedAfterEach((t: NodeJS.Timeout) => clearInterval(t));

async function start(argv: string[], connections: Partial<ConnectionLimits> = {}): Promise<RunningSandbox> {
  const parsed = parseSettings(["--port", "0", ...argv], {});
  if ("error" in parsed) throw new Error(parsed.error);
  return track(await startServer(parsed.settings, { connections }));
}
const open = async (url: string, localAddress?: string) => sockets(await rawConnection(url, { localAddress }));
/** Writes one byte every 50 ms until the connection closes. */
const trickle = (c: RawConnection, byte: string) => timers(setInterval(() => c.isClosed() || c.socket.write(byte), 50));
const healthRequest = "GET /health HTTP/1.1\r\nHost: sandbox\r\n\r\n";

function expectTimeout(reply: RawResponse | null) {
  expect(reply, "the connection was closed without its 408").not.toBeNull();
  expect(reply!.status).toBe(408);
  expect(reply!.headers.connection).toBe("close");
  expect(reply!.headers["content-type"]).toMatch(/^application\/json/);
  expect(reply!.headers["x-content-type-options"]).toBe("nosniff");
  expect(JSON.parse(reply!.body)).toMatchObject({ success: false, error_code: "REQUEST_TIMEOUT" });
}

describe("slow clients", () => {
  it("are cut within their bounds, answered 408, while a normal client is served", async () => {
    const s = await start([], LIMITS);
    const merchants = s.registry.list().length;

    const silent = await open(s.url); // connects and says nothing
    const slowHeaders = await open(s.url);
    slowHeaders.socket.write("GET /health HTTP/1.1\r\nHost: sandbox\r\nX-Slow: ");
    trickle(slowHeaders, "a");
    const slowBody = await open(s.url);
    slowBody.socket.write("POST /sandbox/v1/merchants HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{");
    trickle(slowBody, " ");
    const idle = await open(s.url);
    idle.socket.write(healthRequest);
    expect((await idle.response())?.status).toBe(200);
    const idleSince = Date.now();

    // Served meanwhile, on connections of its own.
    expect((await httpCall(s.url, "GET", "/health")).status).toBe(200);
    expect((await httpCall(s.url, "POST", "/sandbox/v1/merchants", { body: {} })).status).toBe(201);

    expectTimeout(await silent.response());
    expectTimeout(await slowHeaders.response());
    expectTimeout(await slowBody.response());
    const [silentMs, headersMs, bodyMs] = await Promise.all([silent.closed, slowHeaders.closed, slowBody.closed]);
    for (const ms of [silentMs, headersMs]) {
      expect(ms).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs);
      expect(ms).toBeLessThan(LIMITS.headersTimeoutMs + LATE_MS);
    }
    // A body arriving byte by byte is held to the whole request's bound, not cut at the headers'.
    expect(bodyMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs);
    expect(bodyMs).toBeLessThan(LIMITS.requestTimeoutMs + LATE_MS);

    // The idle keep-alive connection is closed without an answer (it asked nothing).
    expect(await idle.response()).toBeNull();
    await idle.closed;
    expect(Date.now() - idleSince).toBeLessThan(LIMITS.keepAliveTimeoutMs + KEEP_ALIVE_GRACE_MS + LATE_MS);

    // The cut sign-up made nothing; the normal one made one merchant.
    expect(s.registry.list().length).toBe(merchants + 1);
    expect((await httpCall(s.url, "GET", "/health")).status).toBe(200);
  });
});

describe("connections per client address", () => {
  it("past the cap, a new connection is closed at once, while those held are still served", async () => {
    const s = await start(["--connections-per-ip", "3"]);
    const held = [await open(s.url), await open(s.url), await open(s.url)];
    const refused = await open(s.url);
    expect(await refused.response()).toBeNull();
    expect(await refused.closed).toBeLessThan(1_000);

    // Each held connection still serves its requests.
    for (const c of held) {
      c.socket.write(healthRequest);
      expect((await c.response())?.status).toBe(200);
    }
    // Closing one frees its place.
    held[0]!.socket.destroy();
    // The server may see that close a moment after the client does: a refused try is made again.
    const deadline = Date.now() + 5_000;
    let served: RawResponse | null = null;
    while (served === null && Date.now() < deadline) {
      const c = await open(s.url);
      c.socket.write(healthRequest);
      served = await c.response();
    }
    expect(served?.status).toBe(200);
  });

  it.runIf(process.platform === "linux")("counts each address apart: another address is served while one is at its cap", async () => {
    const s = await start(["--connections-per-ip", "1"]);
    await open(s.url, "127.0.0.1");
    expect(await (await open(s.url, "127.0.0.1")).response()).toBeNull();
    const other = await open(s.url, "127.0.0.2");
    other.socket.write(healthRequest);
    expect((await other.response())?.status).toBe(200);
  });

  it("defaults to a cap, tighter with --shared, none behind a trusted proxy unless set", () => {
    const settings = (argv: string[]) => {
      const parsed = parseSettings(argv, {});
      if ("error" in parsed) throw new Error(parsed.error);
      return parsed.settings;
    };
    expect(connectionsPerIpOf(settings([]))).toBe(CONNECTIONS_PER_ADDRESS);
    expect(connectionsPerIpOf(settings(["--shared"]))).toBe(SHARED_CONNECTIONS_PER_ADDRESS);
    expect(SHARED_CONNECTIONS_PER_ADDRESS).toBeLessThan(CONNECTIONS_PER_ADDRESS);
    expect(connectionsPerIpOf(settings(["--trust-proxy"]))).toBe(0);
    expect(connectionsPerIpOf(settings(["--trust-proxy", "--connections-per-ip", "10"]))).toBe(10);
    expect(connectionsPerIpOf(settings(["--shared", "--connections-per-ip", "0"]))).toBe(0);
    expect(settingsHelp()).toContain(`default ${CONNECTIONS_PER_ADDRESS}, or ${SHARED_CONNECTIONS_PER_ADDRESS} with --shared`);
  });
});
