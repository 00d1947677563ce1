/**
 * Security headers of the pages, through hono's secureHeaders (those of every response, nosniff and a
 * deny-all CSP unless a page set its own, are in response-headers.ts): a CSP that allows this origin and
 * the page's own inline script and style through a per-response nonce; the page reads it with cspNonce(c).
 */
import type { Context } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";

type Options = NonNullable<Parameters<typeof secureHeaders>[0]>;

// secureHeaders sends a dozen headers by default; only the ones set below are wanted. Notably no
// HSTS: the sandbox usually runs on plain http, and one https run must not pin a shared host name.
const NOTHING_ELSE: Options = {
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  strictTransportSecurity: false,
  xContentTypeOptions: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** What every page shares: nothing from other origins, no plugins, no <base>, no framing. */
const PAGE_POLICY = {
  defaultSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The sandbox's own pages (payment link, processor checkout, dashboard): inline code only with the nonce. */
export function pageSecurityHeaders() {
  return secureHeaders({
    ...NOTHING_ELSE,
    referrerPolicy: "no-referrer",
    contentSecurityPolicy: { ...PAGE_POLICY, scriptSrc: ["'self'", NONCE], styleSrc: ["'self'", NONCE] },
  });
}

/**
 * /docs (Scalar, measured in chromium). Its script is served from here and started by one nonce'd
 * inline script, so script-src is the other pages'. Scalar's CSS is bundled into its script and
 * injected at run time as <style> elements and style attributes, without a nonce: style-src needs
 * 'unsafe-inline' on this page only (with a nonce next to it browsers would ignore it). No
 * 'unsafe-eval': the one eval is zod's `new Function("")` probe, in a try/catch that falls back to
 * interpreted parsing; chromium reports it as a violation, the only one the browser test allows.
 */
export function docsSecurityHeaders() {
  return secureHeaders({
    ...NOTHING_ELSE,
    referrerPolicy: "no-referrer",
    contentSecurityPolicy: { ...PAGE_POLICY, scriptSrc: ["'self'", NONCE], styleSrc: ["'self'", "'unsafe-inline'"] },
  });
}

/** The nonce of this response's CSP; throws when the route has no page security headers in front. */
export function cspNonce(c: Context): string {
  const nonce: unknown = c.get("secureHeadersNonce");
  if (typeof nonce !== "string") throw new Error(`${c.req.path}: page rendered without pageSecurityHeaders()`);
  return nonce;
}
