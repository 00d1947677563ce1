/**
 * /docs: the interactive API reference (Scalar), with its script served by the sandbox itself so it
 * works offline: no CDN, no web fonts, no telemetry, and "try it" requests go straight to this host.
 * The script is vendored (vendor/scalar/), not a runtime dependency: Scalar's npm packages bring
 * ~80 MB of dependencies for this one browser file.
 */
import { Hono } from "hono";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { findAsset } from "../store/assets.js";
import type { Deps } from "../http/deps.js";
import { cspNonce, docsSecurityHeaders } from "../http/security-headers.js";
import { asset } from "./assets.js";

const SCRIPT_PATH = findAsset("vendor/scalar/standalone.js");

/** Scalar's configuration: the hosted extras (AI chat, share/deploy toolbar) need Scalar's servers. */
const CONFIG = {
  url: "/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  showToolbar: "never",
  agent: { disabled: true },
  _integration: "hono",
};

/** Keys /docs fills in, so "try it" runs each pre-filled example as the demo merchant. */
export interface TryItKeys {
  apiKey: string;
  apiSecret: string;
}

/**
 * Scalar's configuration for this page. With keys, both headers are pre-filled and selected: every
 * operation's first example then works as it stands against the demo merchant.
 */
function configFor(keys: TryItKeys | undefined) {
  if (!keys) return CONFIG;
  return {
    ...CONFIG,
    authentication: {
      preferredSecurityScheme: [["ApiKey", "ApiSecret"]],
      securitySchemes: { ApiKey: { value: keys.apiKey }, ApiSecret: { value: keys.apiSecret } },
    },
  };
}

/** JSON inside a <script> data block: `<` escaped so no value can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The nonce is base64 from hono/secure-headers: nothing in it needs escaping in an attribute. */
const page = (nonce: string, keys: TryItKeys | undefined) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Merchant Payments Service: merchant-sandbox API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script type="application/json" id="scalar-config">${scriptJson(configFor(keys))}</script>
    <script nonce="${nonce}">${asset("docs.js")}</script>
  </body>
</html>`;

let script: Promise<{ plain: Buffer; gzipped: Buffer }> | undefined;
const loadScript = async () => {
  const plain = await readFile(SCRIPT_PATH);
  return { plain, gzipped: await promisify(gzip)(plain) };
};

/** `tryItKeys` is read per request: the demo merchant can be deleted (or restored) while running. */
export function docsRoutes({ tryItKeys }: Pick<Deps, "tryItKeys">) {
  return new Hono()
    .get("/docs", docsSecurityHeaders(), (c) => c.html(page(cspNonce(c), tryItKeys())))
    .get("/docs/scalar.js", async (c) => {
      script ??= loadScript();
      const { plain, gzipped } = await script;
      c.header("content-type", "text/javascript; charset=utf-8");
      c.header("cache-control", "public, max-age=86400");
      c.header("vary", "accept-encoding");
      // 3.5 MB as is, about 1 MB compressed: worth it on a shared sandbox reached over a network.
      if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
        c.header("content-encoding", "gzip");
        return c.body(new Uint8Array(gzipped));
      }
      return c.body(new Uint8Array(plain));
    });
}
