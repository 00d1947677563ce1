/** @jsxImportSource hono/jsx */
/**
 * `GET /`, the first URL `start` prints: where everything is and how to get keys. A browser gets a
 * small page; any other client (curl's default Accept, `application/json`) the same links as JSON.
 * The demo merchant's keys are shown while it exists, except in shared mode, where anyone on the
 * network reads this page: there the way in is a merchant of one's own.
 */
import { Hono, type Context } from "hono";
import { accepts } from "hono/accepts";
import { readFileSync } from "node:fs";
import { baseUrl } from "../http/base-url.js";
import type { Deps } from "../http/deps.js";
import { cspNonce, pageSecurityHeaders } from "../http/security-headers.js";
import { findAsset } from "../store/assets.js";
import { Page } from "./layout.js";

/** The tutorial, as it ships in the package (and sits in a clone). */
export const GETTING_STARTED = "docs/getting-started.md";

/** The front page's content: the JSON answer, and what the HTML page shows. */
export interface FrontPage {
  api_base_url: string;
  links: { dashboard: string; api_reference: string; openapi: string; health: string };
  guides: {
    /** The tutorial's path in the installed package or a clone. */
    getting_started: string;
    /** Where it can be read online: from package.json's `repository` or `homepage`; null without either. */
    url: string | null;
  };
  keys: {
    /** The demo merchant's keys while it exists; null once deleted, or in shared mode. */
    demo_merchant: { api_key: string; api_secret: string } | null;
    /** Sign-up: a merchant of one's own, with fresh keys, a manual clock and nothing shared. */
    new_merchant: { method: "POST"; url: string; body: Record<string, never> };
  };
}

interface PackageLinks {
  homepage?: string;
  repository?: string | { url?: string };
}

/**
 * Where the tutorial can be read online: the file in the repository when package.json names one on
 * GitHub, else the package's homepage; null when it names neither (the guides are then only files).
 */
export function guideUrl(pkg: PackageLinks): string | null {
  const raw = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const repo = raw?.replace(/^git\+/, "").replace(/\.git$/, "").replace(/^github:/, "https://github.com/");
  if (repo && /^https:\/\/github\.com\/[^/]+\/[^/]+$/.test(repo)) return `${repo}/blob/HEAD/${GETTING_STARTED}`;
  return pkg.homepage ?? null;
}

let packageGuide: string | null | undefined;
/** Read once: package.json does not change while the sandbox runs. */
function packageGuideUrl(): string | null {
  if (packageGuide === undefined) {
    try {
      packageGuide = guideUrl(JSON.parse(readFileSync(findAsset("package.json"), "utf8")) as PackageLinks);
    } catch {
      packageGuide = null;
    }
  }
  return packageGuide;
}

export function frontPage(deps: Pick<Deps, "shared" | "tryItKeys">, base: string): FrontPage {
  const demo = deps.shared ? undefined : deps.tryItKeys();
  return {
    api_base_url: `${base}/api/v1`,
    links: { dashboard: `${base}/dashboard`, api_reference: `${base}/docs`, openapi: `${base}/openapi.json`, health: `${base}/health` },
    guides: { getting_started: GETTING_STARTED, url: packageGuideUrl() },
    keys: {
      demo_merchant: demo ? { api_key: demo.apiKey, api_secret: demo.apiSecret } : null,
      new_merchant: { method: "POST", url: `${base}/sandbox/v1/merchants`, body: {} },
    },
  };
}

const path = (url: string) => new URL(url).pathname;

function FrontPageHtml({ page, nonce }: { page: FrontPage; nonce: string }) {
  const { links, guides, keys } = page;
  const demo = keys.demo_merchant;
  return (
    <Page title="merchant-sandbox" nonce={nonce} skipTo="content">
      <main id="content" tabindex={-1}>
        <h1>merchant-sandbox</h1>
        <p>
          A sandbox of the Merchant Payments Service: point your code at <code>{page.api_base_url}</code> instead of the real base URL.
        </p>
        <section class="card" aria-labelledby="open-heading">
          <h2 id="open-heading">Open</h2>
          <ul>
            <li>
              <a href={path(links.dashboard)}>Dashboard</a>: sign in with a merchant's keys to see its payouts, webhooks, logs and integration checks.
            </li>
            <li>
              <a href={path(links.api_reference)}>API reference</a>: every endpoint, with a "try it" in the browser.
            </li>
            <li>
              <a href={path(links.openapi)}>OpenAPI document</a> (<code>/openapi.json</code>), for client generators.
            </li>
            <li>
              <a href={path(links.health)}>Health</a> (<code>/health</code>), for Docker and CI.
            </li>
          </ul>
        </section>
        <section class="card" aria-labelledby="guides-heading">
          <h2 id="guides-heading">Guides</h2>
          <p>
            {guides.url ? <a href={guides.url}>Getting started</a> : "Getting started"}: the tutorial ships with the package, at{" "}
            <code>{guides.getting_started}</code> in its folder (or your clone), beside the how-to and reference pages of <code>docs/</code>.
          </p>
        </section>
        <section class="card" aria-labelledby="keys-heading">
          <h2 id="keys-heading">Keys</h2>
          {demo ? (
            <>
              <p>The demo merchant's keys (it starts with sample activity, every object named "sample"):</p>
              <dl class="details">
                <dt>X-Api-Key</dt>
                <dd class="mono">{demo.api_key}</dd>
                <dt>X-Api-Secret</dt>
                <dd class="mono">{demo.api_secret}</dd>
              </dl>
              <p>A merchant of your own, isolated from everyone else's (one per test):</p>
            </>
          ) : (
            <p>Make a merchant of your own, isolated from everyone else's: the answer carries its keys.</p>
          )}
          <pre class="wrap">
            <code>{`curl -X POST ${keys.new_merchant.url} -H 'Content-Type: application/json' -d '{}'`}</code>
          </pre>
        </section>
      </main>
    </Page>
  );
}

/** Whether the client asked for a page rather than data: browsers name text/html, curl and fetch do not. */
const wantsHtml = (c: Context) => accepts(c, { header: "Accept", supports: ["application/json", "text/html"], default: "application/json" }) === "text/html";

export function frontPageRoutes(deps: Deps) {
  const pageHeaders = pageSecurityHeaders();
  return new Hono().get(
    "/",
    (c, next) => (wantsHtml(c) ? pageHeaders(c, next) : next()),
    (c) => {
      c.header("Vary", "Accept");
      const page = frontPage(deps, baseUrl(deps.publicUrl, c.req.url));
      return wantsHtml(c) ? c.html(<FrontPageHtml page={page} nonce={cspNonce(c)} />) : c.json({ success: true, data: page });
    },
  );
}
