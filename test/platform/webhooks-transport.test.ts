/**
 * The webhook transport against real servers on 127.0.0.1 (port 0): answers and excerpts, bounded
 * reads, deadlines, network errors, the shared-mode refusal of private targets, the concurrency cap
 * and abortAll. Every server a test starts is closed after it, open connections included.
 */
import { createServer, request, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createTransport, describeUrlProblem, isPrivateAddress } from "../../src/webhooks/transport.js";
import { closedAfterEach, closeServer, until } from "../helpers.js";

const closedAfter = closedAfterEach(closeServer);

interface Served {
  port: number;
  url: string;
  /** Requests that reached the handler, with their raw bodies. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }>;
  /** TCP connections accepted, request or not. */
  connections(): number;
}

/** Starts a server whose handler runs once a request's body has been read. */
async function serve(handler: RequestListener): Promise<Served> {
  const requests: Served["requests"] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      handler(req, res);
    });
  });
  server.on("connection", () => connections++);
  closedAfter(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}/hook`, requests, connections: () => connections };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One plain request on a new connection, answered by the server before it resolves. */
function barrier(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/barrier", method: "POST", agent: false }, (res) => res.resume().on("end", resolve));
    req.on("error", reject).end();
  });
}

const JSON_HEADERS = { "content-type": "application/json", "user-agent": "merchant-sandbox-webhooks/1.0" };

describe("answers", () => {
  it("posts the body with the given headers and Content-Length, and reports a 2xx with its excerpt", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok, got it"));
    const transport = createTransport({ blockPrivate: false });
    const body = JSON.stringify({ event: "payment.received", amount: "₦5,000" });

    const result = await transport.post(server.url, { ...JSON_HEADERS, "Content-Length": "1" }, body, 5_000);

    expect(result).toEqual({ status_code: 200, error: null, latency_ms: expect.any(Number), response_excerpt: "ok, got it" });
    expect(Number.isInteger(result.latency_ms)).toBe(true);
    expect(server.requests).toHaveLength(1);
    const [received] = server.requests;
    expect(received).toMatchObject({ method: "POST", url: "/hook", body });
    // The caller's wrong Content-Length is replaced by the real byte length (the naira sign is 3 bytes).
    expect(received!.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(received!.headers).toMatchObject({ "content-type": "application/json", "user-agent": "merchant-sandbox-webhooks/1.0" });
    expect(transport.inflight()).toBe(0);
  });

  it("reports a 5xx as a status with its excerpt, not as an error", async () => {
    const server = await serve((_req, res) => res.writeHead(503).end("receiver is down for maintenance"));
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: 503, error: null, response_excerpt: "receiver is down for maintenance" });
  });

  it("gives an empty excerpt for an empty body", async () => {
    const server = await serve((_req, res) => res.writeHead(204).end());
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: 204, error: null, response_excerpt: "" });
  });

  it("caps the excerpt at 500 characters and decodes UTF-8 split across chunks", async () => {
    const text = "₦".repeat(1_000);
    const bytes = Buffer.from(text, "utf8");
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-length": bytes.length });
      res.write(bytes.subarray(0, 1)); // half of the first naira sign
      res.end(bytes.subarray(1));
    });
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 5_000);
    expect(result.response_excerpt).toBe("₦".repeat(500));
  });

  it("stops reading a body of several MB after 64 KiB, so the call ends quickly", async () => {
    const total = 32 * 1024 * 1024;
    let completed: boolean | undefined;
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": total });
      const chunk = Buffer.alloc(64 * 1024, "x");
      let sent = 0;
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (sent >= total) res.end();
      };
      res.on("close", () => (completed = res.writableFinished));
      pump();
    });

    const began = Date.now();
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 10_000);

    expect(result).toMatchObject({ status_code: 200, error: null, response_excerpt: "x".repeat(500) });
    expect(Date.now() - began).toBeLessThan(3_000);
    await until(() => completed !== undefined, "the server to see its response closed");
    expect(completed, "the client hung up before the whole body was sent").toBe(false);
  });

  it("does not follow a redirect: a 3xx is just a status", async () => {
    const server = await serve((_req, res) => res.writeHead(302, { location: "/elsewhere" }).end("moved"));
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: 302, error: null, response_excerpt: "moved" });
    expect(server.requests.map((r) => r.url)).toEqual(["/hook"]);
  });
});

describe("failures", () => {
  it("times out a server that never answers, within a bounded time", async () => {
    const server = await serve(() => {}); // reads the request, never answers
    const began = Date.now();
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 200);
    expect(result).toEqual({ status_code: null, error: "Timed out after 0.2 s", latency_ms: expect.any(Number), response_excerpt: null });
    expect(result.latency_ms).toBeGreaterThanOrEqual(190);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it("counts the body against the deadline: headers then a stalled body is a timeout", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-length": 1_000 });
      res.write("partial"); // and never the rest
    });
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 200);
    expect(result).toMatchObject({ status_code: null, error: "Timed out after 0.2 s", response_excerpt: null });
  });

  it("reports a refused connection with its code", async () => {
    const port = await closedPort();
    const result = await createTransport({ blockPrivate: false }).post(`http://127.0.0.1:${port}/hook`, JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: null, error: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}`, response_excerpt: null });
  });

  it("reports a TLS failure (https to a plain-HTTP server) as an error", async () => {
    const server = await serve((_req, res) => res.end("ok"));
    const result = await createTransport({ blockPrivate: false }).post(`https://127.0.0.1:${server.port}/hook`, JSON_HEADERS, "{}", 5_000);
    expect(result.status_code).toBeNull();
    expect(result.error).toMatch(/^[A-Z_]+: /);
  });

  it.each([
    ["not a url", /Invalid webhook URL: "not a url" is not a URL/],
    ["", /Invalid webhook URL: "" is not a URL/],
    ["ftp://example.com/hook", /protocol ftp: is not supported/],
    ["file:///etc/passwd", /protocol file: is not supported/],
  ])("refuses the bad URL %j with a result, never a throw", async (url, error) => {
    const result = await createTransport({ blockPrivate: false }).post(url, JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: null, error: expect.stringMatching(error), response_excerpt: null });
  });

  it("turns a header Node refuses into an error result, never a throw", async () => {
    const server = await serve((_req, res) => res.end("ok"));
    const result = await createTransport({ blockPrivate: false }).post(server.url, { "x-bad": "a\r\nb" }, "{}", 5_000);
    expect(result).toMatchObject({ status_code: null, error: expect.stringContaining("ERR_INVALID_CHAR"), response_excerpt: null });
    expect(server.connections()).toBe(0);
  });
});

