/**
 * /docs: the interactive API reference (Scalar), with its script served by the sandbox itself so it
 * works offline: no CDN, no web fonts, no telemetry, and "try it" requests go straight to this host.
 */
import { Scalar } from "@scalar/hono-api-reference";
import { Hono } from "hono";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const SCRIPT_PATH = require.resolve("@scalar/api-reference/browser/standalone.js");
let script: Promise<Buffer> | undefined;

export function docsRoutes() {
  return new Hono()
    .get(
      "/docs",
      Scalar({
        url: "/openapi.json",
        cdn: "/docs/scalar.js",
        pageTitle: "Merchant Payments Service: merchant-sandbox API reference",
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        // The hosted extras (AI chat, share/deploy toolbar) need Scalar's servers: off for offline use.
        showDeveloperTools: "never",
        showToolbar: "never",
        agent: { disabled: true },
      } as Parameters<typeof Scalar>[0]),
    )
    .get("/docs/scalar.js", async (c) => {
      script ??= readFile(SCRIPT_PATH);
      c.header("content-type", "text/javascript; charset=utf-8");
      c.header("cache-control", "public, max-age=86400");
      return c.body(new Uint8Array(await script));
    });
}
