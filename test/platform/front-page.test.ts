/**
 * `GET /`, the first URL `start` prints: a small page for a browser, the same links as JSON for any
 * other client; every link it gives resolves; the demo merchant's keys while it exists, never in
 * shared mode; HEAD works.
 */
import { afterEach, describe, expect, it } from "vitest";
import { frontPage, guideUrl, GETTING_STARTED } from "../../src/pages/front-page.js";
import { startBanner } from "../../src/cli/banner.js";
import { DEMO_KEYS, harness, startFromArgs, stopServers } from "../helpers.js";

afterEach(stopServers);

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

const get = (h: ReturnType<typeof harness>, accept?: string, method = "GET") => h.app.request("/", { method, headers: accept ? { accept } : {} });

describe("GET /", () => {
  it("answers a browser with a page of links (dashboard, API reference, OpenAPI, health), the guides and the demo keys", async () => {
    const h = harness({ tryItMerchant: "mch_demo" });
    const res = await get(h, BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("vary")).toBe("Accept");
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    const hrefs = [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(["#content", "/dashboard", "/docs", "/openapi.json", "/health"]);
    expect(html).toContain(`<code>${GETTING_STARTED}</code>`);
    expect(html).toContain(DEMO_KEYS["x-api-key"]);
    expect(html).toContain(DEMO_KEYS["x-api-secret"]);
    expect(html).toContain("curl -X POST http://localhost/sandbox/v1/merchants");
  });

  it("answers JSON (in the success envelope) to Accept: application/json and to curl's */*, with the same links, each answering 200", async () => {
    const h = harness({ tryItMerchant: "mch_demo" });
    for (const accept of ["application/json", "*/*", undefined]) {
      const res = await get(h, accept);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await res.json()) as { success: boolean; data: ReturnType<typeof frontPage> };
      expect(body).toEqual({ success: true, data: frontPage({ shared: false, tryItKeys: () => ({ apiKey: DEMO_KEYS["x-api-key"], apiSecret: DEMO_KEYS["x-api-secret"] }) }, "http://localhost") });
      expect(body.data.keys.demo_merchant).toEqual({ api_key: DEMO_KEYS["x-api-key"], api_secret: DEMO_KEYS["x-api-secret"] });
      for (const link of Object.values(body.data.links)) {
        const linked = await h.app.request(new URL(link).pathname, { headers: { accept: BROWSER } });
        expect(linked.status, link).toBe(200);
      }
    }
  });

  it("leads to a merchant of one's own: the sign-up it names answers 201 with keys", async () => {
    const h = harness();
    const { keys } = ((await (await get(h, "application/json")).json()) as { data: ReturnType<typeof frontPage> }).data;
    expect(keys.demo_merchant).toBeNull(); // no demo merchant to show
    const res = await h.app.request(new URL(keys.new_merchant.url).pathname, { method: keys.new_merchant.method, headers: { "content-type": "application/json" }, body: JSON.stringify(keys.new_merchant.body) });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: { api_key: string } }).data.api_key).toMatch(/^pk_test_/);
  });

  it("never shows the demo keys in shared mode, nor once the demo merchant is deleted", async () => {
    const shared = harness({ tryItMerchant: "mch_demo", shared: true });
    expect(await (await get(shared, BROWSER)).text()).not.toContain(DEMO_KEYS["x-api-key"]);
    expect(((await (await get(shared, "application/json")).json()) as { data: ReturnType<typeof frontPage> }).data.keys.demo_merchant).toBeNull();

    const h = harness({ tryItMerchant: "mch_demo" });
    expect((await h.demo().call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expect(await (await get(h, BROWSER)).text()).not.toContain(DEMO_KEYS["x-api-key"]);
  });

  it("answers HEAD like GET, without a body; other methods get the JSON 404", async () => {
    const h = harness();
    const head = await get(h, BROWSER, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await head.text()).toBe("");
    const post = await get(h, "application/json", "POST");
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ success: false, error_code: "NOT_FOUND" });
  });

  it("links to the tutorial online when package.json names a GitHub repository or a homepage", () => {
    expect(guideUrl({})).toBeNull();
    expect(guideUrl({ repository: { url: "git+https://github.com/acme/merchant-sandbox.git" } })).toBe(`https://github.com/acme/merchant-sandbox/blob/HEAD/${GETTING_STARTED}`);
    expect(guideUrl({ repository: "github:acme/merchant-sandbox" })).toBe(`https://github.com/acme/merchant-sandbox/blob/HEAD/${GETTING_STARTED}`);
    expect(guideUrl({ homepage: "https://sandbox.example.com" })).toBe("https://sandbox.example.com");
  });

  it("is the first URL the start banner gives", async () => {
    const sandbox = await startFromArgs([]);
    const urls = [...startBanner(sandbox, undefined).matchAll(/http:\/\/\S+/g)].map((m) => m[0]);
    expect(urls[0]).toBe(sandbox.url); // "listening on"
    expect(urls[1]).toBe(`${sandbox.url}/`);
    const served = await fetch(urls[1]!, { headers: { accept: BROWSER } });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("<h1>merchant-sandbox</h1>");
  });
});