describe("blockPrivate (shared mode)", () => {
  it.each([
    ["127.0.0.1", (port: number) => `http://127.0.0.1:${port}/hook`, /Refused: 127\.0\.0\.1 is a private or loopback address/],
    ["localhost", (port: number) => `http://localhost:${port}/hook`, /Refused: localhost resolves to (127\.0\.0\.1|::1), which is a private or loopback address/],
    ["https://localhost", (port: number) => `https://localhost:${port}/hook`, /Refused: localhost resolves to (127\.0\.0\.1|::1)/],
    ["[::1]", (port: number) => `http://[::1]:${port}/hook`, /Refused: ::1 is a private/],
    ["[::ffff:127.0.0.1]", (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`, /Refused: ::ffff:7f00:1 is a private/],
    ["0177.0.0.1 (octal)", (port: number) => `http://0177.0.0.1:${port}/hook`, /Refused: 127\.0\.0\.1 is a private/],
    ["0.0.0.0", (port: number) => `http://0.0.0.0:${port}/hook`, /Refused: 0\.0\.0\.0 is a private/],
    ["10.1.2.3", () => "http://10.1.2.3/hook", /Refused: 10\.1\.2\.3 is a private/],
    ["192.168.1.10", () => "http://192.168.1.10/hook", /Refused: 192\.168\.1\.10 is a private/],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data", /Refused: 169\.254\.169\.254 is a private/],
  ])("refuses %s and sends nothing", async (_name, urlFor, error) => {
    const server = await serve((_req, res) => res.end("should not be reached"));
    const transport = createTransport({ blockPrivate: true });
    const result = await transport.post(urlFor(server.port), JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: null, error: expect.stringMatching(error), response_excerpt: null });
    expect(result.error).toContain("shared mode refuses these webhook targets");
    expect(server.connections()).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("reaches a 127.0.0.1 server when blockPrivate is false", async () => {
    const server = await serve((_req, res) => res.end("hello"));
    const result = await createTransport({ blockPrivate: false }).post(server.url, JSON_HEADERS, "{}", 5_000);
    expect(result).toMatchObject({ status_code: 200, error: null, response_excerpt: "hello" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("concurrency", () => {
  it("keeps at most maxConcurrent requests open, starts the queued ones in order, and completes them all", async () => {
    const held: ServerResponse[] = [];
    let arrived = 0;
    let released = 0;
    let maxOpen = 0;
    const server = await serve((req, res) => {
      if (req.url === "/barrier") return void res.end();
      arrived++;
      maxOpen = Math.max(maxOpen, arrived - released);
      held.push(res);
    });
    const transport = createTransport({ blockPrivate: false, maxConcurrent: 2 });

    const results = Array.from({ length: 5 }, (_, i) => transport.post(server.url, JSON_HEADERS, String(i), 5_000));
    expect(transport.inflight()).toBe(5);
    for (let i = 0; i < 5; i++) {
      const open = Math.min(5 - i, 2);
      await until(() => arrived === i + open, `request ${i + open} of 5`);
      // Any connection the transport opened before this point is accepted before the barrier's, so
      // once the barrier is answered the server has seen every connection the transport started.
      await barrier(server.port);
      expect(server.connections() - (i + 1), "connections from the transport").toBe(i + open);
      released++;
      held.shift()!.end(`done ${i}`);
    }

    expect((await Promise.all(results)).map((r) => [r.status_code, r.response_excerpt])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [200, `done ${i}`]),
    );
    expect(maxOpen).toBe(2);
    expect(server.requests.filter((r) => r.url === "/hook").map((r) => r.body)).toEqual(["0", "1", "2", "3", "4"]);
    expect(transport.inflight()).toBe(0);
  });

  it("abortAll ends the requests in flight and the queued ones at once", async () => {
    let closed = 0;
    const server = await serve((req) => req.socket.on("close", () => closed++)); // never answers
    const transport = createTransport({ blockPrivate: false, maxConcurrent: 2 });

    const began = Date.now();
    const results = Array.from({ length: 4 }, () => transport.post(server.url, JSON_HEADERS, "{}", 10_000));
    await until(() => server.requests.length === 2, "two requests in flight");
    expect(transport.inflight()).toBe(4);

    transport.abortAll("server shutting down");
    for (const result of await Promise.all(results)) {
      expect(result).toMatchObject({ status_code: null, error: "Aborted: server shutting down", response_excerpt: null });
    }
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(transport.inflight()).toBe(0);
    await until(() => closed === 2, "the server to see both connections closed");
    expect(server.requests).toHaveLength(2); // the queued two never started

    // The transport stays usable afterwards.
    const later = await serve((_req, res) => res.end("still here"));
    expect(await transport.post(later.url, JSON_HEADERS, "{}", 5_000)).toMatchObject({ status_code: 200, response_excerpt: "still here" });
  });

  it("refuses a maxConcurrent below 1", () => {
    expect(() => createTransport({ blockPrivate: false, maxConcurrent: 0 })).toThrow(RangeError);
  });
});

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["10.0.0.1", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.0.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["100.127.255.255", true],
    ["100.128.0.1", false],
    ["0.0.0.0", true],
    ["224.0.0.251", true],
    ["255.255.255.255", true],
    ["::", true],
    ["::1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["fe80::1", true],
    ["ff02::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:10.0.0.1", true],
    ["::ffff:a9fe:a9fe", true],
    ["0:0:0:0:0:ffff:192.168.0.1", true],
    ["::ffff:8.8.8.8", false],
    ["8.8.8.8", false],
    ["41.58.0.1", false],
    ["2001:4860:4860::8888", false],
    ["2c0f:f248::1", false],
    ["localhost", false],
    ["not an ip", false],
  ])("%s -> %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe("describeUrlProblem", () => {
  it.each([
    ["https://hooks.example.com/payments", true, null],
    ["http://hooks.example.com:8080/payments", true, null],
    ["https://internal.example/hook", true, null], // a hostname is checked at delivery, not here
    ["http://8.8.8.8/hook", true, null],
    ["http://127.0.0.1:3000/hook", false, null],
    ["http://localhost:3000/hook", false, null],
    ["http://127.0.0.1:3000/hook", true, /Refused: 127\.0\.0\.1 is a private or loopback address/],
    ["http://2130706433/hook", true, /Refused: 127\.0\.0\.1/],
    ["http://[::1]/hook", true, /Refused: ::1/],
    ["http://[::ffff:127.0.0.1]/hook", true, /Refused: ::ffff:7f00:1/],
    ["http://10.0.0.5/hook", true, /Refused: 10\.0\.0\.5/],
    ["http://192.168.0.5/hook", true, /Refused: 192\.168\.0\.5/],
    ["http://169.254.169.254/", true, /Refused: 169\.254\.169\.254/],
    ["http://100.64.1.1/", true, /Refused: 100\.64\.1\.1/],
    ["http://localhost:3000/hook", true, /Refused: localhost is a loopback name/],
    ["http://LOCALHOST./hook", true, /Refused: localhost\. is a loopback name/],
    ["http://api.localhost/hook", true, /Refused: api\.localhost is a loopback name/],
    ["ftp://hooks.example.com/", false, /protocol ftp: is not supported/],
    ["javascript:alert(1)", true, /protocol javascript: is not supported/],
    ["hooks.example.com/payments", false, /is not a URL/],
  ])("%s (blockPrivate %s)", (url, blockPrivate, expected) => {
    const problem = describeUrlProblem(url, blockPrivate);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

// The webhook doctor reads a merchant's records view with a GET of the same transport.
describe("get", () => {
  it("sends a GET with no body and gives the answer's text, read up to the bound", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"credited":["TXN_1"]}'));
    const result = await createTransport({ blockPrivate: false }).get(`${server.url}?transaction_ids=TXN_1`, { accept: "application/json" }, 5_000, 1024);
    expect(result).toEqual({ status_code: 200, error: null, latency_ms: expect.any(Number), response_excerpt: '{"credited":["TXN_1"]}', body: '{"credited":["TXN_1"]}', truncated: false });
    expect(server.requests).toMatchObject([{ method: "GET", url: "/hook?transaction_ids=TXN_1", body: "" }]);
    expect(server.requests[0]!.headers).not.toHaveProperty("content-length");
  });

  it("stops at the bound and says the answer was longer", async () => {
    const server = await serve((_req, res) => res.end("x".repeat(10_000)));
    const result = await createTransport({ blockPrivate: false }).get(server.url, {}, 5_000, 100);
    expect(result).toMatchObject({ status_code: 200, body: "x".repeat(100), truncated: true });
  });

  it("refuses private targets in shared mode, as a delivery is refused", async () => {
    const server = await serve((_req, res) => res.end("should not be reached"));
    const result = await createTransport({ blockPrivate: true }).get(server.url, {}, 5_000, 100);
    expect(result).toMatchObject({ status_code: null, body: null, truncated: false, error: expect.stringMatching(/^Refused: 127\.0\.0\.1 is a private/) });
    expect(server.connections()).toBe(0);
  });
});
