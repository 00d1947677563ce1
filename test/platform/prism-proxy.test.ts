/**
 * Stoplight Prism as a validating proxy in front of a running sandbox, as a merchant team uses it:
 * every /api/v1 operation, on its success path and its documented errors (the document's own
 * examples), plus a request without credentials, goes through Prism, which checks the request and the
 * response against /openapi.json and reports what breaks it in its `sl-violations` header.
 * The document and the sandbox must agree both ways: no response breaks the document, and a request
 * Prism finds invalid is one the sandbox refuses with VALIDATION_ERROR (and the reverse).
 * Each documented request starts from the demo merchant's state as `npm start` makes it (its
 * snapshot, put back before each request), as on the /docs page.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, httpCall, repoFile, startFromArgs, stopServers } from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";
import { operations, shapeOf } from "../openapi-examples.js";

/** A free port outside the ephemeral range (32768-60999) that tests must not pick. */
async function freeLowPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer().once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/**
 * Validation rules the document states in words only, as no schema can check them: two decimals
 * (`multipleOf: 0.01` is not exact in binary floating point, so validators would refuse amounts such
 * as 0.07), ids that must come from a catalogue endpoint (data, not schema), and the provider's own
 * lookups of a smart card or meter.
 */
const WORDS_ONLY = [/at most two decimal places/, /^Unknown (data plan|cable plan|exam type|disco|bank_code)\b/, /could not find (smart card|meter)\b/];

let sandboxUrl = "";
let prism: StartedServer | undefined;
let demoSnapshot: unknown;

beforeAll(async () => {
  const running = await startFromArgs([]);
  sandboxUrl = running.url;
  demoSnapshot = (await httpCall(sandboxUrl, "GET", "/sandbox/v1/snapshot", { headers: DEMO_KEYS })).body;
  // The served document, from a file: Prism 5 on Node 24 cannot fetch a document from a URL
  // (stoplightio/prism#2723: "Expected signal to be an instance of AbortSignal").
  const document = join(mkdtempSync(join(tmpdir(), "prism-")), "openapi.json");
  writeFileSync(document, await (await fetch(`${sandboxUrl}/openapi.json`)).text());
  // Prism binds the port it is given; another process may take it first, so try a few.
  for (let attempt = 0; attempt < 5 && !prism; attempt++) {
    const port = await freeLowPort();
    prism = await startServerProcess(
      repoFile("node_modules/.bin/prism"),
      ["proxy", document, sandboxUrl, "--host", "127.0.0.1", "--port", String(port)],
      { cwd: repoFile("."), timeoutMs: 60_000 },
    ).catch(() => undefined);
  }
  if (!prism) throw new Error("Prism did not start");
}, 120_000);

afterAll(async () => {
  await prism?.stop(2_000);
  await stopServers();
});

/** Sends through Prism; returns the reply and Prism's findings, split by side. */
async function viaPrism(method: string, url: string, opts: { body?: unknown; keys: boolean }) {
  const res = await fetch(`${prism!.url}${url}`, {
    method,
    headers: { ...(opts.keys ? DEMO_KEYS : {}), ...(opts.body !== undefined ? { "content-type": "application/json" } : {}) },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  const violations = JSON.parse(res.headers.get("sl-violations") ?? "[]") as Violation[];
  const side = (s: string) => violations.filter((v) => v.location[0] === s).map((v) => `${v.location.join(".")}: ${v.message}`);
  return { status: res.status, body: text ? (JSON.parse(text) as { error_code?: string }) : undefined, request: side("request"), response: side("response") };
}

const apiOperations = operations.filter((o) => o.path.startsWith("/api/v1/"));

describe("through Stoplight Prism's validating proxy", () => {
  it("covers every /api/v1 operation of the spec, each with its success path and at least one error", () => {
    expect(apiOperations).toHaveLength(32);
    for (const { path, method, requests } of apiOperations) {
      expect(requests.some((r) => r.status < 300), `${method} ${path} success`).toBe(true);
    }
  });

  for (const { requests } of apiOperations) {
    for (const request of requests) {
      it(`${request.operation} "${request.name}": ${request.status}, no violation either way`, async () => {
        const restored = await httpCall(sandboxUrl, "PUT", "/sandbox/v1/snapshot", { headers: DEMO_KEYS, body: demoSnapshot });
        expect(restored.status).toBe(200);
        const reply = await viaPrism(request.method, request.url, { body: request.body, keys: !request.anonymous });
        expect(reply.response, "responses Prism finds outside the document").toEqual([]);
        expect(reply.status, JSON.stringify(reply.body)).toBe(request.status);
        expect(shapeOf(reply.body)).toEqual(shapeOf(request.expected));
        // Both sides agree on what is invalid input: what the document refuses, the sandbox refuses as
        // invalid; what the sandbox refuses as invalid, the document refuses too, but for rules JSON
        // Schema cannot state exactly (WORDS_ONLY), which the descriptions state in words.
        if (reply.body?.error_code !== "VALIDATION_ERROR") expect(reply.request, "requests Prism finds outside the document").toEqual([]);
        else if (reply.request.length === 0) {
          const messages = Object.values((reply.body as { errors?: Record<string, string[]> }).errors ?? {}).flat();
          expect(messages.filter((m) => !WORDS_ONLY.some((rule) => rule.test(m))), "refusals the document does not state").toEqual([]);
        }
      });
    }
  }

  it.each(apiOperations.filter((o) => o.requests.length > 0).map((o) => [o.requests[0]!.operation, o.requests[0]!] as const))(
    "%s without credentials: 401 MISSING_CREDENTIALS, as documented",
    async (_name, request) => {
      const reply = await viaPrism(request.method, request.url, { body: request.body, keys: false });
      expect(reply.status).toBe(401);
      expect(reply.body?.error_code).toBe("MISSING_CREDENTIALS");
      expect(reply.response).toEqual([]);
      // Prism reports the missing security headers themselves (and nothing else) on the request side.
      expect(reply.request.every((v) => /security|header|X-Api/i.test(v)), reply.request.join("\n")).toBe(true);
    },
  );
});
