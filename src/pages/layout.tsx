/** @jsxImportSource hono/jsx */
/**
 * The HTML shell of the sandbox's own pages: the one stylesheet (src/browser/styles/) and the page's
 * bundled script (src/browser/), both inlined under the response's CSP nonce, so the pages work offline
 * and need no asset route. No style attributes anywhere (the CSP allows only the nonce'd stylesheet).
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { asset, type AssetName } from "./assets.js";

/**
 * `nonce`: the response's CSP nonce (cspNonce(c)). `script`: the page's bundled script.
 * `skipTo`: the id of the main content; a "Skip to content" link to it is then the first Tab stop.
 * `banner`: the "no real money" strip (the dashboard shows its sandbox mark in its own top bar instead).
 * `data`: data-* attributes on <body>, the settings the page's script reads (never secrets).
 */
export function Page(props: {
  title: string;
  nonce: string;
  script?: Extract<AssetName, `${string}.js`>;
  skipTo?: string;
  banner?: boolean;
  bodyClass?: string;
  data?: Record<string, string>;
  children?: Child;
}) {
  const data = Object.fromEntries(Object.entries(props.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  return (
    <>
    {raw("<!doctype html>")}
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{props.title}</title>
        <style nonce={props.nonce}>{raw(asset("styles.css"))}</style>
      </head>
      <body class={props.bodyClass} {...data}>
        {props.skipTo ? <a class="skip-link" href={`#${props.skipTo}`}>Skip to content</a> : null}
        {props.banner === false ? null : <div class="sandbox-banner" role="note">Sandbox: no real money moves</div>}
        {props.children}
        {props.script ? <script nonce={props.nonce}>{raw(asset(props.script))}</script> : null}
      </body>
    </html>
    </>
  );
}
