/**
 * The pages' browser code is checked code: TypeScript modules under src/browser/ (type-checked with the
 * DOM library by `npm run typecheck`), bundled by esbuild. Here: no script or stylesheet is written in
 * a string on the server side, every page asset bundles, and every script and stylesheet a page serves
 * is exactly a bundle (so nothing else can run under the page's nonce).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { asset, type AssetName } from "../../src/pages/assets.js";
import { harness, repoFile } from "../helpers.js";

const { BROWSER_ASSETS, bundleSync } = createRequire(import.meta.url)(repoFile("tools/browser-bundle.cjs")) as {
  BROWSER_ASSETS: Record<AssetName, string>;
  bundleSync(name: string): string;
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe("browser code is checked code", () => {
  it("no server-side source holds browser code or CSS in a string", () => {
    const offenders = sources(repoFile("src"))
      .filter((f) => !f.includes(`${join("src", "browser")}`))
      .filter((f) => {
        const text = readFileSync(f, "utf8");
        return /String\.raw`/.test(text) || /document\.(getElementById|querySelector|addEventListener)/.test(text) || /\{[^}]*\bmargin:\s*\d/.test(text.replace(/\/\*[\s\S]*?\*\//g, ""));
      });
    expect(offenders).toEqual([]);
  });

  it.each(Object.keys(BROWSER_ASSETS))("%s bundles", (name) => {
    const text = bundleSync(name);
    expect(text.length).toBeGreaterThan(100);
    // What a source checkout serves is that bundle.
    expect(asset(name as AssetName)).toBe(text);
  });

  it("every script and stylesheet a page serves is a bundle, under the page's nonce", async () => {
    const h = harness();
    const m = await h.merchant();
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 12_500, description: "Jollof" } });
    const pages = ["/dashboard", "/dashboard/payouts", `/pay/${link.body.reference}`, "/", "/docs"];
    for (const path of pages) {
      const res = await h.app.request(path, { headers: { accept: "text/html" } });
      expect(res.status, path).toBe(200);
      const html = await res.text();
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce, path).toBeTruthy();
      // Inline code only: a script loaded from the sandbox (src) or a JSON data block runs no inline code.
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs]) => !/\bsrc=|type="application\/json"/.test(attrs!));
      const styles = [...html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)];
      for (const [, attrs, body] of [...scripts, ...styles]) {
        expect(attrs, path).toContain(`nonce="${nonce}"`);
        expect(["dashboard.js", "checkout.js", "docs.js", "styles.css"].map((n) => asset(n as AssetName)), path).toContain(body);
      }
      // /docs is Scalar's page, styled by Scalar itself.
      if (path !== "/docs") expect(styles.length, path).toBe(1);
    }
  });
});
