/**
 * Launching Debian's chromium through playwright-core for browser tests. When chromium is missing the
 * tests fail in CI (CI=true: .ci/run installs it) and are skipped locally, with a loud message.
 */
import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const SKIP_BROWSER = !HAVE_CHROMIUM && !process.env.CI;
if (SKIP_BROWSER) {
  console.warn(`\n*** Browser tests SKIPPED: no chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set CHROMIUM_PATH. In CI they fail instead. ***\n`);
}

export const SCREENSHOTS = "test-results/screenshots";

export async function launch(): Promise<Browser> {
  if (!HAVE_CHROMIUM) throw new Error(`chromium is required for browser tests and is missing at ${CHROMIUM}`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}
