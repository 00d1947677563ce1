/**
 * Launching Debian's chromium through playwright-core for browser tests. When chromium is missing the
 * tests fail in CI (CI=true: .ci/run installs it) and are skipped locally, with a loud message. Beside
 * it: a real server for a test file, and merchants signed up on it.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { parseSettings } from "../../src/config.js";
import { startServer, type RunningSandbox } from "../../src/server.js";
import { signUpAt, type ServerMerchant } from "../helpers.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const SKIP_BROWSER = !HAVE_CHROMIUM && !process.env.CI;
if (SKIP_BROWSER) {
  console.warn(`\n*** Browser tests SKIPPED: no chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set CHROMIUM_PATH. In CI they fail instead. ***\n`);
}

export const SCREENSHOTS = "test-results/screenshots";

async function launch(): Promise<Browser> {
  if (!HAVE_CHROMIUM) throw new Error(`chromium is required for browser tests and is missing at ${CHROMIUM}`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/**
 * Records the page's CSP violations (the `securitypolicyviolation` event, and chromium's console
 * errors about the policy) from its first document on. Call before the first goto.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  // A string: this project compiles without the DOM types.
  await page.addInitScript(`document.addEventListener("securitypolicyviolation", (e) => {
    window.__reportCspViolation(e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
  });`);
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  return violations;
}

/**
 * A real server (the CLI's defaults, port 0) and a chromium for one test file: started before its
 * tests, stopped after. Read `.sandbox` and `.browser` inside tests.
 */
export function useBrowserSandbox(): { readonly sandbox: RunningSandbox; readonly browser: Browser } {
  const ctx = {} as { sandbox: RunningSandbox; browser: Browser };
  beforeAll(async () => {
    if (SKIP_BROWSER) return;
    const parsed = parseSettings(["--port", "0"], {});
    if ("error" in parsed) throw new Error(parsed.error);
    ctx.sandbox = await startServer(parsed.settings);
    ctx.browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.sandbox?.close();
  });
  return ctx;
}

/**
 * Opens `url` in a new page of the file's chromium (viewport `width` x `height`, 900 unless given) and
 * checks the page came with its nonce CSP. From the first document on it records the CSP violations
 * (watchCsp) and every request that leaves the file's sandbox (data: URLs aside): `external`, which
 * must stay empty. `clipboard`: the page may read and write the clipboard (copy buttons). `timezoneId`:
 * the browser's time zone (IANA), the system's unless given.
 */
export async function openPage(
  on: { readonly sandbox: RunningSandbox; readonly browser: Browser },
  url: string,
  width = 390,
  options: { height?: number; clipboard?: boolean; timezoneId?: string } = {},
): Promise<{ page: Page; violations: string[]; external: string[]; status: number }> {
  const context = await on.browser.newContext({ viewport: { width, height: options.height ?? 900 }, timezoneId: options.timezoneId });
  if (options.clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: on.sandbox.url });
  const page = await context.newPage();
  // The browser may already be closing (the suite's end): a context that is gone needs no closing.
  page.on("close", () => void context.close().catch(() => undefined));
  const violations = await watchCsp(page);
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(on.sandbox.url) && !r.url().startsWith("data:")) external.push(r.url());
  });
  const res = await page.goto(url);
  expect(res!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  return { page, violations, external, status: res!.status() };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's critical and serious violations on the page as it is now, one line each (rule, impact,
 * first target). Evaluated through the DevTools protocol, so the page's CSP neither blocks nor reports it.
 * `exclude`: CSS selectors of third-party nodes we cannot change (name them at the call).
 */
export async function axeViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const context = exclude.length ? `{ include: [["html"]], exclude: ${JSON.stringify(exclude.map((s) => [s]))} }` : "document";
  const found = (await page.evaluate(`axe.run(${context}).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, target: v.nodes.map((n) => String(n.target)).slice(0, 3).join(" | "), help: v.help })))`)) as {
    id: string; impact: string | null; target: string; help: string;
  }[];
  return found.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id} (${v.impact}) at ${v.target}: ${v.help}`);
}

/** A merchant signed up on a running server (signUpAt: asserts 201), and `api`: a request as that merchant, resolving to the reply's JSON body. */
export async function merchantAt(
  baseUrl: string,
  settings: Record<string, unknown> = {},
): Promise<ServerMerchant & { api(method: string, path: string, body?: unknown): Promise<any> }> {
  const m = await signUpAt(baseUrl, settings);
  return { ...m, api: async (method, path, body) => (await m.call(method, path, { body })).body };
}

/** The two sizes every page is tried at: a laptop and a phone. */
export const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
