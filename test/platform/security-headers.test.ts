/** Security headers: nosniff on every response, a nonce CSP on every page, deny-all on the rest. */
import { afterEach, describe, expect, it } from "vitest";
import { client } from "../client.js";
import { DEMO_KEYS, harness, startFromArgs, stopServers, type Reply } from "../helpers.js";

afterEach(stopServers);

const NONCE = "'nonce-([A-Za-z0-9+/]+={0,2})'";
const COMMON = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const PAGE_CSP = new RegExp(`^${COMMON}; script-src 'self' ${NONCE}; style-src 'self' ${NONCE}$`);
const DOCS_CSP = new RegExp(`^${COMMON}; script-src 'self' ${NONCE}; style-src 'self' 'unsafe-inline'$`);
const DENY_ALL = "default-src 'none'; frame-ancestors 'none'";

/** A <script> of a type that is data, not code (a JSON block): the browser never runs it, so the CSP does not govern it. */
const DATA_BLOCK = /^<script\b[^>]*\stype="application\/(?:ld\+)?json"/;

/** Checks a page's headers, and that each of its inline <script> (data blocks aside) and <style> carries the CSP's nonce. */
function expectNoncedPage(res: Reply, policy: RegExp): string {
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("strict-transport-security")).toBeNull();
  const match = policy.exec(res.headers.get("content-security-policy") ?? "");
  expect(match, res.headers.get("content-security-policy") ?? "no CSP").not.toBeNull();
  const nonce = match![1]!;
  const tags = [...String(res.body).matchAll(/<(script|style)\b[^>]*>/g)].map((m) => m[0]);
  for (const tag of tags) if (!/\bsrc=/.test(tag) && !DATA_BLOCK.test(tag)) expect(tag).toContain(`nonce="${nonce}"`);
  expect(String(res.body)).not.toMatch(/\sstyle=/);
  return nonce;
}

describe("security headers", () => {
  it("API and control responses, errors included, carry nosniff and a deny-all CSP", async () => {
    const h = harness();
    const m = await h.merchant();
    const replies = [
      await m.call("GET", "/api/v1/wallet/balance"),
      await m.call("POST", "/api/v1/checkout/create", { body: { amount: 1 } }),
      await h.call("GET", "/api/v1/wallet/balance"),
      await m.call("GET", "/sandbox/v1/merchant"),
      await h.call("GET", "/no/such/route"),
      await h.call("GET", "/health"),
      await h.call("GET", "/openapi.json"),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 422, 401, 200, 404, 200, 200]);
    for (const res of replies) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe(DENY_ALL);
    }
  });

  it("over a real server (JSON answers leave through the node adapter's plain-header path): X-Request-Id, nosniff and deny-all CSP on answers and errors", async () => {
    const s = await startFromArgs([]);
    const get = (headers: Record<string, string>) => fetch(`${s.url}/api/v1/wallet/balance`, { headers });
    const answers = [
      await get({ ...DEMO_KEYS, "x-request-id": "client-id_1=" }),
      await get({ ...DEMO_KEYS, "x-request-id": "not a token" }),
      await get({}),
      await fetch(`${s.url}/api/v1/payout/transfer`, { method: "POST", headers: { ...DEMO_KEYS, "content-type": "text/plain" }, body: "x" }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 415]);
    for (const res of answers) {
      await res.arrayBuffer();
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe(DENY_ALL);
      expect(res.headers.get("x-request-id")).toMatch(/^[\w\-=]+$/);
    }
    expect(answers[0]!.headers.get("x-request-id")).toBe("client-id_1=");
    expect(answers[1]!.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("pages carry a CSP whose nonce is fresh per response and on each inline script and style", async () => {
    const h = harness();
    const ref = (await client(await h.merchant()).checkout({ amount: 2_500 })).reference;

    const first = expectNoncedPage(await h.call("GET", `/pay/${ref}`), PAGE_CSP);
    const second = expectNoncedPage(await h.call("GET", `/pay/${ref}`), PAGE_CSP);
    expect(first).not.toBe(second);
    expectNoncedPage(await h.call("GET", `/processor/checkout/${ref}`), PAGE_CSP);
    expectNoncedPage(await h.call("GET", "/dashboard"), PAGE_CSP);

    const missing = await h.call("GET", "/pay/CHK_NOPE");
    expect(missing.status).toBe(404);
    expectNoncedPage(missing, PAGE_CSP);
    expect(missing.body).toContain('<meta name="viewport"');

    const docs = await h.call("GET", "/docs");
    const docsNonce = expectNoncedPage(docs, DOCS_CSP);
    expect(docs.headers.get("content-security-policy")).not.toContain("unsafe-eval");
    expect(docs.body).toContain('<script src="/docs/scalar.js"></script>');
    // Scalar's configuration is a JSON data block, not code: it parses as JSON, and nothing in it can
    // close its element. The code that reads it is the nonce'd bundled script (checked above).
    const config = /<script type="application\/json" id="scalar-config">([^<]*)<\/script>/.exec(String(docs.body));
    expect(config, "the scalar-config data block").not.toBeNull();
    expect(JSON.parse(config![1]!)).toMatchObject({ url: "/openapi.json" });
    expect(docs.body).toContain(`<script nonce="${docsNonce}">`);
  });
});
